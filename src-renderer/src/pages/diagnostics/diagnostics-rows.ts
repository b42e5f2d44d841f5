import type { PingResult, TracerouteResult } from '@contracts/diagnostics';
import type { Bar } from '../../components/BarChart.js';

/** What the page shows of a finished run: table rows and the latency bars. */
export interface RunView {
  columns: readonly string[];
  rows: { key: string; cells: string[] }[];
  bars: Bar[];
  summary: string;
}

const ms = (value: number | null) => (value === null ? '*' : `${value} ms`);

export function pingView(result: PingResult): RunView {
  return {
    columns: ['Seq', 'From', 'TTL', 'Time'],
    rows: result.replies.map((reply) => ({
      key: String(reply.seq),
      cells: [String(reply.seq), reply.from ?? '—', reply.ttl === null ? '—' : String(reply.ttl), reply.error ?? ms(reply.time_ms)],
    })),
    // Bars are whole tenths of a millisecond: loopback replies are far below 1 ms.
    bars: result.replies.map((reply) => ({ label: `#${reply.seq}`, value: Math.round((reply.time_ms ?? 0) * 10) / 10 })),
    summary: `${result.transmitted} sent, ${result.received} received, ${result.loss_percent}% loss` + (result.avg_ms === null ? '' : ` · min/avg/max ${result.min_ms}/${result.avg_ms}/${result.max_ms} ms`),
  };
}

export function traceView(result: TracerouteResult): RunView {
  return {
    columns: ['Hop', 'Address', 'Round trips', 'Notes'],
    rows: result.hops.map((hop) => ({
      key: String(hop.hop),
      cells: [String(hop.hop), hop.addresses.join(', ') || '*', hop.rtts_ms.map(ms).join('  '), hop.notes.join(' ')],
    })),
    bars: result.hops.map((hop) => {
      const times = hop.rtts_ms.filter((time): time is number => time !== null);
      return { label: `${hop.hop}`, value: times.length === 0 ? 0 : Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 10) / 10 };
    }),
    summary: `${result.hops.length} hop(s) with ${result.tool}; ${result.reached ? 'target reached' : 'target not reached'}${result.timed_out ? ' (stopped at the time limit)' : ''}`,
  };
}
