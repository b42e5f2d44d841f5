import { normalizeMac } from '../core/mac.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { eventView, type AppEvent, type EventInput, type EventView } from './event-types.js';
import { PruneTimer, pruneRows, type Retention } from './retention.js';

export type EventRetention = Retention;

export const DEFAULT_EVENT_RETENTION: EventRetention = { maxCount: 20_000, maxAgeDays: 30 };

export type EventListener = (event: AppEvent) => void;

/**
 * The event bus and its durable log in one: `emit` stores the event (one
 * record appended to the `events` collection's journal, group-committed with
 * the others: O(1) per event whatever the log holds; retention prunes in
 * batches and the journal's compaction drops what was pruned) and hands it
 * to live subscribers (SSE, IPC).
 */
export class EventLog {
  private readonly rows: Collection<AppEvent>;
  private readonly listeners = new Set<EventListener>();
  private readonly ageTimer = new PruneTimer(() => this.prune());
  private retention: EventRetention;
  private hostNamer: ((hostId: number) => string | null) | null = null;

  constructor(store: Store, retention: EventRetention = DEFAULT_EVENT_RETENTION) {
    this.rows = store.collection<AppEvent>('events', 'events');
    this.retention = retention;
  }

  /** Lets the hosts area name the host an event is about (`host_name` in the API), so people read "web01", not "host #14". */
  setHostNamer(namer: ((hostId: number) => string | null) | null): void {
    this.hostNamer = namer;
  }

  /** An event as the API and the streams show it, with its host's name as of now. */
  view(event: AppEvent): EventView {
    return eventView(event, event.host_id === null ? null : (this.hostNamer?.(event.host_id) ?? null));
  }

  setRetention(retention: EventRetention): void {
    this.retention = retention;
    this.prune().catch(() => undefined);
  }

  getRetention(): EventRetention {
    return this.retention;
  }

  emit(input: EventInput, now: Date = new Date()): AppEvent {
    const row = this.rows.append({
      kind: input.kind,
      level: input.level ?? 'info',
      message: input.message,
      // Stored canonical so the `mac` filter is a plain comparison.
      mac: input.mac === undefined ? null : (normalizeMac(input.mac) ?? input.mac),
      ip: input.ip ?? null,
      host_id: input.host_id ?? null,
      detail: input.detail ?? null,
    }, now);
    // Nobody waits for an event's write (durable() is there for who must): a failure (disk full) is
    // reported by the store's journal error handler, a log line, and stops nothing.
    // Prune in batches (10% slack) so a busy bus does not filter the log on every event.
    if (this.rows.size > this.retention.maxCount * 1.1) void this.prunePrefix(now);
    // No subscriber, no further work: the streams serialise only for their own clients.
    if (this.listeners.size === 0) return row;
    for (const listener of this.listeners) {
      try {
        listener(row);
      } catch {
        // A failing subscriber must not break the emitter or the other subscribers.
      }
    }
    return row;
  }

  /** Resolves once every event emitted so far is on disk (shutdown, tests, the events bench). */
  durable(): Promise<void> {
    return this.rows.durable();
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Every stored event, oldest first. */
  all(): readonly AppEvent[] {
    return this.rows.all();
  }

  /** Events with id greater than `lastId`, oldest first (for SSE replay). */
  since(lastId: number): AppEvent[] {
    const all = this.rows.all();
    // Rows are in id order: binary-search the first one after lastId.
    let low = 0;
    let high = all.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (all[mid]!.id > lastId) high = mid;
      else low = mid + 1;
    }
    return all.slice(low);
  }

  /** Applies the retention limits; returns how many events were dropped. */
  prune(now: Date = new Date()): Promise<number> {
    return pruneRows(this.rows, this.retention, now);
  }

  /** The prune an emit triggers: the oldest events only (a write failure is the journal's to report). */
  private prunePrefix(now: Date): void {
    pruneRows(this.rows, this.retention, now, { prefixOnly: true }).catch(() => undefined);
  }

  /** Keeps pruning by age while the core runs (an idle log still ages). */
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
