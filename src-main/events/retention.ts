import type { Collection, Row } from '../store/collection.js';

/** How long a log-like collection (events, audit) keeps its rows. */
export interface Retention {
  /** Keep at most this many rows (the oldest go first). */
  maxCount: number;
  /** Drop rows older than this many days. */
  maxAgeDays: number;
}

/** How often the age prune runs while the core runs. */
export const AGE_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Removes the rows past either limit; returns how many went. Rows are kept in
 * insertion (id) order, so the excess is a prefix.
 */
export async function pruneRows<T extends Row>(rows: Collection<T>, retention: Retention, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retention.maxAgeDays * 86_400_000).toISOString();
  const all = rows.all();
  const excess = all.length - retention.maxCount;
  const expired = new Set<T>();
  all.forEach((row, index) => {
    if (index < excess || row.created_at < cutoff) expired.add(row);
  });
  if (expired.size === 0) return 0;
  const removed = await rows.removeWhere((row) => expired.has(row));
  return removed.length;
}

/**
 * Runs a prune now and then every `intervalMs` until stopped. Without it an
 * idle log would keep rows past their age until the next write.
 */
export class PruneTimer {
  private timer: NodeJS.Timeout | null = null;
  private readonly prune: () => Promise<unknown>;

  constructor(prune: () => Promise<unknown>) {
    this.prune = prune;
  }

  get running(): boolean {
    return this.timer !== null;
  }

  start(intervalMs: number = AGE_PRUNE_INTERVAL_MS, onError: (err: unknown) => void = () => undefined): void {
    if (this.timer) return;
    const run = () => {
      this.prune().catch(onError);
    };
    this.timer = setInterval(run, intervalMs);
    // The timer alone must never keep the process alive.
    this.timer.unref();
    run();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
