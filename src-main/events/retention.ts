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
 * insertion (id) order, so the excess is a prefix, and so are the expired
 * rows as long as the clock only went forward. `prefixOnly` (the prune a
 * write triggers) removes just that prefix: its cost is the rows removed,
 * not the rows kept. The full prune (at start, hourly, on a retention
 * change) also finds expired rows behind newer ones (after the clock was
 * set back).
 */
export async function pruneRows<T extends Row>(rows: Collection<T>, retention: Retention, now: Date = new Date(), options: { prefixOnly?: boolean } = {}): Promise<number> {
  const cutoff = new Date(now.getTime() - retention.maxAgeDays * 86_400_000).toISOString();
  const all = rows.all();
  const excess = all.length - retention.maxCount;
  let prefix = 0;
  while (prefix < all.length && (prefix < excess || all[prefix]!.created_at < cutoff)) prefix += 1;
  let removed = (await rows.removeFirst(prefix)).length;
  if (options.prefixOnly) return removed;
  removed += (await rows.removeWhere((row) => row.created_at < cutoff)).length;
  return removed;
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
