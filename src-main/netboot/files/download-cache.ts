import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { EventLog } from '../../events/event-log.js';
import type { Collection } from '../../store/collection.js';
import type { CacheStats } from '../netboot-contract.js';
import { CacheIndex, cacheKey, type CacheRow } from './cache-index.js';
import type { DigestAlgorithm, ExpectedDigest } from './checksums.js';
import { FetchRefused, isHttpUrl } from './http-fetch.js';
import { downloadPart, partPath, removePart } from './part-download.js';

/*
 * The netboot download cache (docs/netboot.md, "Boot files and the download
 * cache"): one file per URL under <data-dir>/netboot-cache/, named by the
 * SHA-256 of the URL, with a durable index in the store. A file becomes
 * visible only once complete and verified (renamed from its .part). One
 * download per URL at a time, shared by every caller. Least recently used
 * files are evicted beyond the size limit, never one being served or
 * downloaded.
 */

/** Hard cap of one file, whatever the cache limit (the largest netboot initrds are a few hundred MB; a DVD ISO is not a boot file). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024 * 1024;

/** The settings the cache follows, read at each use (they change at run time). */
export interface CacheSettings {
  maxBytes: number;
  offline: boolean;
  stallTimeoutMs: number;
  proxy: string | null;
}

export interface CachedFile {
  url: string;
  path: string;
  size: number;
  sha256: string;
  /** Present when the caller asked for a lease: call it once done with the file (bytes sent to a client, for the stats). */
  release?: (bytesServed: number) => void;
}

export interface GetOptions {
  /** The digest the content must have; a mismatch deletes the download and fails. */
  expected?: ExpectedDigest | null;
  /** Re-download (when online) a cached copy older than this (checksum files change with point releases). */
  maxAgeMs?: number;
  /** Holds the file against eviction until `release` is called. */
  lease?: boolean;
  onProgress?: (done: number, total: number | null) => void;
  /** What to suggest when offline (e.g. where to put the file instead). */
  offlineHint?: string;
}

export interface DownloadCacheDeps {
  dir: string;
  rows: Collection<CacheRow>;
  settings: () => CacheSettings;
  events: EventLog;
  log: Logger;
  now?: () => Date;
  /** Observes the headers of every mirror request (tests). */
  onRequest?: (url: string, headers: Record<string, string>) => void;
}

/** What one running download reported so far, and who listens. */
interface Progress {
  listeners: Set<(done: number, total: number | null) => void>;
  done: number;
  total: number | null;
}

interface InFlight {
  promise: Promise<CacheRow>;
  progress: Progress;
}

export class DownloadCache {
  readonly dir: string;
  private readonly index: CacheIndex;
  private readonly deps: DownloadCacheDeps;
  private readonly now: () => Date;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly leases = new Map<string, number>();
  private readonly counters = { hits: 0, misses: 0, bytes_served: 0, bytes_downloaded: 0, evictions: 0 };
  /** Aborts every download when the server stops. */
  private readonly stopping = new AbortController();
  /** Serialises evictions and clears, so two never delete around each other. */
  private housekeeping: Promise<unknown> = Promise.resolve();

  constructor(deps: DownloadCacheDeps) {
    this.deps = deps;
    this.dir = deps.dir;
    this.now = deps.now ?? (() => new Date());
    this.index = new CacheIndex(deps.rows, (err) => deps.log.warn(`netboot cache index write failed: ${errorMessage(err)}`));
  }

