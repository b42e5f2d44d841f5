import { PruneTimer, pruneRows, type Retention } from '../events/retention.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import type { AuditEntry, AuditInput } from './audit-types.js';

export type AuditRetention = Retention;

export const DEFAULT_AUDIT_RETENTION: AuditRetention = { maxCount: 50_000, maxAgeDays: 180 };

/** The audit trail: rows in the `audit` store file, bounded by count and age. */
export class AuditLog {
  private readonly rows: Collection<AuditEntry>;
  private readonly ageTimer = new PruneTimer(() => this.prune());
  private retention: AuditRetention;

  constructor(store: Store, retention: AuditRetention = DEFAULT_AUDIT_RETENTION) {
    this.rows = store.collection<AuditEntry>('audit_logs', 'audit');
    this.retention = retention;
  }

  setRetention(retention: AuditRetention): void {
    this.retention = retention;
    void this.prune();
  }

  getRetention(): AuditRetention {
    return this.retention;
  }

  /** Adds an entry (visible at once) and resolves when it is durable. */
  async record(input: AuditInput, now: Date = new Date()): Promise<AuditEntry> {
    const { row, committed } = this.rows.stage(input, now);
    // Batch pruning (10% slack), as for events.
    if (this.rows.size > this.retention.maxCount * 1.1) void this.prune();
    await committed;
    return row;
  }

  /** Every entry, oldest first. */
  all(): readonly AuditEntry[] {
    return this.rows.all();
  }

  prune(now: Date = new Date()): Promise<number> {
    return pruneRows(this.rows, this.retention, now);
  }

  startAgePrune(intervalMs?: number, onError?: (err: unknown) => void): void {
    this.ageTimer.start(intervalMs, onError);
  }

  stopAgePrune(): void {
    this.ageTimer.stop();
  }

  get agePruneRunning(): boolean {
    return this.ageTimer.running;
  }
}
