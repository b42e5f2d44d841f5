import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Logger } from '../core/logger.js';
import { errorMessage } from '../core/errors.js';
import type { MetricFamily, Metrics } from '../metrics/metrics.js';
import type { MetricsHistory as MetricsHistoryData } from './system-contract.js';

/**
 * What the dashboard charts over time (docs/settings-and-status.md,
 * "Metrics history"), read from the counters and gauges the servers keep
 * anyway: a gauge is taken as it is, a counter as its rate over the interval.
 */
interface SeriesSpec {
  name: string;
  unit: string;
  description: string;
  metric: string;
  kind: 'gauge' | 'rate';
  /** Only the samples with these labels (all when absent). */
  labels?: Record<string, string>;
}

export const HISTORY_SERIES: readonly SeriesSpec[] = [
  { name: 'dhcp_leases_active', unit: 'leases', description: 'Active DHCP leases', metric: 'bootwright_dhcp_active_leases', kind: 'gauge' },
  { name: 'dhcp_pool_size', unit: 'addresses', description: 'Addresses in the DHCP pools', metric: 'bootwright_dhcp_pool_size', kind: 'gauge' },
  { name: 'boots_ok', unit: 'per minute', description: 'Boot scripts served', metric: 'bootwright_boot_scripts_served_total', kind: 'rate', labels: { outcome: 'ok' } },
  { name: 'boots_fallback', unit: 'per minute', description: 'Boot scripts that failed to render (the machine got the error)', metric: 'bootwright_boot_scripts_served_total', kind: 'rate', labels: { outcome: 'fallback' } },
  { name: 'boots_denied', unit: 'per minute', description: 'Boot scripts refused by the access lists', metric: 'bootwright_boot_scripts_served_total', kind: 'rate', labels: { outcome: 'denied' } },
  { name: 'dns_queries', unit: 'per second', description: 'DNS queries answered', metric: 'bootwright_dns_queries_total', kind: 'rate' },
  { name: 'tftp_bytes', unit: 'bytes per second', description: 'TFTP throughput', metric: 'bootwright_tftp_bytes_sent_total', kind: 'rate' },
  { name: 'http_bytes', unit: 'bytes per second', description: 'HTTP boot throughput (files delivered whole)', metric: 'bootwright_http_boot_bytes_sent_total', kind: 'rate' },
  { name: 'nfs_bytes', unit: 'bytes per second', description: 'NFS read throughput', metric: 'bootwright_nfs_read_bytes_total', kind: 'rate' },
];

/** Per-minute series are multiplied up from per-second rates. */
const PER_MINUTE = new Set(['per minute']);

export interface MetricsHistoryOptions {
  /** Sampling interval; default 60 s. */
  intervalMs?: number;
  /** Points kept per series; default 24 h of minutes. */
  capacity?: number;
  now?: () => number;
  /** Where the samples are kept across restarts (written every `saveEveryMs` and at stop); none: memory only. */
  file?: string;
  /** Default 10 min: a crash loses at most this much of the charts. */
  saveEveryMs?: number;
}

/** The saved form: series by name, so a version that adds or drops a series still reads an older file. */
interface SavedHistory {
  version: 1;
  series: string[];
  points: { at: number; values: (number | null)[] }[];
}

/**
 * A ring of samples of HISTORY_SERIES, kept in a file of the data directory
 * so the dashboard's charts survive a restart (Prometheus is the place for
 * long history). start() reads the file, samples now and every interval;
 * stop() ends it and saves. The file is best effort: a crash loses the
 * samples since the last save, a damaged file starts the charts afresh.
 */
export class MetricsHistory {
  readonly intervalMs: number;
  private readonly capacity: number;
  private readonly now: () => number;
  private readonly points: { at: number; values: (number | null)[] }[] = [];
  private previous: { at: number; totals: (number | null)[] } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private saver: NodeJS.Timeout | null = null;
  private readonly file: string | null;
  private readonly saveEveryMs: number;

  constructor(
    private readonly metrics: Pick<Metrics, 'snapshot'>,
    private readonly log: Logger,
    options: MetricsHistoryOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 60_000;
    this.capacity = options.capacity ?? 1440;
    this.now = options.now ?? Date.now;
    this.file = options.file ?? null;
    this.saveEveryMs = options.saveEveryMs ?? 600_000;
  }

  async start(): Promise<void> {
    if (this.timer) return;
    await this.load();
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    this.timer.unref();
    if (this.file) {
      this.saver = setInterval(() => void this.save(), this.saveEveryMs);
      this.saver.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.saver) clearInterval(this.saver);
    this.timer = null;
    this.saver = null;
    await this.save();
  }

