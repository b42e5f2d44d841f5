export interface Bar {
  label: string;
  value: number;
}

/**
 * A small SVG column chart (boots per interval): bars scale to the largest
 * value, every few labels are printed, each bar has a tooltip, and the
 * numbers are also in a visually hidden table for screen readers.
 */
export function BarChart({ bars, title, unit, height = 140 }: { bars: Bar[]; title: string; unit: string; height?: number }) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const width = 600;
  const top = 14;
  const bottom = 22;
  const plot = height - top - bottom;
  const slot = width / Math.max(1, bars.length);
  const labelEvery = Math.max(1, Math.ceil(bars.length / 6));
  return (
    <figure className="bar-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}: ${bars.reduce((sum, bar) => sum + bar.value, 0)} ${unit} in all`}>
        <line x1="0" x2={width} y1={top + plot} y2={top + plot} className="bar-chart-axis" />
        <text x="2" y="10" className="bar-chart-label">
          {max}
        </text>
        {bars.map((bar, index) => {
          const h = (bar.value / max) * plot;
          return (
            <g key={bar.label}>
              <rect x={index * slot + slot * 0.15} y={top + plot - h} width={slot * 0.7} height={Math.max(h, bar.value > 0 ? 1 : 0)} className="bar-chart-bar" rx="2">
                <title>{`${bar.label}: ${bar.value} ${unit}`}</title>
              </rect>
              {index % labelEvery === 0 && (
                <text x={index * slot + slot / 2} y={height - 6} textAnchor="middle" className="bar-chart-label">
                  {bar.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.label}>
              <th scope="row">{bar.label}</th>
              <td>{bar.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
