import fs from 'node:fs';
import path from 'node:path';

/**
 * The leases' durable log, after Kea's memfile: an append-only JSON-lines
 * journal written in batches (one synchronous write per batch, the
 * callers' continuations run after the sync), compacted now and then into a
 * snapshot. Separate from the lowdb configuration store, whose whole-file
 * rewrite per commit cannot keep up with thousands of leases per second.
 *
 * Files in the directory:
 * - `leases.snapshot.jsonl`: a header line `{"t":"H","v":1,"next":N}`, then
 *   one record per lease/quarantine. It holds everything in journals < N.
 * - `leases.<gen>.jsonl`: journals; replayed in order from gen N.
 *
 * Batches go at positions into a stretch of the file filled with zeros
 * beforehand (8 MiB at a time), so a synchronous write (O_DSYNC, or
 * fdatasync where that flag is missing) flushes data and not the
 * file-system journal; replay reads up to the first NUL. Each process start
 * writes to a new generation (a torn last line of the previous run is never
 * written after) and compacts at once. Compaction
 * switches to the next generation first, then writes the snapshot from
 * memory (temp file, fsync, rename, fsync of the directory), then deletes
 * the old journals. Records are idempotent upserts and deletes, so a record
 * that is both in the snapshot and replayed after it does no harm.
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

const SNAPSHOT = 'leases.snapshot.jsonl';
const JOURNAL = /^leases\.(\d+)\.jsonl$/;

export interface JournalReplay {
  records: number;
  /** Lines that could not be parsed (a torn last line after a crash). */
  skipped: number;
}

export interface LeaseJournalOptions {
  dir: string;
  /** Compact when the current journal has this many records and more than twice the live count. */
  compactAfter?: number;
  onError?: (err: Error) => void;
}

type Done = (err: Error | null) => void;

export class LeaseJournal {
  readonly dir: string;
  private readonly compactAfter: number;
  private readonly onError: (err: Error) => void;
  private gen = 0;
  private fd: number | null = null;
  /** Where the next batch goes in the current journal file, and how far the file is filled with zeros. */
  private position = 0;
  private allocated = 0;
  private pending: string[] = [];
  private waiters: Done[] = [];
  private flushing = false;
  private scheduled = false;
  private recordsInGen = 0;
  private compacting: Promise<void> | null = null;
  /** Compactions waiting for the batch in flight to end before switching files. */
  private rotateWaiters: (() => void)[] = [];
  private closed = false;
  /** Observes each batch: records written and seconds until they were durable. */
  onBatch: ((records: number, seconds: number) => void) | null = null;
  /** Called for the compaction snapshot: every live record, as lines. */
  private liveRecords: (() => Iterable<JournalRecord>) | null = null;
  private liveCount: () => number = () => 0;

  constructor(options: LeaseJournalOptions) {
    this.dir = options.dir;
    this.compactAfter = options.compactAfter ?? 50_000;
    this.onError = options.onError ?? (() => undefined);
  }

