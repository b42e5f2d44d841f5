import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Collection, type Row } from './collection.js';
import { CollectionReplay, isCollectionRecord, snapshotRecords, type CollectionRecord } from './collection-records.js';
import type { RecoveryReport } from './durable-json-adapter.js';
import { Journal, journalExists, writeJournalSnapshot, type JournalReplay } from './journal.js';
import { STORE_FILE_NAMES, STORE_MIGRATIONS, type StoreFileName } from './migrations.js';
import { Section } from './section.js';
import { StoreFile, type CollectionData, type Migration } from './store-file.js';

export interface StoreOptions {
  dataDir: string;
  /** Called for every file that was unreadable at open and was moved aside. */
  onRecovery?: (report: RecoveryReport) => void;
  /** Called when a collection's journal had lines it could not use (a write cut short by a crash). */
  onJournalSkipped?: (collection: string, replay: JournalReplay) => void;
  /** Called when a journal write or compaction fails (the write's caller gets the error too). */
  onJournalError?: (collection: string, err: Error) => void;
  /** Observes every collection journal batch: records written and seconds until durable (metrics, tests). */
  onJournalBatch?: (collection: string, records: number, seconds: number) => void;
  /** Overrides the built-in migrations (tests). */
  migrations?: Partial<Record<StoreFileName, readonly Migration[]>>;
  /** Overrides when a collection's journal is compacted (tests): see JournalOptions. */
  compactAfter?: number;
  /** Overrides the batch window of a store file's collection journals (benchmarks): see JournalOptions and BATCH_WINDOW_MS. */
  batchWindowMs?: Partial<Record<StoreFileName, number>>;
}

/** Below this many records a collection's journal is never compacted (small collections rarely are). */
const COMPACT_AFTER = 1000;

/**
 * How long a store file's journal appends gather before a batch is written.
 * API writes wait for each other (an area's queue): a window would only add
 * latency, so 0. Events are emitted without waiting (a boot storm emits
 * thousands a second from the packet paths): a millisecond's window puts
 * them in a few large batches instead of one small write per turn of the
 * event loop (bench/events measures both).
 */
const BATCH_WINDOW_MS: Partial<Record<StoreFileName, number>> = { events: 1 };

/**
 * The embedded store: a few lowdb files in the data directory for the
 * settings sections and schema versions, and one journal per collection
 * under `collections/<file>/` (docs/architecture.md, "The store").
 */
export class Store {
  readonly dataDir: string;
  private readonly files: Map<StoreFileName, StoreFile>;
  private readonly collections = new Map<string, Collection<Row>>();
  private readonly journals = new Map<string, Journal<CollectionRecord>>();
  private readonly sections = new Map<string, Section<object>>();
  private readonly options: StoreOptions;

  private constructor(options: StoreOptions, files: Map<StoreFileName, StoreFile>) {
    this.dataDir = options.dataDir;
    this.options = options;
    this.files = files;
  }

  static async open(options: StoreOptions): Promise<Store> {
    await fs.mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    const files = new Map<StoreFileName, StoreFile>();
    const store = new Store(options, files);
    for (const name of STORE_FILE_NAMES) {
      const file = new StoreFile({
        dataDir: options.dataDir,
        name,
        migrations: options.migrations?.[name] ?? STORE_MIGRATIONS[name],
        ...(options.onRecovery ? { onRecovery: options.onRecovery } : {}),
      });
      const migrated = await file.open();
      files.set(name, file);
      const moved = await store.migrateCollections(name, file);
      await store.replayCollections(name, file);
      // Only now, with every collection complete and fsync'ed in its journal, may the file drop them.
      if (migrated || moved) await file.commit();
    }
    return store;
  }

  file(name: StoreFileName): StoreFile {
    const file = this.files.get(name);
    if (!file) throw new Error(`unknown store file ${name}`);
    return file;
  }

