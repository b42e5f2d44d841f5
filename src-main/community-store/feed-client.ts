import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errorMessage } from '../core/errors.js';
import type { StoreFeed, StoreFeedStatus } from './community-store-contract.js';
import { decodeSignature, parseEd25519PublicKey, sha256Hex, verifyEd25519 } from './feed-signature.js';
import { FeedFetchError, fetchBounded, MAX_INDEX_BYTES, MAX_ITEM_BYTES } from './feed-http.js';
import { checkAgainstIndex, checkIndex, checkItemFile, itemKey, type StoreIndexEntry, type StoreItemFile } from './item-format.js';

/** How long a fetched (or failed) index is used before the next catalog request fetches again. */
export const FEED_CACHE_MS = 5 * 60 * 1000;

export interface FeedClientOptions {
  /** This feed's cache folder (<data-dir>/store-feeds/<name>). */
  dir: string;
  timeoutMs: () => number;
  now: () => Date;
  /** Called once per failed fetch (the area emits store.feed.failed). */
  onFailure: (feed: StoreFeed, error: string, stale: boolean) => void;
}

interface CachedIndex {
  /** The settings the index was verified under: a changed URL or key discards the cache. */
  fingerprint: string;
  fetched_at: string;
  entries: StoreIndexEntry[];
}

/** A feed's URL and trust anchors, which a cached index must have been verified under. */
export function feedFingerprint(feed: StoreFeed): string {
  return sha256Hex(JSON.stringify([feed.url, feed.public_key ?? null, feed.index_sha256 ?? null]));
}

/**
 * One remote feed (docs/store.md, "Feeds"): fetches and verifies its index
 * (Ed25519 signature or pinned SHA-256), keeps the last good one on disk and
 * serves it as `stale` while the feed fails, and fetches items checking their
 * payload digest against the verified index. Never throws from index(): a
 * down, slow or tampered feed only changes its status.
 */
export class FeedClient {
  readonly feed: StoreFeed;
  private readonly options: FeedClientOptions;
  private readonly fingerprint: string;
  private cached: CachedIndex | null = null;
  private diskRead = false;
  private lastAttempt = 0;
  private error: string | null = null;
  private inFlight: Promise<void> | null = null;
  private readonly items = new Map<string, StoreItemFile>();

  constructor(feed: StoreFeed, options: FeedClientOptions) {
    this.feed = feed;
    this.options = options;
    this.fingerprint = feedFingerprint(feed);
  }

  get enabled(): boolean {
    return this.feed.enabled !== false;
  }

  /** The entries of the last verified index (empty when there never was one, or the feed is disabled). */
  entries(): readonly StoreIndexEntry[] {
    return this.enabled ? (this.cached?.entries ?? []) : [];
  }

  status(): StoreFeedStatus {
    const base = { name: this.feed.name, url: this.feed.url, items: this.entries().length, fetched_at: this.cached?.fetched_at ?? null, error: this.error };
    if (!this.enabled) return { ...base, state: 'disabled', items: 0, error: null };
    if (this.error === null) return { ...base, state: this.cached ? 'ok' : 'failed', error: this.cached ? null : 'not fetched yet' };
    return { ...base, state: this.cached ? 'stale' : 'failed' };
  }

  /** Brings the index up to date when it is older than FEED_CACHE_MS (or `refresh`); one fetch at a time. */
  async refresh(force: boolean): Promise<void> {
    if (!this.enabled) return;
    if (!this.diskRead) await this.readDiskCache();
    const age = this.options.now().getTime() - this.lastAttempt;
    if (!force && this.lastAttempt !== 0 && age < FEED_CACHE_MS) return;
    this.inFlight ??= this.fetchIndex().finally(() => {
      this.inFlight = null;
    });
    await this.inFlight;
  }

