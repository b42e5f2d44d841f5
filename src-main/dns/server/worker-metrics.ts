import { QTYPE, rcodeName } from './dns-wire.js';

/** Upper bounds (seconds) of the query latency histogram: local answers take microseconds, forwarded ones milliseconds. */
export const LATENCY_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How a query was answered: from local data, from the forward cache, or by asking an upstream. */
export const LATENCY_PATHS = ['local', 'cache', 'upstream'] as const;
export type LatencyPath = (typeof LATENCY_PATHS)[number];

/** Query type labels: the types we know by name, everything else as OTHER (keeps label cardinality bounded). */
const TYPE_LABELS = new Map<number, string>(Object.entries(QTYPE).map(([name, code]) => [code, name]));

export function typeLabel(qtype: number): string {
  return TYPE_LABELS.get(qtype) ?? 'OTHER';
}

/** One counter of queries by type and RCODE; answers hold a reference, so counting is one increment. */
export interface QueryCell {
  type: string;
  rcode: string;
  count: number;
}

/** What a worker reports to the main thread since its last report. */
export interface WorkerMetricsDelta {
  queries: [type: string, rcode: string, count: number][];
  forwarded: number;
  cacheHits: number;
  upstreamFailures: [upstream: string, count: number][];
  /** Per path: counts per bucket (not cumulative; the last is +Inf), the sum of seconds, and the count. */
  latency: { path: LatencyPath; buckets: number[]; sum: number; count: number }[];
}

interface LatencyState {
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Counters kept inside a DNS worker with plain arithmetic (no prom-client on
 * the hot path), handed to the main thread as deltas.
 */
export class WorkerMetrics {
  forwarded = 0;
  cacheHits = 0;
  private readonly cells = new Map<string, QueryCell>();
  private readonly failures = new Map<string, number>();
  private readonly latency = new Map<LatencyPath, LatencyState>(
    LATENCY_PATHS.map((path) => [path, { buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }]),
  );

  cell(qtype: number, rcode: number): QueryCell {
    const type = typeLabel(qtype);
    const name = rcodeName(rcode);
    const key = `${type}|${name}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = { type, rcode: name, count: 0 };
      this.cells.set(key, cell);
    }
    return cell;
  }

  upstreamFailed(upstream: string): void {
    this.failures.set(upstream, (this.failures.get(upstream) ?? 0) + 1);
  }

  observe(path: LatencyPath, milliseconds: number): void {
    const state = this.latency.get(path)!;
    const seconds = milliseconds / 1000;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    state.buckets[bucket]! += 1;
    state.sum += seconds;
    state.count += 1;
  }

  /** The counts since the last call (and resets them), or null when nothing happened. */
  takeDelta(): WorkerMetricsDelta | null {
    const queries: WorkerMetricsDelta['queries'] = [];
    for (const cell of this.cells.values()) {
      if (cell.count > 0) queries.push([cell.type, cell.rcode, cell.count]);
      cell.count = 0;
    }
    const latency: WorkerMetricsDelta['latency'] = [];
    for (const [path, state] of this.latency) {
      if (state.count === 0) continue;
      latency.push({ path, buckets: [...state.buckets], sum: state.sum, count: state.count });
      state.buckets.fill(0);
      state.sum = 0;
      state.count = 0;
    }
    const delta: WorkerMetricsDelta = {
      queries,
      forwarded: this.forwarded,
      cacheHits: this.cacheHits,
      upstreamFailures: [...this.failures],
      latency,
    };
    this.forwarded = 0;
    this.cacheHits = 0;
    this.failures.clear();
    const empty = queries.length === 0 && latency.length === 0 && delta.forwarded === 0 && delta.cacheHits === 0 && delta.upstreamFailures.length === 0;
    return empty ? null : delta;
  }
}
