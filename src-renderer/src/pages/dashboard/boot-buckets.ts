import type { Bar } from '../../components/BarChart.js';

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Counts events per `bucketMinutes` over the `windowMinutes` before `now`
 * (oldest first), labelled with the bucket's local start time ("14:05").
 */
export function bucketByTime(times: readonly string[], now: number, windowMinutes = 60, bucketMinutes = 5): Bar[] {
  const bucketMs = bucketMinutes * 60_000;
  const count = Math.ceil(windowMinutes / bucketMinutes);
  // Align to bucket boundaries so the labels are round times.
  const end = Math.ceil(now / bucketMs) * bucketMs;
  const start = end - count * bucketMs;
  const bars: Bar[] = [];
  for (let index = 0; index < count; index++) {
    const at = new Date(start + index * bucketMs);
    bars.push({ label: `${pad2(at.getHours())}:${pad2(at.getMinutes())}`, value: 0 });
  }
  for (const time of times) {
    const at = Date.parse(time);
    if (Number.isNaN(at) || at < start || at >= end) continue;
    const bar = bars[Math.floor((at - start) / bucketMs)];
    if (bar) bar.value += 1;
  }
  return bars;
}
