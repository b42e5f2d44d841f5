import { nowIso } from '../core/time.js';
import { snapshotRecords, type CollectionRecord } from './collection-records.js';
import type { Journal } from './journal.js';
import type { CollectionData, StoreFile } from './store-file.js';

/** Fields every stored row has. */
export interface Row {
  id: number;
  created_at: string;
  updated_at: string;
}

export type NewRow<T extends Row> = Omit<T, 'id' | 'created_at' | 'updated_at'>;
export type RowPatch<T extends Row> = Partial<Omit<T, 'id' | 'created_at' | 'updated_at'>>;

/**
 * A collection of rows with integer ids that are unique and never reused.
 * Reads are synchronous from memory (the store file's lowdb data); every
 * write appends one record per changed row to the collection's own journal
 * and resolves once that record is durable (group-committed with the other
 * writes to the same collection). A write therefore costs the same whatever
 * the collection or the rest of the store holds.
 *
 * Rows handed out are the stored objects: treat them as read-only and change
 * them only through update().
 */
export class Collection<T extends Row> {
  readonly name: string;
  private readonly file: StoreFile;
  private readonly journal: Journal<CollectionRecord>;
  private readonly byId = new Map<number, T>();

  /** `journal` has been replayed into `file`'s data for `name` (Store does both). */
  constructor(file: StoreFile, name: string, journal: Journal<CollectionRecord>) {
    this.file = file;
    this.name = name;
    this.journal = journal;
    for (const item of this.data.items as T[]) this.byId.set(item.id, item);
    journal.open(() => snapshotRecords(this.data), () => this.byId.size);
  }

  private get data(): CollectionData {
    const collections = this.file.data.collections;
    let data = collections[this.name];
    if (!data) {
      data = { next_id: 1, items: [] };
      collections[this.name] = data;
    }
    return data;
  }

  get size(): number {
    return this.byId.size;
  }

  /** The id the next insert() gets (a caller that serialises its inserts can link other records to it first). */
  nextId(): number {
    return this.data.next_id;
  }

  all(): readonly T[] {
    return this.data.items as T[];
  }

  get(id: number): T | undefined {
    return this.byId.get(id);
  }

  find(predicate: (row: T) => boolean): T | undefined {
    return (this.data.items as T[]).find(predicate);
  }

  filter(predicate: (row: T) => boolean): T[] {
    return (this.data.items as T[]).filter(predicate);
  }

  async insert(value: NewRow<T>, now: Date = new Date()): Promise<T> {
    const { row, committed } = this.stage(value, now);
    await committed;
    return row;
  }

  /**
   * Adds every row with consecutive ids and resolves once all are durable in
   * one commit (a bulk import must not pay one disk round trip per row). The
   * rows are one journal record, so they survive a crash together or not at all.
   */
  async insertMany(values: readonly NewRow<T>[], now: Date = new Date()): Promise<T[]> {
    return (await this.writeMany(values, [], now)).inserted;
  }

  /**
   * Inserts `inserts` and applies `updates` (ids that do not exist are
   * skipped) as ONE journal record: after a crash all of it replays or none.
   * Resolves with the new and the updated rows once durable.
   */
  async writeMany(inserts: readonly NewRow<T>[], updates: readonly { id: number; patch: RowPatch<T> }[], now: Date = new Date()): Promise<{ inserted: T[]; updated: T[] }> {
    const data = this.data;
    const stamp = nowIso(now);
    const items = data.items as T[];
    // One pass to find the rows' places: an upsert of thousands among tens of thousands must not search per row.
    const position = updates.length > 0 ? new Map(items.map((row, index) => [row.id, index])) : new Map<number, number>();
    const updated = updates.flatMap(({ id, patch }) => {
      const current = this.byId.get(id);
      const at = position.get(id);
      if (!current || at === undefined) return [];
      const row = { ...current, ...patch, id, created_at: current.created_at, updated_at: stamp } as T;
      items[at] = row;
      this.byId.set(id, row);
      return [row];
    });
    const inserted = inserts.map((value) => {
      const row = { ...value, id: data.next_id, created_at: stamp, updated_at: stamp } as T;
      data.next_id += 1;
      items.push(row);
      this.byId.set(row.id, row);
      return row;
    });
    if (inserted.length + updated.length > 0) await this.write({ t: 'B', r: [...updated, ...inserted] });
    return { inserted, updated };
  }

  /**
   * Adds a row at once and returns it with the promise of its commit, for
   * callers that need the row synchronously (event ids) and may not wait.
   */
  stage(value: NewRow<T>, now: Date = new Date()): { row: T; committed: Promise<void> } {
    const row = this.append(value, now);
    return { row, committed: this.journal.durable() };
  }

  /**
   * Adds a row and queues its record without a promise to wait on (the event
   * log: nobody waits for one event, and a promise per event is most of an
   * emit's cost in a boot storm). `durable()` tells when it is on disk.
   */
  append(value: NewRow<T>, now: Date = new Date()): T {
    const data = this.data;
    const stamp = nowIso(now);
    const row = { ...value, id: data.next_id, created_at: stamp, updated_at: stamp } as T;
    data.next_id += 1;
    data.items.push(row);
    this.byId.set(row.id, row);
    this.journal.append({ t: 'U', r: row });
    return row;
  }

  /** Returns the updated row, or undefined when there is no row with this id. */
  async update(id: number, patch: RowPatch<T>, now: Date = new Date()): Promise<T | undefined> {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const items = this.data.items as T[];
    const index = items.indexOf(current);
    const row = { ...current, ...patch, id, created_at: current.created_at, updated_at: nowIso(now) } as T;
    items[index] = row;
    this.byId.set(id, row);
    await this.write({ t: 'U', r: row });
    return row;
  }

  /** Returns the removed row, or undefined when there was none. */
  async remove(id: number): Promise<T | undefined> {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const items = this.data.items as T[];
    items.splice(items.indexOf(current), 1);
    this.byId.delete(id);
    await this.write({ t: 'D', id });
    return current;
  }

  /**
   * Removes the first `count` rows (the oldest: rows are in insertion order)
   * without looking at the others; returns them once durable. For logs
   * pruned by count, where a filter over every row would cost O(rows).
   */
  async removeFirst(count: number): Promise<T[]> {
    const removed = (this.data.items as T[]).splice(0, Math.max(0, count));
    for (const row of removed) {
      this.byId.delete(row.id);
      this.journal.append({ t: 'D', id: row.id });
    }
    if (removed.length > 0) await this.journal.durable();
    return removed;
  }

  /** Removes every row that matches; returns them. */
  async removeWhere(predicate: (row: T) => boolean): Promise<T[]> {
    const data = this.data;
    const items = data.items as T[];
    const removed = items.filter(predicate);
    if (removed.length === 0) return removed;
    const gone = new Set(removed);
    data.items = items.filter((row) => !gone.has(row));
    for (const row of removed) this.byId.delete(row.id);
    for (const row of removed) this.journal.append({ t: 'D', id: row.id });
    await this.journal.durable();
    return removed;
  }

  /** Resolves once every write made so far is durable (writers that do not wait for each write: the event log). */
  durable(): Promise<void> {
    return this.journal.durable();
  }

  private write(record: CollectionRecord): Promise<void> {
    this.journal.append(record);
    return this.journal.durable();
  }
}
