import type { CollectionData } from './store-file.js';

/**
 * What a collection's journal holds (store/journal.ts): a row as it now is,
 * rows written together (a bulk insert: one line with one checksum, so after
 * a crash all of them replay or none), a removed id, or the id counter
 * (written by snapshots, so an id stays used after its row and its upsert
 * record are gone). All idempotent, as the journal requires.
 */
export type CollectionRecord =
  | { t: 'U'; r: { readonly id: number } }
  | { t: 'B'; r: readonly { readonly id: number }[] }
  | { t: 'D'; id: number }
  | { t: 'N'; n: number };

export function isCollectionRecord(value: unknown): value is CollectionRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  switch (record.t) {
    case 'U': {
      const row = record.r as Record<string, unknown> | null | undefined;
      return typeof row === 'object' && row !== null && Number.isInteger(row.id);
    }
    case 'B':
      return Array.isArray(record.r) && record.r.every((row: unknown) => typeof row === 'object' && row !== null && Number.isInteger((row as Record<string, unknown>).id));
    case 'D':
      return Number.isInteger(record.id);
    case 'N':
      return Number.isInteger(record.n);
    default:
      return false;
  }
}

/** Folds replayed records into a collection's data; `finish()` gives it. */
export class CollectionReplay {
  private nextId = 1;
  private readonly rows = new Map<number, unknown>();

  apply(record: CollectionRecord): void {
    switch (record.t) {
      case 'U':
        this.rows.set(record.r.id, record.r);
        this.nextId = Math.max(this.nextId, record.r.id + 1);
        break;
      case 'B':
        for (const row of record.r) {
          this.rows.set(row.id, row);
          this.nextId = Math.max(this.nextId, row.id + 1);
        }
        break;
      case 'D':
        this.rows.delete(record.id);
        break;
      case 'N':
        this.nextId = Math.max(this.nextId, record.n);
        break;
    }
  }

  finish(): CollectionData {
    return { next_id: this.nextId, items: [...this.rows.values()] };
  }
}

/** The records of a snapshot of `data`: the counter, then every row. */
export function* snapshotRecords(data: CollectionData): Iterable<CollectionRecord> {
  yield { t: 'N', n: data.next_id };
  for (const row of data.items) yield { t: 'U', r: row as { id: number } };
}
