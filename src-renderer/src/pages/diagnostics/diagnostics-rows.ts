import type { PingReply, PingResult, TraceHop, TracerouteResult } from '@contracts/diagnostics';
import type { Bar } from '../../components/BarChart.js';

/** What the page shows of a run, live or finished: table rows, latency bars and (once done) the summary. */
export interface RunView {
  columns: readonly string[];
  rows: { key: string; cells: string[] }[];
  bars: Bar[];
  /** Null while the run is under way: the statistics come with the result. */
  summary: string | null;
}

const ms = (value: number | null) => (value === null ? '*' : `${value} ms`);
// Bars are whole tenths of a millisecond: loopback replies are far below 1 ms.
const tenths = (value: number) => Math.round(value * 10) / 10;

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
    bars: replies.map((reply, index) => ({ label: `#${reply.seq}${replies.findIndex((r) => r.seq === reply.seq) === index ? '' : `.${index}`}`, value: tenths(reply.time_ms ?? 0) })),
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
    bars: hops.map((hop) => {
      const times = hop.rtts_ms.filter((time): time is number => time !== null);
      return { label: `${hop.hop}`, value: times.length === 0 ? 0 : tenths(times.reduce((a, b) => a + b, 0) / times.length) };
    }),
    summary: result
      ? `${result.hops.length} hop(s) with ${result.tool}; ${result.reached ? 'target reached' : 'target not reached'}${result.timed_out ? ' (stopped at the time limit)' : ''}`
      : null,
  };
}

/** One row per hop in hop order, as the server's result has them (src-main/diagnostics/trace-parser.ts mergeHops). */
export function mergeHops(rows: readonly TraceHop[]): TraceHop[] {
  const byHop = new Map<number, TraceHop>();
  for (const row of rows) {
    const seen = byHop.get(row.hop);
    if (!seen) {
      byHop.set(row.hop, { hop: row.hop, addresses: [...row.addresses], rtts_ms: [...row.rtts_ms], notes: [...row.notes] });
      continue;
    }
    for (const a of row.addresses) if (!seen.addresses.includes(a)) seen.addresses.push(a);
    seen.rtts_ms.push(...row.rtts_ms);
    for (const n of row.notes) if (!seen.notes.includes(n)) seen.notes.push(n);
  }
  return [...byHop.values()].sort((a, b) => a.hop - b.hop);
}
