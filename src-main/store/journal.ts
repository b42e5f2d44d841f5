import fs from 'node:fs';
import path from 'node:path';
import { decodeLine, encodeLine } from './journal-lines.js';
import { writeAtomicLines } from './journal-files.js';

/**
 * The store's one durability primitive, after Kea's memfile: an append-only
 * log of records written in group-committed batches (one synchronous write
 * per batch; the callers' continuations run after it), compacted now and
 * then into a snapshot. The DHCP leases and every store collection use it.
 *
 * Files in `dir`, for a journal named `name`:
 * - `<name>.snapshot.jsonl`: a header line `{"t":"H","v":2,"next":N}`, then
 *   one record per live item. It holds everything in journals < N.
 * - `<name>.<gen>.jsonl`: journals, replayed in order from gen N.
 * Every line is `<crc32> <JSON>` (journal-lines.ts).
 *
 * Batches go at positions into a stretch of the file filled with zeros
 * beforehand, so a synchronous write (O_DSYNC, or fdatasync where that flag
 * is missing) flushes data and not the file-system journal; replay of a
 * journal file stops at the first NUL or the first line whose checksum fails
 * (a batch cut short by a crash: nothing after it was acknowledged). Each
 * process start writes to a new generation (a torn last line of the previous
 * run is never written after); its file is created by the first batch.
 * Compaction switches to the next generation first, then writes the snapshot
 * from memory (temp file, fsync, rename, fsync of the directory), then
 * deletes the old journals. Records must be idempotent (upserts and deletes),
 * so a record that is both in the snapshot and replayed after it does no harm.
 */

export interface JournalReplay {
  records: number;
  /** Lines that could not be used (a torn last line after a crash, a damaged line). */
  skipped: number;
  /** Journal files (not the snapshot) found: a compaction would fold them in. */
  journals: number;
  /** Records read from those journal files. */
  journalRecords: number;
}

export interface JournalOptions<R> {
  dir: string;
  /** File name prefix; letters, digits, `_` and `-`. */
  name: string;
  /** Which decoded values are records (anything else is skipped). */
  isRecord: (value: unknown) => value is R;
  /** Compact when the current journal has at least this many records… */
  compactAfter?: number;
  /** …and at least `compactRatio` times the live count (the journal outgrew the snapshot). */
  compactRatio?: number;
  /** Zero-filled stretch added to a journal file at a time. */
  preallocateBytes?: number;
  /**
   * How long appends gather before a batch is written (ms; default 1). 0
   * writes at the end of the current turn of the event loop: for writers that
   * wait for each write before the next (an API request), where the window
   * would only add latency.
   */
  batchWindowMs?: number;
  onError?: (err: Error) => void;
}

type Done = (err: Error | null) => void;

const NAME = /^[A-Za-z0-9_-]+$/;

export class Journal<R> {
  readonly dir: string;
  readonly name: string;
  private readonly isRecord: (value: unknown) => value is R;
  private readonly compactAfter: number;
  private readonly compactRatio: number;
  private readonly preallocateBytes: number;
  private readonly batchWindowMs: number;
  private readonly onError: (err: Error) => void;
  private readonly journalPattern: RegExp;
  private gen = 1;
  private fd: number | null = null;
  /** Where the next batch goes in the current journal file, and how far the file is filled with zeros. */
  private position = 0;
  private allocated = 0;
  private pending: string[] = [];
  private waiters: Done[] = [];
  private flushing = false;
  private scheduled = false;
  private recordsInGen = 0;
  /** Journal files of earlier runs not yet folded into the snapshot. */
  private journalsOnDisk = 0;
  private compacting: Promise<void> | null = null;
  /** Compactions waiting for the batch in flight to end before switching files. */
  private rotateWaiters: (() => void)[] = [];
  private closed = false;
  /** Records appended since construction (tests count writes with it). */
  appended = 0;
  /** Observes each batch: records written and seconds until they were durable. */
  onBatch: ((records: number, seconds: number) => void) | null = null;
  /** Every live record, for compaction snapshots. */
  private liveRecords: (() => Iterable<R>) | null = null;
  private liveCount: () => number = () => 0;

  constructor(options: JournalOptions<R>) {
    if (!NAME.test(options.name)) throw new Error(`journal name ${JSON.stringify(options.name)} is not a plain file-name prefix`);
    this.dir = options.dir;
    this.name = options.name;
    this.isRecord = options.isRecord;
    this.compactAfter = options.compactAfter ?? 50_000;
    this.compactRatio = options.compactRatio ?? 1;
    this.preallocateBytes = options.preallocateBytes ?? 8 * 1024 * 1024;
    this.batchWindowMs = options.batchWindowMs ?? BATCH_WINDOW_MS;
    this.onError = options.onError ?? (() => undefined);
    this.journalPattern = new RegExp(`^${options.name}\\.(\\d+)\\.jsonl$`);
  }

