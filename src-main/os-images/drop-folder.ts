import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { hasImageExtension } from './image-names.js';

/*
 * The drop folder (docs/os-images.md, "Drop folder"): a folder watched with
 * fs.watch (event-driven, no polling of a quiet folder), plus a full scan
 * when the watch starts. A new image file is handed over only once its size
 * and modification time stayed the same for one settle interval, so a copy
 * in progress is never imported half-written; while it keeps changing it is
 * looked at again after each interval. A file that goes away is reported.
 * Only the folder's own entries count (no recursion); dot files are skipped.
 */

export interface DropFolderHandlers {
  /** A file (absolute path in the folder) whose size stopped changing. */
  stable(file: string, size: number): Promise<void>;
  /** A file seen before is gone. */
  gone(file: string): Promise<void>;
  /** Whether an image already stands for this path (its file going away matters then). */
  known(file: string): boolean;
}

/** How long a file's size and mtime must stay the same before it is taken: 2 s. */
export const DEFAULT_SETTLE_MS = 2000;

interface Pending {
  size: number;
  mtimeMs: number;
  timer: NodeJS.Timeout;
}

export class DropFolderWatcher {
  private readonly handlers: DropFolderHandlers;
  private readonly settleMs: number;
  private readonly log: Logger;
  private folder: string | null = null;
  private watcher: FSWatcher | null = null;
  private readonly pending = new Map<string, Pending>();
  /** Files handed over (or known) whose disappearance is reported. */
  private readonly seen = new Set<string>();
  private chain: Promise<void> = Promise.resolve();

  constructor(options: { handlers: DropFolderHandlers; settleMs?: number; log: Logger }) {
    this.handlers = options.handlers;
    this.settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    this.log = options.log;
  }

  /** Watches `folder` (a checked real path) instead of the current one; null stops watching. Resolves after the first scan. */
  async watch(folder: string | null): Promise<void> {
    this.stop();
    this.folder = folder;
    if (folder === null) return;
    try {
      this.watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (typeof name === 'string' && name !== '') this.look(path.join(folder, name));
        else void this.scan();
      });
      this.watcher.on('error', (error) => {
        this.log.warn(`watching the drop folder ${folder} failed: ${errorMessage(error)}; rescanning`);
        void this.scan();
      });
    } catch (error) {
      this.log.warn(`cannot watch the drop folder ${folder}: ${errorMessage(error)}`);
    }
    await this.scan();
  }

  /** Looks at every entry of the folder now (start, settings change, a watch error). */
  async scan(): Promise<void> {
    const folder = this.folder;
    if (folder === null) return;
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      this.log.warn(`cannot read the drop folder ${folder}: ${errorMessage(error)}`);
      return;
    }
    const present = new Set(names.filter(isCandidate).map((name) => path.join(folder, name)));
    for (const file of present) this.look(file);
    for (const file of [...this.seen]) if (!present.has(file)) this.look(file);
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
    this.pending.clear();
    this.seen.clear();
  }

  /** Resolves when every handler call started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    await this.chain;
  }

  /** Whether files are still waiting to settle. */
  settling(): number {
    return this.pending.size;
  }

  private look(file: string): void {
    if (this.folder === null || path.dirname(file) !== this.folder || !isCandidate(path.basename(file))) return;
    const existing = this.pending.get(file);
    if (existing) return; // its timer looks again
    void this.check(file, null);
  }

  private async check(file: string, before: { size: number; mtimeMs: number } | null): Promise<void> {
    this.pending.delete(file);
    if (this.folder === null || path.dirname(file) !== this.folder) return;
    const info = await stat(file).catch(() => null);
    if (!info || !info.isFile()) {
      if (this.seen.delete(file) || this.handlers.known(file)) this.run(() => this.handlers.gone(file));
      return;
    }
    if (before && before.size === info.size && before.mtimeMs === info.mtimeMs) {
      this.seen.add(file);
      this.run(() => this.handlers.stable(file, info.size));
      return;
    }
    const timer = setTimeout(() => void this.check(file, { size: info.size, mtimeMs: info.mtimeMs }), this.settleMs);
    timer.unref();
    this.pending.set(file, { size: info.size, mtimeMs: info.mtimeMs, timer });
  }

  /** Handler calls run one at a time, in order. */
  private run(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((error: unknown) => this.log.warn(`drop folder: ${errorMessage(error)}`));
  }
}

function isCandidate(name: string): boolean {
  return !name.startsWith('.') && hasImageExtension(name);
}
