import { mergeHops, type PingReply, type PingResult, type TraceHop, type TracerouteResult } from '@contracts/diagnostics';
import type { Bar } from '../../components/BarChart.js';

/** What the page shows of a run, live or finished: table rows, latency bars and (once done) the summary. */
export interface RunView {
  columns: readonly string[];
  rows: { key: string; cells: string[] }[];
  bars: Bar[];
  /** The bars' unit: µs when every time is below a millisecond (loopback, a LAN), else ms. */
  unit: 'ms' | 'µs';
  /** Null while the run is under way: the statistics come with the result. */
  summary: string | null;
}

const ms = (value: number | null) => (value === null ? '*' : `${value} ms`);

/** Latency bars: tenths of a millisecond, or whole microseconds when all are below 1 ms (they would be flat on a ms scale). */
function latencyBars(points: { label: string; ms: number }[]): { bars: Bar[]; unit: 'ms' | 'µs' } {
  const small = points.every((point) => point.ms < 1);
  return {
    bars: points.map((point) => ({ label: point.label, value: small ? Math.round(point.ms * 1000) : Math.round(point.ms * 10) / 10 })),
    unit: small ? 'µs' : 'ms',
  };
}

/** Ping rows as they came (`rows`), or the result's once it is done. */
export function pingView(rows: readonly PingReply[], result: PingResult | null): RunView {
  const replies = result?.replies ?? rows;
  return {
    columns: ['Seq', 'From', 'TTL', 'Time'],
    // A seq can repeat (a reply and an error report for the same request), so the key carries the position.
    rows: replies.map((reply, index) => ({
      key: `${index}-${reply.seq}`,
      cells: [String(reply.seq), reply.from ?? '—', reply.ttl === null ? '—' : String(reply.ttl), reply.error ?? ms(reply.time_ms)],
    })),
    // A repeated seq (a reply and an error report) gets its position too: bar labels are keys.
    ...latencyBars(replies.map((reply, index) => ({ label: `#${reply.seq}${replies.findIndex((r) => r.seq === reply.seq) === index ? '' : `.${index}`}`, ms: reply.time_ms ?? 0 }))),
    summary: result
      ? `${result.transmitted} sent, ${result.received} received, ${result.loss_percent}% loss` +
        (result.avg_ms === null ? '' : ` · min/avg/max ${result.min_ms}/${result.avg_ms}/${result.max_ms} ms`) +
        (result.timed_out ? ' (stopped at the time limit)' : '')
      : null,
  };
}

/** Traceroute hops as they came (tracepath's repeated hop lines merged), or the result's once it is done. */
export function traceView(rows: readonly TraceHop[], result: TracerouteResult | null): RunView {
  const hops = result?.hops ?? mergeHops(rows);
  return {
    columns: ['Hop', 'Address', 'Round trips', 'Notes'],
    rows: hops.map((hop) => ({
      key: String(hop.hop),
      cells: [String(hop.hop), hop.addresses.join(', ') || '*', hop.rtts_ms.map(ms).join(' '), hop.notes.join(' ')],
    })),
    ...latencyBars(
      hops.map((hop) => {
        const times = hop.rtts_ms.filter((time): time is number => time !== null);
        return { label: `${hop.hop}`, ms: times.length === 0 ? 0 : times.reduce((a, b) => a + b, 0) / times.length };
      }),
    ),
    summary: result
      ? `${result.hops.length} hop(s) with ${result.tool}; ${result.reached ? 'target reached' : 'target not reached'}${result.timed_out ? ' (stopped at the time limit)' : ''}`
      : null,
  };
}