  /** Writes the samples (a new file renamed over the old one: a reader never sees half a file). */
  async save(): Promise<void> {
    if (!this.file) return;
    const saved: SavedHistory = { version: 1, series: HISTORY_SERIES.map((spec) => spec.name), points: this.points };
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(saved), { mode: 0o600 });
      await rename(temporary, this.file);
    } catch (err) {
      this.log.warn(`metrics history: could not save ${this.file}: ${errorMessage(err)}`);
    }
  }

  /** Reads the saved samples younger than the ring's span, mapped onto today's series by name. */
  private async load(): Promise<void> {
    if (!this.file) return;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`metrics history: could not read ${this.file}: ${errorMessage(err)}`);
      return;
    }
    const saved = parseSaved(text);
    if (!saved) {
      this.log.warn(`metrics history: ${this.file} is damaged: the charts start afresh`);
      return;
    }
    const since = this.now() - this.capacity * this.intervalMs;
    const columns = HISTORY_SERIES.map((spec) => saved.series.indexOf(spec.name));
    for (const point of saved.points) {
      if (point.at < since || point.at > this.now()) continue;
      this.push({ at: point.at, values: columns.map((column) => (column < 0 ? null : (point.values[column] ?? null))) });
    }
  }

  /** Takes one sample: gauges as they are, counters as the rate since the previous sample (none for the first). */
  async sample(): Promise<void> {
    try {
      const snapshot = await this.metrics.snapshot();
      const at = this.now();
      const totals = HISTORY_SERIES.map((spec) => total(snapshot.metrics.find((family) => family.name === spec.metric), spec.labels));
      const previous = this.previous;
      const values = HISTORY_SERIES.map((spec, index) => {
        const value = totals[index] ?? null;
        if (spec.kind === 'gauge') return value;
        const before = previous?.totals[index] ?? null;
        if (previous === null || value === null || before === null || at <= previous.at) return null;
        // A counter that went down was reset (a server restarted): no rate for this interval.
        if (value < before) return null;
        const perSecond = (value - before) / ((at - previous.at) / 1000);
        return round(PER_MINUTE.has(spec.unit) ? perSecond * 60 : perSecond);
      });
      this.previous = { at, totals };
      this.push({ at, values });
    } catch (err) {
      this.log.warn(`metrics history: a sample failed: ${errorMessage(err)}`);
    }
  }

  /** The samples of the last `minutes` minutes, per series. */
  view(minutes: number): MetricsHistoryData {
    const since = this.now() - minutes * 60_000;
    const recent = this.points.filter((point) => point.at >= since);
    return {
      interval_seconds: this.intervalMs / 1000,
      series: HISTORY_SERIES.map((spec, index) => ({
        name: spec.name,
        unit: spec.unit,
        description: spec.description,
        points: recent.map((point) => ({ at: new Date(point.at).toISOString(), value: point.values[index] ?? null })),
      })),
    };
  }

  private push(point: { at: number; values: (number | null)[] }): void {
    this.points.push(point);
    if (this.points.length > this.capacity) this.points.splice(0, this.points.length - this.capacity);
  }
}

/** The saved history, or null when the text is not one (any shape error: the file is not trusted in part). */
function parseSaved(text: string): SavedHistory | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { version, series, points } = value as Partial<SavedHistory>;
  if (version !== 1 || !Array.isArray(series) || !series.every((name) => typeof name === 'string') || !Array.isArray(points)) return null;
  const sound = points.every(
    (point: unknown) =>
      typeof point === 'object' &&
      point !== null &&
      Number.isFinite((point as { at?: unknown }).at) &&
      Array.isArray((point as { values?: unknown }).values) &&
      (point as { values: unknown[] }).values.every((entry) => entry === null || Number.isFinite(entry)),
  );
  return sound ? { version, series, points: [...points].sort((a, b) => a.at - b.at) } : null;
}

/** The sum of a family's samples matching `labels` (histogram parts left out); null when the metric does not exist. */
function total(family: MetricFamily | undefined, labels: Record<string, string> | undefined): number | null {
  if (!family) return null;
  let sum = 0;
  for (const sample of family.values) {
    if (sample.sample !== undefined && sample.sample !== family.name) continue;
    if (labels && Object.entries(labels).some(([key, value]) => sample.labels[key] !== value)) continue;
    sum += sample.value ?? 0;
  }
  return sum;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