  /** The item file of `entry` (fetched once, then from memory or disk), its payload digest checked against the index. */
  async item(entry: StoreIndexEntry): Promise<StoreItemFile> {
    const key = `${itemKey(entry.type, entry.id)}@${entry.sha256}`;
    const known = this.items.get(key);
    if (known) return known;
    const cacheFile = path.join(this.options.dir, 'items', `${entry.sha256}.json`);
    let item: StoreItemFile | null = null;
    try {
      const cachedItem = checkItemFile(JSON.parse(await readFile(cacheFile, 'utf8')) as unknown, entry.file);
      checkAgainstIndex(cachedItem, entry, this.feed.name);
      item = cachedItem;
    } catch {
      item = null;
    }
    if (!item) {
      const url = new URL(entry.file, this.feed.url).toString();
      let body: Buffer;
      try {
        body = await fetchBounded(url, this.options.timeoutMs(), MAX_ITEM_BYTES);
      } catch (err) {
        throw new AppError('UPSTREAM_FAILED', `feed "${this.feed.name}": ${errorMessage(err)}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        throw new AppError('UPSTREAM_FAILED', `feed "${this.feed.name}": ${url} is not JSON`);
      }
      let checked: StoreItemFile;
      try {
        checked = checkItemFile(parsed, entry.file);
      } catch (err) {
        throw new AppError('UPSTREAM_FAILED', `feed "${this.feed.name}": ${errorMessage(err)}`);
      }
      checkAgainstIndex(checked, entry, `feed "${this.feed.name}"`);
      item = checked;
      await writeAtomic(cacheFile, JSON.stringify(item)).catch(() => undefined);
    }
    this.items.set(key, item);
    return item;
  }

  private async fetchIndex(): Promise<void> {
    this.lastAttempt = this.options.now().getTime();
    try {
      const timeoutMs = this.options.timeoutMs();
      const body = await fetchBounded(this.feed.url, timeoutMs, MAX_INDEX_BYTES);
      await this.verify(body, timeoutMs);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        throw new FeedFetchError(`${this.feed.url} is not JSON`);
      }
      const index = checkIndex(parsed, 'index');
      this.cached = { fingerprint: this.fingerprint, fetched_at: this.options.now().toISOString(), entries: index.items };
      this.error = null;
      await writeAtomic(path.join(this.options.dir, 'index.cache.json'), JSON.stringify(this.cached)).catch(() => undefined);
    } catch (err) {
      this.error = errorMessage(err);
      this.options.onFailure(this.feed, this.error, this.cached !== null);
    }
  }

  /** The signature (index.json.sig beside the index) or the pinned digest must hold for the exact bytes served. */
  private async verify(body: Buffer, timeoutMs: number): Promise<void> {
    if (this.feed.index_sha256 !== undefined) {
      const digest = sha256Hex(body);
      if (digest !== this.feed.index_sha256) throw new FeedFetchError(`index SHA-256 ${digest} is not the pinned ${this.feed.index_sha256}`);
    }
    if (this.feed.public_key !== undefined) {
      const signatureBody = await fetchBounded(signatureUrl(this.feed.url), timeoutMs, 1024);
      const signature = decodeSignature(signatureBody);
      if (!signature) throw new FeedFetchError(`${signatureUrl(this.feed.url)} is not an Ed25519 signature (64 bytes, raw or base64)`);
      if (!verifyEd25519(body, signature, parseEd25519PublicKey(this.feed.public_key))) {
        throw new FeedFetchError('the index signature does not verify with the configured public key (tampered index or wrong key)');
      }
    }
  }

  private async readDiskCache(): Promise<void> {
    this.diskRead = true;
    try {
      const cached = JSON.parse(await readFile(path.join(this.options.dir, 'index.cache.json'), 'utf8')) as CachedIndex;
      if (cached.fingerprint !== this.fingerprint) return;
      const index = checkIndex({ schema_version: 1, items: cached.entries }, 'cache');
      this.cached = { fingerprint: cached.fingerprint, fetched_at: cached.fetched_at, entries: index.items };
    } catch {
      // No cache (first use) or an unreadable one: the next fetch writes a new one.
    }
  }
}

/** The detached signature beside the index: the index URL's path with `.sig` appended (a query string stays after it). */
export function signatureUrl(indexUrl: string): string {
  const url = new URL(indexUrl);
  url.pathname = `${url.pathname}.sig`;
  return url.toString();
}

/** Writes a cache file whole (temporary file, then rename), so a crash never leaves half a file. */
async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
}
