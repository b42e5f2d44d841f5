import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import { syncDirectory } from './journal-files.js';

/** What happened when a file could not be read as it was. */
export interface RecoveryReport {
  file: string;
  problem: string;
  /** Where the unreadable file was moved. */
  movedTo: string;
  /** 'last-good' when the last-good copy was restored, 'empty' when there was none. */
  restoredFrom: 'last-good' | 'empty';
}

export interface DurableJsonAdapterOptions {
  onRecovery?: (report: RecoveryReport) => void;
}

/**
 * A lowdb adapter whose write is durable and atomic: the new content goes to a
 * temporary file that is fsync'ed and renamed over the old one, then the
 * directory is fsync'ed. A `kill -9` (or power loss) at any moment leaves
 * either the old or the new file, never a mix, and a resolved write is on disk.
 *
 * lowdb's own JSONFile (steno) renames but does not fsync, which is not enough
 * for "acknowledged means on disk".
 */
export class DurableJsonAdapter<T> implements Adapter<T> {
  readonly file: string;
  readonly lastGoodFile: string;
  private readonly tmpFile: string;
  private readonly options: DurableJsonAdapterOptions;

  constructor(file: string, options: DurableJsonAdapterOptions = {}) {
    this.file = file;
    this.lastGoodFile = `${file}.last-good`;
    this.tmpFile = `${file}.tmp`;
    this.options = options;
  }

  async read(): Promise<T | null> {
    // A leftover temporary file is a write that was never acknowledged.
    await fs.rm(this.tmpFile, { force: true });
    const text = await readIfExists(this.file);
    if (text === null) return null;
    try {
      const data = JSON.parse(text) as T;
      await writeAtomic(this.lastGoodFile, text);
      return data;
    } catch (err) {
      return this.recover(err instanceof Error ? err.message : String(err));
    }
  }

  /** Serialises synchronously (so the caller's snapshot is what lands), then writes durably. */
  write(data: T): Promise<void> {
    const text = JSON.stringify(data);
    return writeAtomic(this.file, text, this.tmpFile);
  }

  /** Refreshes the last-good copy from the current file (on clean shutdown). */
  async saveLastGood(): Promise<void> {
    const text = await readIfExists(this.file);
    if (text !== null) await writeAtomic(this.lastGoodFile, text);
  }

  private async recover(problem: string): Promise<T | null> {
    const movedTo = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await fs.rename(this.file, movedTo);
    const lastGood = await readIfExists(this.lastGoodFile);
    let restored: T | null = null;
    if (lastGood !== null) {
      try {
        restored = JSON.parse(lastGood) as T;
        await writeAtomic(this.file, lastGood);
      } catch {
        restored = null;
      }
    }
    this.options.onRecovery?.({
      file: this.file,
      problem,
      movedTo,
      restoredFrom: restored === null ? 'empty' : 'last-good',
    });
    return restored;
  }
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Write `text` to `file` so that it is complete and on disk when the promise resolves. */
export async function writeAtomic(file: string, text: string, tmpFile = `${file}.tmp`): Promise<void> {
  const handle = await fs.open(tmpFile, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmpFile, file);
  await syncDirectory(path.dirname(file));
}
