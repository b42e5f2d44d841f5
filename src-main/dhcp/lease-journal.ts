import { Journal, type JournalReplay } from '../store/journal.js';

/**
 * The leases' durable log: the store's journal (store/journal.ts, after
 * Kea's memfile) with the lease records below, in `leases.snapshot.jsonl`
 * and `leases.<gen>.jsonl`. Separate from the configuration store's files,
 * whose churn it must not share: thousands of leases per second.
 *
 * Each process start writes to a new generation and compacts at once; later
 * compactions run when the current journal holds `compactAfter` records and
 * more than twice the live count.
 */

export type JournalRecord =
  | {
      /** A lease, created or changed. */
      t: 'L';
      /** Client MAC, canonical. */
      m: string;
      /** Address, dotted quad. */
      i: string;
      /** Start and expiry, ms since the epoch. */
      s: number;
      e: number;
      h: string | null;
      c: string | null;
      v: string | null;
      a: number | null;
    }
  | { t: 'D'; m: string }
  | { t: 'Q'; i: string; u: number }
  | { t: 'U'; i: string };

export type { JournalReplay };

export interface LeaseJournalOptions {
  dir: string;
  /** Compact when the current journal has this many records and more than twice the live count. */
  compactAfter?: number;
  onError?: (err: Error) => void;
}

export class LeaseJournal extends Journal<JournalRecord> {
  constructor(options: LeaseJournalOptions) {
    super({
      dir: options.dir,
      name: 'leases',
      isRecord: isJournalRecord,
      compactAfter: options.compactAfter ?? 50_000,
      compactRatio: 2,
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }
}

function isJournalRecord(value: unknown): value is JournalRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  switch (record.t) {
    case 'L':
      return typeof record.m === 'string' && typeof record.i === 'string' && typeof record.s === 'number' && typeof record.e === 'number';
    case 'D':
      return typeof record.m === 'string';
    case 'Q':
      return typeof record.i === 'string' && typeof record.u === 'number';
    case 'U':
      return typeof record.i === 'string';
    default:
      return false;
  }
}