  get snapshotPath(): string {
    return path.join(this.dir, `${this.name}.snapshot.jsonl`);
  }

  journalPath(gen: number): string {
    return path.join(this.dir, `${this.name}.${gen}.jsonl`);
  }

  get generation(): number {
    return this.gen;
  }

  /** Reads the snapshot and journals, handing each record to `apply` in order. */
  async replay(apply: (record: R) => void): Promise<JournalReplay> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const result: JournalReplay = { records: 0, skipped: 0, journals: 0, journalRecords: 0 };
    let next = 0;
    const snapshot = await readIfExists(this.snapshotPath);
    if (snapshot !== null) {
      this.feed(snapshot, result, apply, (header) => {
        next = header;
      });
    }
    const gens = await this.journalGenerations();
    for (const gen of gens) {
      if (gen < next) continue;
      const text = await readIfExists(this.journalPath(gen));
      if (text === null) continue;
      result.journals += 1;
      const before = result.records;
      this.feed(text, result, apply, null);
      result.journalRecords += result.records - before;
    }
    this.gen = Math.max(next, ...gens, 0) + 1;
    // What the journals since the snapshot hold counts towards the next compaction.
    this.recordsInGen = result.journalRecords;
    this.journalsOnDisk = result.journals;
    return result;
  }

  /**
   * Feeds one file's records to `apply`. A snapshot (with `onHeader`) was
   * renamed into place whole, so a bad line there is damage: it is skipped
   * and the rest read. In a journal, a bad line is where a crash cut a batch:
   * the file ends there.
   */
  private feed(content: string, result: JournalReplay, apply: (record: R) => void, onHeader: ((next: number) => void) | null): void {
    // Journal files end in their zero-filled stretch; records never contain NUL (JSON escapes it).
    const nul = content.indexOf('\0');
    const lines = (nul < 0 ? content : content.slice(0, nul)).split('\n');
    let first = onHeader !== null;
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i]!;
      if (line.length === 0) continue;
      const decoded = decodeLine(line);
      if (first) {
        first = false;
        if (decoded.ok && isHeader(decoded.value)) {
          onHeader?.(Number(decoded.value.next) || 0);
          continue;
        }
      }
      if (!decoded.ok || !this.isRecord(decoded.value)) {
        if (onHeader === null && !decoded.ok) {
          // Torn tail: this line and whatever follows it in the file.
          result.skipped += lines.slice(i).filter((rest) => rest.length > 0).length;
          return;
        }
        result.skipped += 1;
        continue;
      }
      apply(decoded.value);
      result.records += 1;
    }
  }

  /**
   * Makes the journal ready for appends (to a new generation, created by the
   * first batch). `live` lists the current state for compactions.
   */
  open(live: () => Iterable<R>, liveCount: () => number): void {
    this.liveRecords = live;
    this.liveCount = liveCount;
    this.fd = null;
    this.position = 0;
    this.allocated = 0;
  }

  /** Queues a record; it is durable when a later `whenDurable` callback runs. */
  append(record: R): void {
    if (this.closed) throw new Error(`journal ${this.name} is closed`);
    this.pending.push(encodeLine(record));
    this.recordsInGen += 1;
    this.appended += 1;
    this.schedule();
  }

  /** Runs `done` once every record appended so far is on disk (or the write failed). */
  whenDurable(done: Done): void {
    if (this.pending.length === 0 && !this.flushing) {
      done(null);
      return;
    }
    this.waiters.push(done);
    this.schedule();
  }

  durable(): Promise<void> {
    return new Promise((resolve, reject) => this.whenDurable((err) => (err ? reject(err) : resolve())));
  }

  /** Writes a fresh snapshot of the live state and drops the journals it covers. */
  compact(): Promise<void> {
    if (this.compacting) return this.compacting;
    const run = this.doCompact().finally(() => {
      this.compacting = null;
    });
    this.compacting = run;
    return run;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.durable().catch(() => undefined);
    await this.compacting?.catch(() => undefined);
    this.closed = true;
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private schedule(): void {
    if (this.flushing || this.scheduled) return;
    this.scheduled = true;
    // Gather a millisecond of appends into one batch: each batch is a trip to the thread pool and
    // a synchronous write, and on a fast disk batches would otherwise hold one record each.
    // (While a batch is in flight the next one gathers by itself.)
    const run = () => {
      this.scheduled = false;
      this.flush();
    };
    if (this.batchWindowMs > 0) setTimeout(run, this.batchWindowMs);
    else setImmediate(run);
  }

  private flush(): void {
    if (this.flushing) return;
    if (this.pending.length === 0) {
      this.release(null);
      return;
    }
    if (this.closed) {
      this.release(new Error(`journal ${this.name} is closed`));
      return;
    }
    const created = this.fd === null;
    let fd: number;
    try {
      fd = this.fd ?? this.createGeneration();
    } catch (err) {
      this.onError(err as Error);
      this.release(err as Error);
      return;
    }
    this.flushing = true;
    const lines = this.pending;
    const data = Buffer.from(lines.join(''), 'utf8');
    const started = process.hrtime.bigint();
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    const at = this.position;
    const allocatedBefore = this.allocated;
    this.position += data.length;
    // Keep a zero-filled stretch ahead of the writes (see createGeneration).
    const stretch = this.preallocateBytes;
    const growFrom = this.position > this.allocated - stretch / 4 ? this.allocated : -1;
    if (growFrom >= 0) this.allocated = Math.ceil((this.position + stretch) / stretch) * stretch;
    const finish = (err: Error | null) => {
      this.flushing = false;
      if (err && this.fd === fd) {
        // Not durable: the records go back in front of the queue and are written again, at the
        // same place, with the next batch (memory already holds their changes).
        this.pending = [...lines, ...this.pending];
        this.position = at;
        this.allocated = allocatedBefore;
        if (created) {
          // Nothing in the new file was acknowledged: the retry creates it again (and syncs the directory).
          fs.closeSync(fd);
          this.fd = null;
        }
      }
      this.onBatch?.(lines.length, Number(process.hrtime.bigint() - started) / 1e9);
      if (this.rotateWaiters.length > 0) this.rotateNow();
      if (err) this.onError(err);
      notifyInSlices(waiters, err);
      // The next batch gathers for a window too: a batch costs two wake-ups across threads (to the
      // thread pool and back), dear on a virtual machine, so back-to-back batches of a few records
      // cost more CPU than the millisecond they save. After a failure, only a new caller retries.
      if (this.waiters.length > 0 || (!err && this.pending.length > 0)) this.schedule();
      else if (!err) this.compactIfDue();
    };
    // With O_DSYNC the write returns once the data is durable: one system call per batch.
    const writeRecords = () =>
      writeAt(fd, data, at, (writeErr) => {
        if (writeErr) finish(writeErr);
        else if (O_DSYNC !== undefined) finish(null);
        else fs.fdatasync(fd, finish);
      });
    const fill = () => (growFrom < 0 ? writeRecords() : writeZeros(fd, growFrom, this.allocated - growFrom, (err) => (err ? finish(err) : writeRecords())));
    // A new file's directory entry is durable only once the directory is synced: once per generation.
    if (created) syncDirectoryThen(this.dir, (err) => (err ? finish(err) : fill()));
    else fill();
  }

  private release(err: Error | null): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const done of waiters) done(err);
  }

  /**
   * Compacts in the background when the journals outgrew the snapshot, or
   * when earlier runs left many journal files (each start writes a new one).
   */
  compactIfDue(): void {
    if (this.compacting || this.closed || !this.liveRecords) return;
    const outgrown = this.recordsInGen >= this.compactAfter && this.recordsInGen >= this.compactRatio * this.liveCount();
    if (!outgrown && this.journalsOnDisk < MAX_JOURNAL_FILES) return;
    this.compact().catch((err: unknown) => this.onError(err as Error));
  }

  private async doCompact(): Promise<void> {
    const live = this.liveRecords;
    if (!live) return;
    await this.rotate();
    const next = this.gen;
    await writeAtomicLines(this.snapshotPath, snapshotLines(next, live()));
    for (const gen of await this.journalGenerations()) {
      if (gen < next) await fs.promises.rm(this.journalPath(gen), { force: true });
    }
    this.journalsOnDisk = 0;
  }

  /**
   * Switches to the next generation between two batches, so no write is in
   * flight on the file being closed. Records queued but not yet written go
   * to the new file; memory already holds them, so the snapshot does too.
   */
  private rotate(): Promise<void> {
    if (!this.flushing) {
      this.rotateNow();
      return Promise.resolve();
    }
    return new Promise((resolve) => this.rotateWaiters.push(resolve));
  }

  private rotateNow(): void {
    const oldFd = this.fd;
    this.fd = null;
    this.gen += 1;
    this.position = 0;
    this.allocated = 0;
    this.recordsInGen = 0;
    if (oldFd !== null) fs.closeSync(oldFd);
    const waiters = this.rotateWaiters;
    this.rotateWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Creates the current generation's file, empty. Batches are written at
   * positions into a stretch the journal first fills with zeros: overwriting
   * allocated blocks leaves the file's size and block map alone, so each
   * fdatasync flushes data only instead of waiting for a file-system journal
   * commit (which other processes' metadata changes can hold up for long).
   * The file is opened O_DSYNC, so a batch's write returns once it is
   * durable. Replay stops at the first NUL. The first batch syncs the
   * directory before it writes, so the new file's entry is durable too.
   */
  private createGeneration(): number {
    const { O_RDWR, O_CREAT, O_TRUNC } = fs.constants;
    const fd = fs.openSync(this.journalPath(this.gen), O_RDWR | O_CREAT | O_TRUNC | (O_DSYNC ?? 0), 0o600);
    this.fd = fd;
    this.position = 0;
    this.allocated = 0;
    return fd;
  }

  private async journalGenerations(): Promise<number[]> {
    const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
    return names
      .map((name) => this.journalPattern.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  }
}

/**
 * Writes `records` as the complete snapshot of journal `name` in `dir`
 * (covering no journal), durably and atomically: for migrations that seed a
 * journal from data kept elsewhere before.
 */
export async function writeJournalSnapshot(dir: string, name: string, records: Iterable<unknown>): Promise<void> {
  if (!NAME.test(name)) throw new Error(`journal name ${JSON.stringify(name)} is not a plain file-name prefix`);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  await writeAtomicLines(path.join(dir, `${name}.snapshot.jsonl`), snapshotLines(0, records));
}

/** Whether journal `name` has any file in `dir`. */
export async function journalExists(dir: string, name: string): Promise<boolean> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  return names.some((file) => file.startsWith(`${name}.`) && file.endsWith('.jsonl') && /^(snapshot|\d+)$/.test(file.slice(name.length + 1, -6)));
}

function* snapshotLines(next: number, records: Iterable<unknown>): Iterable<string> {
  yield encodeLine({ t: 'H', v: 2, next });
  for (const record of records) yield encodeLine(record);
}

function isHeader(value: unknown): value is { t: 'H'; next?: unknown } {
  return typeof value === 'object' && value !== null && (value as { t?: unknown }).t === 'H';
}

/** Synchronous data writes where the platform has them (Linux, macOS); elsewhere write + fdatasync. */
const O_DSYNC: number | undefined = fs.constants.O_DSYNC;

const BATCH_WINDOW_MS = 1;

/** Journal files of earlier runs after which a start compacts whatever their size. */
const MAX_JOURNAL_FILES = 8;

const ZEROS = Buffer.alloc(1024 * 1024);

/** Continuations run per turn of the event loop (see notifyInSlices). */
const NOTIFY_SLICE = 32;

/**
 * Runs a batch's continuations (the ACKs waiting for it) a slice per turn of
 * the event loop, so a large batch does not send hundreds of replies back to
 * back: a burst like that overflows the receive buffer of a client that
 * speaks for many (a relay, perfdhcp), and incoming requests wait behind it.
 */
function notifyInSlices(waiters: readonly Done[], err: Error | null, from = 0): void {
  const end = Math.min(waiters.length, from + NOTIFY_SLICE);
  for (let i = from; i < end; i += 1) waiters[i]!(err);
  if (end < waiters.length) setImmediate(() => notifyInSlices(waiters, err, end));
}

/** Writes all of `data` at `position` (positional writes: no O_APPEND). */
function writeAt(fd: number, data: Buffer, position: number, done: (err: Error | null) => void, offset = 0): void {
  fs.write(fd, data, offset, data.length - offset, position + offset, (err, written) => {
    if (err) return done(err);
    if (offset + written < data.length) return writeAt(fd, data, position, done, offset + written);
    done(null);
  });
}

function syncDirectoryThen(dir: string, done: (err: Error | null) => void): void {
  if (process.platform === 'win32') return done(null);
  fs.open(dir, 'r', (openErr, dirFd) => {
    if (openErr) return done(openErr);
    fs.fsync(dirFd, (syncErr) => fs.close(dirFd, () => done(syncErr)));
  });
}

function writeZeros(fd: number, position: number, length: number, done: (err: Error | null) => void): void {
  if (length <= 0) return done(null);
  const chunk = Math.min(length, ZEROS.length);
  writeAt(fd, ZEROS.subarray(0, chunk), position, (err) => (err ? done(err) : writeZeros(fd, position + chunk, length - chunk, done)));
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
