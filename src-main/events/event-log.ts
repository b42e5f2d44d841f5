import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import type { AppEvent, EventInput } from './event-types.js';

export interface EventRetention {
  /** Keep at most this many events. */
  maxCount: number;
  /** Drop events older than this many days. */
  maxAgeDays: number;
}

export const DEFAULT_EVENT_RETENTION: EventRetention = { maxCount: 20_000, maxAgeDays: 30 };

export type EventListener = (event: AppEvent) => void;

/**
 * The event bus and its durable log in one: `emit` stores the event (in the
 * events file, group-committed) and hands it to live subscribers (SSE, IPC).
 */
export class EventLog {
  private readonly rows: Collection<AppEvent>;
  private readonly listeners = new Set<EventListener>();
  private retention: EventRetention;

  constructor(store: Store, retention: EventRetention = DEFAULT_EVENT_RETENTION) {
    this.rows = store.collection<AppEvent>('events', 'events');
    this.retention = retention;
  }

  setRetention(retention: EventRetention): void {
    this.retention = retention;
    void this.prune();
  }

  emit(input: EventInput): AppEvent {
    const { row } = this.rows.stage({
      kind: input.kind,
      level: input.level ?? 'info',
      message: input.message,
      mac: input.mac ?? null,
      ip: input.ip ?? null,
      host_id: input.host_id ?? null,
      detail: input.detail ?? null,
    });
    // Prune in batches (10% slack) so a busy bus does not filter the log on every event.
    if (this.rows.size > this.retention.maxCount * 1.1) void this.prune();
    for (const listener of this.listeners) {
      try {
        listener(row);
      } catch {
        // A failing subscriber must not break the emitter or the other subscribers.
      }
    }
    return row;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  all(): readonly AppEvent[] {
    return this.rows.all();
  }

  /** Events with id greater than `lastId`, oldest first (for SSE replay). */
  since(lastId: number): AppEvent[] {
    return this.rows.filter((event) => event.id > lastId);
  }

  /** Applies the retention limits; returns how many events were dropped. */
  async prune(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retention.maxAgeDays * 86_400_000).toISOString();
    const all = this.rows.all();
    const excess = all.length - this.retention.maxCount;
    const tooOldOrExcess = new Set<AppEvent>();
    all.forEach((event, index) => {
      if (index < excess || event.created_at < cutoff) tooOldOrExcess.add(event);
    });
    const removed = await this.rows.removeWhere((event) => tooOldOrExcess.has(event));
    return removed.length;
  }
}