  /** Reads the snapshot and journals, handing each record to `apply` in order. */
  async replay(apply: (record: JournalRecord) => void): Promise<JournalReplay> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const result: JournalReplay = { records: 0, skipped: 0 };
    let next = 0;
    const feed = (content: string, isSnapshot: boolean) => {
      let first = isSnapshot;
      // Journal files end in their zero-filled stretch; records never contain NUL (JSON escapes it).
      const nul = content.indexOf('\0');
      const text = nul < 0 ? content : content.slice(0, nul);
      for (const line of text.split('\n')) {
        if (line.length === 0) continue;
        let record: unknown;
        try {
          record = JSON.parse(line);
        } catch {
          result.skipped += 1;
          continue;
        }
        if (first) {
          first = false;
          if (isRecordOf(record, 'H')) {
            next = Number((record as { next?: unknown }).next) || 0;
            continue;
          }
        }
        if (!isJournalRecord(record)) {
          result.skipped += 1;
          continue;
        }
        apply(record);
        result.records += 1;
      }
    };
    const snapshot = await readIfExists(path.join(this.dir, SNAPSHOT));
    if (snapshot !== null) feed(snapshot, true);
    const gens = await this.journalGenerations();
    for (const gen of gens) {
      if (gen < next) continue;
      const text = await readIfExists(path.join(this.dir, `leases.${gen}.jsonl`));
      if (text !== null) feed(text, false);
    }
    this.gen = Math.max(next, ...gens, 0) + 1;
    return result;
  }

  /**
   * Opens the journal for appending (a new generation) and compacts what was
   * replayed into a snapshot. `live` lists the current state for compactions.
   */
  async open(live: () => Iterable<JournalRecord>, liveCount: () => number): Promise<void> {
    this.liveRecords = live;
    this.liveCount = liveCount;
    this.openGeneration(this.gen);
    await this.compact();
  }

  /** Queues a record; it is durable when a later `whenDurable` callback runs. */
  append(record: JournalRecord): void {
    if (this.closed) throw new Error('lease journal is closed');
    this.pending.push(`${JSON.stringify(record)}\n`);
    this.recordsInGen += 1;
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

  get generation(): number {
    return this.gen;
  }

  private schedule(): void {
    if (this.flushing || this.scheduled) return;
    this.scheduled = true;
    // Gather a millisecond of appends into one batch: each batch is a trip to the thread pool and
    // a synchronous write, and on a fast disk batches would otherwise hold one record each.
    // (While a batch is in flight the next one gathers by itself.)
    setTimeout(() => {
      this.scheduled = false;
      this.flush();
    }, BATCH_WINDOW_MS);
  }

  private flush(): void {
    if (this.flushing) return;
    if (this.pending.length === 0) {
      this.release(null);
      return;
    }
    const fd = this.fd;
    if (fd === null) {
      this.release(new Error('lease journal is not open'));
      return;
    }
    this.flushing = true;
    const data = Buffer.from(this.pending.join(''), 'utf8');
    const records = this.pending.length;
    const started = process.hrtime.bigint();
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    const at = this.position;
    this.position += data.length;
    // Keep a zero-filled stretch ahead of the writes (see openGeneration).
    const growFrom = this.position > this.allocated - PREALLOCATE_BYTES / 4 ? this.allocated : -1;
    if (growFrom >= 0) this.allocated = Math.ceil((this.position + PREALLOCATE_BYTES) / PREALLOCATE_BYTES) * PREALLOCATE_BYTES;
    const finish = (err: Error | null) => {
      this.flushing = false;
      this.onBatch?.(records, Number(process.hrtime.bigint() - started) / 1e9);
      if (this.rotateWaiters.length > 0) this.rotateNow();
      if (err) this.onError(err);
      notifyInSlices(waiters, err);
      // The next batch gathers for a window too: a batch costs two wake-ups across threads (to the
      // thread pool and back), dear on a virtual machine, so back-to-back batches of a few records
      // cost more CPU than the millisecond they save.
      if (this.pending.length > 0 || this.waiters.length > 0) this.schedule();
      else this.maybeCompact();
    };
    // With O_DSYNC the write returns once the data is durable: one system call per batch.
    const writeRecords = () =>
      writeAt(fd, data, at, (writeErr) => {
        if (writeErr) finish(writeErr);
        else if (O_DSYNC !== undefined) finish(null);
        else fs.fdatasync(fd, finish);
      });
    if (growFrom < 0) writeRecords();
    else writeZeros(fd, growFrom, this.allocated - growFrom, (err) => (err ? finish(err) : writeRecords()));
  }

  private release(err: Error | null): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const done of waiters) done(err);
  }

  private maybeCompact(): void {
    if (this.compacting || this.closed) return;
    if (this.recordsInGen < this.compactAfter || this.recordsInGen < 2 * this.liveCount()) return;
    this.compact().catch((err: unknown) => this.onError(err as Error));
  }

  private async doCompact(): Promise<void> {
    if (!this.liveRecords) return;
    await this.rotate();
    const next = this.gen;

    const temp = path.join(this.dir, `${SNAPSHOT}.tmp`);
    const handle = await fs.promises.open(temp, 'w', 0o600);
    try {
      let chunk: string[] = [`${JSON.stringify({ t: 'H', v: 1, next })}\n`];
      let size = 0;
      for (const record of this.liveRecords()) {
        const line = `${JSON.stringify(record)}\n`;
        chunk.push(line);
        size += line.length;
        if (size >= 1 << 20) {
          // Write in slices and yield, so a snapshot of 100k leases does not stall the packets.
          await handle.write(chunk.join(''));
          chunk = [];
          size = 0;
        }
      }
      await handle.write(chunk.join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, path.join(this.dir, SNAPSHOT));
    await syncDir(this.dir);
    for (const gen of await this.journalGenerations()) {
      if (gen < next) await fs.promises.rm(path.join(this.dir, `leases.${gen}.jsonl`), { force: true });
    }
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
    this.openGeneration(this.gen + 1);
    this.recordsInGen = 0;
    if (oldFd !== null) fs.closeSync(oldFd);
    const waiters = this.rotateWaiters;
    this.rotateWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Starts journal file `gen`, empty. Batches are written at positions into a
   * stretch the journal first fills with zeros: overwriting allocated blocks
   * leaves the file's size and block map alone, so each fdatasync flushes
   * data only instead of waiting for a file-system journal commit (which
   * other processes' metadata changes can hold up for long). The file is
   * opened O_DSYNC, so a batch's write returns once it is durable. Replay
   * stops at the first NUL.
   */
  private openGeneration(gen: number): void {
    const { O_RDWR, O_CREAT, O_TRUNC } = fs.constants;
    this.fd = fs.openSync(path.join(this.dir, `leases.${gen}.jsonl`), O_RDWR | O_CREAT | O_TRUNC | (O_DSYNC ?? 0), 0o600);
    this.gen = gen;
    this.position = 0;
    this.allocated = 0;
  }

  private async journalGenerations(): Promise<number[]> {
    const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
    return names
      .map((name) => JOURNAL.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  }
}

/** Synchronous data writes where the platform has them (Linux, macOS); elsewhere write + fdatasync. */
const O_DSYNC: number | undefined = fs.constants.O_DSYNC;

const BATCH_WINDOW_MS = 1;

/** Zero-filled stretch added to a journal file at a time. */
const PREALLOCATE_BYTES = 8 * 1024 * 1024;
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

/** fsync of the directory makes the rename durable (POSIX leaves it to the directory entry). */
async function syncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isRecordOf(value: unknown, t: string): boolean {
  return typeof value === 'object' && value !== null && (value as { t?: unknown }).t === t;
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