  /**
   * Creates the directory and makes the index and the disk agree: rows whose
   * file is gone or has another size are dropped, files without a row
   * (renamed just before a crash) are deleted. Partial downloads stay for a
   * later resume.
   */
  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (const row of [...this.index.all()]) {
      const info = await stat(this.filePath(row.url)).catch(() => null);
      if (!info?.isFile() || info.size !== row.size) await this.index.remove(row.url);
    }
    const known = new Set(this.index.all().map((row) => row.key));
    for (const name of await readdir(this.dir)) {
      if (/^[0-9a-f]{64}$/.test(name) && !known.has(name)) await rm(path.join(this.dir, name), { force: true });
    }
  }

  filePath(url: string): string {
    return path.join(this.dir, cacheKey(url));
  }

  /** The cached, verified copy of `url`, or undefined (no stats counted). */
  lookup(url: string): CacheRow | undefined {
    return this.index.get(url);
  }

  /**
   * The verified local copy of `url`: from the cache (a hit), else
   * downloaded (a miss) unless offline. Concurrent calls for one URL share
   * one download.
   */
  async get(url: string, options: GetOptions = {}): Promise<CachedFile> {
    const row = this.index.get(url);
    const expected = options.expected ?? null;
    const stale =
      row !== undefined &&
      ((expected?.algorithm === 'sha256' && expected.hex !== row.sha256) ||
        (options.maxAgeMs !== undefined && !this.deps.settings().offline && this.now().getTime() - Date.parse(row.created_at) > options.maxAgeMs));
    if (row && !stale) {
      this.counters.hits++;
      this.index.touch(row, this.now());
      return this.handOut(row, options.lease === true);
    }
    this.counters.misses++;
    if (!isHttpUrl(url)) throw new AppError('BAD_REQUEST', `refusing to download ${url}: only http and https URLs`);
    if (this.stopping.signal.aborted) throw new AppError('UNAVAILABLE', `the server is stopping: ${url} is not downloaded`);
    if (this.deps.settings().offline) {
      throw new AppError(
        'INVALID_STATE',
        `offline mode: ${url} is not in the netboot download cache and offline mode forbids downloading it; ${options.offlineHint ?? 'turn offline mode off (PUT /settings/netboot) to download it'}`,
      );
    }
    let flight = this.inFlight.get(url);
    if (!flight) {
      const progress: Progress = { listeners: new Set(), done: 0, total: null };
      flight = { progress, promise: this.download(url, expected, progress).finally(() => this.inFlight.delete(url)) };
      this.inFlight.set(url, flight);
    }
    const { progress, promise } = flight;
    const onProgress = options.onProgress;
    if (onProgress) {
      progress.listeners.add(onProgress);
      onProgress(progress.done, progress.total);
    }
    try {
      return this.handOut(await promise, options.lease === true);
    } finally {
      if (onProgress) progress.listeners.delete(onProgress);
    }
  }

  /** Aborts running downloads (their parts stay for a resume) and waits for them to end. */
  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.inFlight.values()].map((flight) => flight.promise));
    await this.housekeeping;
  }

  /** Counts bytes sent to booting machines from the cache. */
  recordServed(bytes: number): void {
    if (bytes > 0) this.counters.bytes_served += bytes;
  }

  /** Holds `url` against eviction until the returned function is called (once). */
  acquire(url: string): (bytesServed: number) => void {
    this.leases.set(url, (this.leases.get(url) ?? 0) + 1);
    let released = false;
    return (bytesServed: number) => {
      if (released) return;
      released = true;
      this.recordServed(bytesServed);
      const count = (this.leases.get(url) ?? 1) - 1;
      if (count <= 0) this.leases.delete(url);
      else this.leases.set(url, count);
    };
  }

  stats(): CacheStats {
    const settings = this.deps.settings();
    return {
      dir: this.dir,
      size_bytes: this.index.totalSize(),
      max_bytes: settings.maxBytes,
      entries: this.index.count,
      ...this.counters,
      downloads_active: this.inFlight.size,
      offline: settings.offline,
    };
  }

  /** Evicts least recently used files until the cache fits its limit (after a download, when the limit shrinks). */
  enforceLimit(keep: ReadonlySet<string> = new Set()): Promise<void> {
    const run = this.housekeeping.then(() => this.evictOverLimit(keep));
    this.housekeeping = run.catch(() => undefined);
    return run;
  }

  /** Empties the cache except files being served or downloaded (and partial downloads in progress). */
  clear(): Promise<void> {
    const run = this.housekeeping.then(async () => {
      for (const row of this.index.leastRecentlyUsed()) {
        if (this.inUse(row.url)) continue;
        await this.evict(row, 'cleared');
      }
      const downloading = new Set([...this.inFlight.keys()].map((url) => cacheKey(url)));
      for (const name of await readdir(this.dir).catch(() => [] as string[])) {
        const key = name.slice(0, 64);
        if (name.length > 64 && /^[0-9a-f]{64}\.part/.test(name) && !downloading.has(key)) await rm(path.join(this.dir, name), { force: true });
      }
    });
    this.housekeeping = run.catch(() => undefined);
    return run;
  }

  private inUse(url: string): boolean {
    return (this.leases.get(url) ?? 0) > 0 || this.inFlight.has(url);
  }

  private handOut(row: CacheRow, lease: boolean): CachedFile {
    const file: CachedFile = { url: row.url, path: this.filePath(row.url), size: row.size, sha256: row.sha256 };
    if (lease) file.release = this.acquire(row.url);
    return file;
  }

  private async download(url: string, expected: ExpectedDigest | null, progress: Progress): Promise<CacheRow> {
    const settings = this.deps.settings();
    const file = this.filePath(url);
    const algorithms: DigestAlgorithm[] = expected && expected.algorithm !== 'sha256' ? ['sha256', expected.algorithm] : ['sha256'];
    const maxBytes = Math.min(MAX_FILE_BYTES, settings.maxBytes);
    let result;
    try {
      result = await downloadPart({
        url,
        file,
        algorithms,
        stallTimeoutMs: settings.stallTimeoutMs,
        proxy: settings.proxy,
        signal: this.stopping.signal,
        maxBytes,
        maxBytesReason: maxBytes === MAX_FILE_BYTES ? 'the size limit of one file' : 'the cache size limit (cache_max_mb)',
        onBytes: (bytes) => {
          this.counters.bytes_downloaded += bytes;
        },
        onProgress: (done, total) => {
          progress.done = done;
          progress.total = total;
          for (const listener of progress.listeners) listener(done, total);
        },
        ...(this.deps.onRequest ? { onRequest: (headers: Record<string, string>) => this.deps.onRequest?.(url, headers) } : {}),
      });
    } catch (err) {
      if (err instanceof FetchRefused) await removePart(file);
      throw new AppError('UPSTREAM_FAILED', `download of ${url} failed: ${errorMessage(err)}`, { cause: err });
    }
    const sha256 = result.digests.sha256 ?? '';
    if (expected) {
      const actual = result.digests[expected.algorithm] ?? '';
      if (actual !== expected.hex) {
        await removePart(file);
        throw new AppError(
          'UPSTREAM_FAILED',
          `checksum mismatch for ${url}: expected ${expected.algorithm} ${expected.hex} (${expected.source}), got ${actual}; the download was deleted`,
        );
      }
    }
    await rename(partPath(file), file);
    await rm(`${file}.part.json`, { force: true });
    const row = await this.index.put({ url, size: result.size, sha256 }, this.now());
    // The new file is handed out right after this: never its own eviction's victim.
    await this.enforceLimit(new Set([url]));
    return row;
  }

  private async evictOverLimit(keep: ReadonlySet<string>): Promise<void> {
    const max = this.deps.settings().maxBytes;
    let size = this.index.totalSize();
    if (size <= max) return;
    for (const row of this.index.leastRecentlyUsed()) {
      if (size <= max) break;
      if (keep.has(row.url) || this.inUse(row.url)) continue;
      await this.evict(row, 'size limit');
      size -= row.size;
    }
  }

  private async evict(row: CacheRow, reason: 'size limit' | 'cleared'): Promise<void> {
    await rm(this.filePath(row.url), { force: true });
    await this.index.remove(row.url);
    if (reason === 'cleared') return;
    this.counters.evictions++;
    this.deps.events.emit({
      kind: 'netboot.cache.evicted',
      message: `netboot cache evicted ${row.url} (${row.size} bytes, last used ${row.last_used}) to stay within its size limit`,
      detail: { url: row.url, size_bytes: row.size, last_used: row.last_used },
    });
  }
}
