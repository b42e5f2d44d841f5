import { PruneTimer, type Retention } from '../events/retention.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { isAuthenticatedRow, type AuditEntry, type AuditInput, type UnauthenticatedRequest } from './audit-types.js';
import { UnauthenticatedAggregator, type AggregatorOptions } from './unauthenticated-aggregator.js';

export interface AuditRetention extends Retention {
  /** `maxCount` bounds authenticated rows; this bounds unauthenticated ones (failed logins, anonymous aggregates). */
  unauthenticatedMaxCount: number;
}

export const DEFAULT_AUDIT_RETENTION: AuditRetention = { maxCount: 50_000, unauthenticatedMaxCount: 5_000, maxAgeDays: 180 };

export interface AuditLogOptions {
  retention?: Partial<AuditRetention>;
  aggregation?: AggregatorOptions;
}

/**
 * The audit trail: rows in the `audit` store file, bounded by count and age.
 * Rows of authenticated requests and of unauthenticated ones (no valid
 * credentials: refused requests, failed logins) are counted apart, each
 * class against its own limit, so no amount of anonymous traffic can push
 * out what signed-in users did. Unauthenticated requests are also folded
 * into one row per source and minute (UnauthenticatedAggregator).
 */
export class AuditLog {
  private readonly rows: Collection<AuditEntry>;
  private readonly ageTimer = new PruneTimer(() => this.prune());
  private readonly aggregator: UnauthenticatedAggregator;
  private retention: AuditRetention;
  /** Unauthenticated rows stored now (kept up to date on insert and prune, to trigger pruning without scanning). */
  private unauthenticatedRows: number;

  constructor(store: Store, options: AuditLogOptions = {}) {
    this.rows = store.collection<AuditEntry>('audit_logs', 'audit');
    this.retention = { ...DEFAULT_AUDIT_RETENTION, ...options.retention };
    this.unauthenticatedRows = this.rows.filter((row) => !isAuthenticatedRow(row)).length;
    this.aggregator = new UnauthenticatedAggregator(this.rows, () => this.inserted(false), options.aggregation);
  }

  setRetention(retention: AuditRetention): void {
    this.retention = retention;
    void this.prune();
  }

  getRetention(): AuditRetention {
    return this.retention;
  }

  /**
   * Records a request and resolves when that is durable. Unauthenticated
   * requests go to the aggregator: a single row, or a count added to their
   * source's row of the minute (written within seconds, see flush()).
   */
  async record(input: AuditInput & { route?: string }, now: Date = new Date()): Promise<void> {
    const { route, ...entry } = input;
    if (!entry.authenticated) {
      const request: UnauthenticatedRequest = { ...entry, route: route ?? entry.path };
      await this.aggregator.record(request, now);
      return;
    }
    const { committed } = this.rows.stage({ ...entry, count: 1, aggregate: null }, now);
    this.inserted(true);
    await committed;
  }

  /** Every entry, oldest first. */
  all(): readonly AuditEntry[] {
    return this.rows.all();
  }

  /** Writes the aggregate counts still held in memory (before stopping, and for tests). */
  flush(): Promise<void> {
    return this.aggregator.flush();
  }

  /** Removes rows past the age limit and, per class, the oldest past its count limit; returns how many went. */
  async prune(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retention.maxAgeDays * 86_400_000).toISOString();
    const all = this.rows.all();
    const authenticated = all.filter(isAuthenticatedRow).length;
    let authenticatedExcess = authenticated - this.retention.maxCount;
    let unauthenticatedExcess = all.length - authenticated - this.retention.unauthenticatedMaxCount;
    const expired = new Set<AuditEntry>();
    // Rows are in id order, so each class's excess is its oldest rows.
    for (const row of all) {
      const isAuthenticated = isAuthenticatedRow(row);
      if (isAuthenticated && authenticatedExcess > 0) {
        authenticatedExcess -= 1;
        expired.add(row);
      } else if (!isAuthenticated && unauthenticatedExcess > 0) {
        unauthenticatedExcess -= 1;
        expired.add(row);
      } else if (row.created_at < cutoff) {
        expired.add(row);
      }
    }
    if (expired.size === 0) return 0;
    const removed = await this.rows.removeWhere((row) => expired.has(row));
    this.unauthenticatedRows = this.rows.filter((row) => !isAuthenticatedRow(row)).length;
    return removed.length;
  }

  startAgePrune(intervalMs?: number, onError?: (err: unknown) => void): void {
    this.ageTimer.start(intervalMs, onError);
  }

  stopAgePrune(): void {
    this.ageTimer.stop();
    this.aggregator.stop();
  }

  get agePruneRunning(): boolean {
    return this.ageTimer.running;
  }

  /** Batch pruning (10% slack over a class's limit), as for events. */
  private inserted(authenticated: boolean): void {
    if (!authenticated) this.unauthenticatedRows += 1;
    const authenticatedRows = this.rows.size - this.unauthenticatedRows;
    if (authenticatedRows > this.retention.maxCount * 1.1 || this.unauthenticatedRows > this.retention.unauthenticatedMaxCount * 1.1) {
      void this.prune();
    }
  }
}
