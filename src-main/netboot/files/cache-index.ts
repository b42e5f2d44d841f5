import { createHash } from 'node:crypto';
import { nowIso } from '../../core/time.js';
import type { Collection, Row } from '../../store/collection.js';

/** One verified file in the download cache (store collection `netboot_cache`). */
export interface CacheRow extends Row {
  url: string;
  /** SHA-256 of the URL: the file's name in the cache directory. */
  key: string;
  size: number;
  /** SHA-256 of the content. */
  sha256: string;
  last_used: string;
  hits: number;
}

/** The store collection of the cache's index. */
export const CACHE_COLLECTION = 'netboot_cache';

/** The cache file name of a URL. */
export function cacheKey(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

/**
 * The durable index of the cache (url → size, digest, created, last used,
 * hits) over its store collection, with a map by URL for the hot path.
 * Writes of `last_used` are not awaited by readers: losing one to a crash
 * only makes the LRU order slightly older.
 */
export class CacheIndex {
  private readonly byUrl = new Map<string, number>();

  constructor(
    private readonly rows: Collection<CacheRow>,
    private readonly onWriteError: (err: unknown) => void,
  ) {
    for (const row of rows.all()) this.byUrl.set(row.url, row.id);
  }

  get(url: string): CacheRow | undefined {
    const id = this.byUrl.get(url);
    return id === undefined ? undefined : this.rows.get(id);
  }

  all(): readonly CacheRow[] {
    return this.rows.all();
  }

  /** Bytes the index holds. */
  totalSize(): number {
    let total = 0;
    for (const row of this.rows.all()) total += row.size;
    return total;
  }

  get count(): number {
    return this.rows.size;
  }

  /** Records a verified file, replacing an older row for the URL (so `created_at` says when this copy arrived). */
  async put(entry: { url: string; size: number; sha256: string }, now: Date): Promise<CacheRow> {
    await this.remove(entry.url);
    const row = await this.rows.insert({ url: entry.url, key: cacheKey(entry.url), size: entry.size, sha256: entry.sha256, last_used: nowIso(now), hits: 0 }, now);
    this.byUrl.set(row.url, row.id);
    return row;
  }

  /** Marks a use (LRU order and hit count); not awaited. */
  touch(row: CacheRow, now: Date): void {
    this.rows.update(row.id, { last_used: nowIso(now), hits: row.hits + 1 }, now).catch(this.onWriteError);
  }

  async remove(url: string): Promise<void> {
    const id = this.byUrl.get(url);
    if (id === undefined) return;
    this.byUrl.delete(url);
    await this.rows.remove(id);
  }

  /** Rows least recently used first. */
  leastRecentlyUsed(): CacheRow[] {
    return [...this.rows.all()].sort((a, b) => (a.last_used < b.last_used ? -1 : a.last_used > b.last_used ? 1 : a.id - b.id));
  }
}
