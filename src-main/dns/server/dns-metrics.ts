import type { Counter } from 'prom-client';
import type { Metrics } from '../../metrics/metrics.js';
import { LATENCY_BUCKETS, LATENCY_PATHS, type LatencyPath, type WorkerMetricsDelta } from './worker-metrics.js';

const LATENCY_NAME = 'bootwright_dns_query_duration_seconds';

interface MetricSampleValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * The query latency histogram, filled from the workers' bucket counts. A
 * prom-client Histogram only takes single observations, so this is a metric
 * object of the registry's own shape (name, help, type, get) that the
 * registry renders like any histogram.
 */
class WorkerFedHistogram {
  readonly name = LATENCY_NAME;
  readonly help = 'Time from receiving a DNS query to sending its answer, by path (local, cache, upstream).';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly state = new Map<LatencyPath, { buckets: number[]; sum: number; count: number }>(
    LATENCY_PATHS.map((path) => [path, { buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }]),
  );

  add(entry: WorkerMetricsDelta['latency'][number]): void {
    const state = this.state.get(entry.path);
    if (!state) return;
    entry.buckets.forEach((count, index) => {
      if (index < state.buckets.length) state.buckets[index]! += count;
    });
    state.sum += entry.sum;
    state.count += entry.count;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: MetricSampleValue[] } {
    const values: MetricSampleValue[] = [];
    for (const [path, state] of this.state) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((bound, index) => {
        cumulative += state.buckets[index]!;
        values.push({ labels: { path, le: bound }, value: cumulative, metricName: `${LATENCY_NAME}_bucket` });
      });
      values.push({ labels: { path, le: '+Inf' }, value: state.count, metricName: `${LATENCY_NAME}_bucket` });
      values.push({ labels: { path }, value: state.sum, metricName: `${LATENCY_NAME}_sum` });
      values.push({ labels: { path }, value: state.count, metricName: `${LATENCY_NAME}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** The DNS server's metrics in the core's registry, fed by the workers' deltas. */
export class DnsMetrics {
  private readonly queries: Counter<'type' | 'rcode'>;
  private readonly forwarded: Counter;
  private readonly cacheHits: Counter;
  private readonly upstreamFailures: Counter<'upstream'>;
  private readonly latency: WorkerFedHistogram;

  constructor(metrics: Metrics) {
    this.queries = metrics.counter({
      name: 'bootwright_dns_queries_total',
      help: 'DNS queries answered, by query type and response code.',
      labelNames: ['type', 'rcode'] as const,
    });
    this.forwarded = metrics.counter({ name: 'bootwright_dns_forwarded_total', help: 'DNS queries sent to upstream servers (forward cache misses).' });
    this.cacheHits = metrics.counter({ name: 'bootwright_dns_cache_hits_total', help: 'DNS queries answered from the forward cache.' });
    this.upstreamFailures = metrics.counter({
      name: 'bootwright_dns_upstream_failures_total',
      help: 'Failed tries of an upstream DNS server (timeout, network error, refusing or unusable answer).',
      labelNames: ['upstream'] as const,
    });
    const existing = metrics.registry.getSingleMetric(LATENCY_NAME) as unknown as WorkerFedHistogram | undefined;
    this.latency = existing ?? new WorkerFedHistogram();
    if (!existing) metrics.registry.registerMetric(this.latency as never);
  }

  apply(delta: WorkerMetricsDelta): void {
    for (const [type, rcode, count] of delta.queries) this.queries.inc({ type, rcode }, count);
    if (delta.forwarded > 0) this.forwarded.inc(delta.forwarded);
    if (delta.cacheHits > 0) this.cacheHits.inc(delta.cacheHits);
    for (const [upstream, count] of delta.upstreamFailures) this.upstreamFailures.inc({ upstream }, count);
    for (const entry of delta.latency) this.latency.add(entry);
  }
}