  /** The collection `name` in `file` (config by default); one instance per name. */
  collection<T extends Row>(name: string, file: StoreFileName = 'config'): Collection<T> {
    const key = `${file}/${name}`;
    let collection = this.collections.get(key);
    if (!collection) {
      // Not on disk at open: a new, empty collection whose journal files appear with its first write.
      collection = new Collection<Row>(this.file(file), name, this.journal(file, name));
      this.collections.set(key, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /** The settings section `name` in `file` (config by default). */
  section<T extends object>(name: string, defaults: T, file: StoreFileName = 'config'): Section<T> {
    const key = `${file}/${name}`;
    let section = this.sections.get(key);
    if (!section) {
      section = new Section<object>(this.file(file), name, defaults);
      this.sections.set(key, section);
    }
    return section as Section<T>;
  }

  /** Records appended to `file`'s collection journals so far (tests count writes with it). */
  recordsWritten(file: StoreFileName): number {
    let total = 0;
    for (const [key, journal] of this.journals) if (key.startsWith(`${file}/`)) total += journal.appended;
    return total;
  }

  /** Compacts every collection journal now (tests, benchmarks). */
  async compactAll(): Promise<void> {
    for (const journal of this.journals.values()) await journal.compact();
  }

  async close(): Promise<void> {
    for (const journal of this.journals.values()) await journal.close();
    for (const file of this.files.values()) await file.close();
  }

  private collectionDir(file: StoreFileName): string {
    return path.join(this.dataDir, 'collections', file);
  }

  private journal(file: StoreFileName, name: string): Journal<CollectionRecord> {
    const key = `${file}/${name}`;
    let journal = this.journals.get(key);
    if (!journal) {
      const onError = this.options.onJournalError;
      journal = new Journal<CollectionRecord>({
        dir: this.collectionDir(file),
        name,
        isRecord: isCollectionRecord,
        compactAfter: this.options.compactAfter ?? COMPACT_AFTER,
        compactRatio: 1,
        preallocateBytes: 1024 * 1024,
        batchWindowMs: this.options.batchWindowMs?.[file] ?? BATCH_WINDOW_MS[file] ?? 0,
        ...(onError ? { onError: (err: Error) => onError(key, err) } : {}),
      });
      const onBatch = this.options.onJournalBatch;
      if (onBatch) journal.onBatch = (records, seconds) => onBatch(key, records, seconds);
      this.journals.set(key, journal);
    }
    return journal;
  }

  /**
   * Moves the collections an older version kept inside the JSON file into
   * journal snapshots (complete and fsync'ed before the caller rewrites the
   * file without them). A collection that already has a journal was moved
   * by a run that stopped before rewriting the file: the journal is the
   * truth and the JSON copy is dropped. Returns whether there was any.
   */
  private async migrateCollections(fileName: StoreFileName, file: StoreFile): Promise<boolean> {
    const legacy = Object.entries(file.data.collections);
    if (legacy.length === 0) return false;
    const dir = this.collectionDir(fileName);
    for (const [name, data] of legacy) {
      if (await journalExists(dir, name)) continue;
      await writeJournalSnapshot(dir, name, snapshotRecords(normalise(data)));
    }
    file.data.collections = {};
    return true;
  }

  /** Replays every collection journal of `file` into its in-memory data. */
  private async replayCollections(fileName: StoreFileName, file: StoreFile): Promise<void> {
    const dir = this.collectionDir(fileName);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const names = new Set<string>();
    for (const entry of await fs.readdir(dir)) {
      const match = /^([A-Za-z0-9_-]+)\.(?:snapshot|\d+)\.jsonl$/.exec(entry);
      if (match) names.add(match[1]!);
    }
    for (const name of [...names].sort()) {
      const journal = this.journal(fileName, name);
      const replay = new CollectionReplay();
      const result = await journal.replay((record) => replay.apply(record));
      if (result.skipped > 0) this.options.onJournalSkipped?.(`${fileName}/${name}`, result);
      file.data.collections[name] = replay.finish();
      this.collections.set(`${fileName}/${name}`, new Collection<Row>(file, name, journal));
      // Journals left by earlier runs are folded into the snapshot in the background when due.
      journal.compactIfDue();
    }
  }
}

function normalise(data: CollectionData): CollectionData {
  const items = Array.isArray(data.items) ? data.items : [];
  return { next_id: Number.isInteger(data.next_id) ? data.next_id : 1, items };
}
