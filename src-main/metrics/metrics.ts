import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

/** One sample of a metric: its labels and value (null for NaN/±Inf, which JSON cannot carry). */
export interface MetricSample {
  /** Set for histograms and summaries: `<name>_bucket`, `<name>_sum`, `<name>_count`. */
  sample?: string;
  labels: Record<string, string>;
  value: number | null;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  values: MetricSample[];
}

/** GET /metrics as JSON. */
export interface MetricsSnapshot {
  generated_at: string;
  metrics: MetricFamily[];
}

type Config<C> = Omit<C, 'registers'>;

/**
 * The metrics of one core: a prom-client Registry of its own (never the
 * package's global default registry, since several cores can run in one
 * process), with Node's process metrics. Servers add their counters through
 * counter()/gauge()/histogram(); asking twice for one name returns the
 * metric made first, so a restarted server keeps counting.
 */
export class Metrics {
  readonly registry = new Registry();

  constructor(options: { processMetrics?: boolean } = {}) {
    // Standard names (process_cpu_seconds_total, nodejs_heap_size_used_bytes) so stock dashboards work.
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  counter<T extends string>(config: Config<CounterConfiguration<T>>): Counter<T> {
    return (this.existing(config.name) as Counter<T> | undefined) ?? new Counter({ ...config, registers: [this.registry] });
  }

  gauge<T extends string>(config: Config<GaugeConfiguration<T>>): Gauge<T> {
    return (this.existing(config.name) as Gauge<T> | undefined) ?? new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<T extends string>(config: Config<HistogramConfiguration<T>>): Histogram<T> {
    return (this.existing(config.name) as Histogram<T> | undefined) ?? new Histogram({ ...config, registers: [this.registry] });
  }

  /** Prometheus text exposition format 0.0.4. */
  prometheus(): Promise<string> {
    return this.registry.metrics();
  }

  get prometheusContentType(): string {
    return this.registry.contentType;
  }

  async snapshot(now: Date = new Date()): Promise<MetricsSnapshot> {
    const families = await this.registry.getMetricsAsJSON();
    return {
      generated_at: now.toISOString(),
      metrics: families.map((family) => ({
        name: family.name,
        help: family.help,
        // The typings say enum; at run time prom-client reports the type name.
        type: String(family.type) as MetricFamily['type'],
        values: family.values.map((value) => {
          const out: MetricSample = {
            labels: Object.fromEntries(Object.entries(value.labels).map(([key, label]) => [key, String(label)])),
            value: Number.isFinite(value.value) ? value.value : null,
          };
          const sample = (value as { metricName?: string }).metricName;
          if (sample !== undefined) out.sample = sample;
          return out;
        }),
      })),
    };
  }

  private existing(name: string) {
    return this.registry.getSingleMetric(name);
  }
}
