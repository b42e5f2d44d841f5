import path from 'node:path';
import { notFound } from '../core/errors.js';
import type { Collection } from '../store/collection.js';
import {
  BUILTIN_SOURCE,
  type StoreCatalogQuery,
  type StoreFeed,
  type StoreFeedStatus,
  type StoreInstalled,
  type StoreItem,
  type StoreItemDetail,
  type StoreItemType,
} from './community-store-contract.js';
import type { LoadedCatalog } from './builtin-catalog.js';
import { FeedClient, feedFingerprint } from './feed-client.js';
import { itemKey, referencesOf, type StoreIndexEntry, type StoreItemFile } from './item-format.js';
import { latestProvenance, type ProvenanceRow } from './store-records.js';
import type { StoreSettingsStore } from './store-settings.js';

/** One catalog item found in a source, its file loaded on demand (a feed item is fetched and checked then). */
export interface SourcedEntry {
  source: string;
  entry: StoreIndexEntry;
  load(): Promise<StoreItemFile>;
}

export interface StoreCatalogDeps {
  builtin: LoadedCatalog;
  settings: StoreSettingsStore;
  /** <data-dir>/store-feeds: one cache folder per feed. */
  feedDir: string;
  now: () => Date;
  provenance: Collection<ProvenanceRow>;
  /** Whether a local resource still exists (an installed item whose resources were all deleted is not installed). */
  exists: (type: StoreItemType, id: number) => boolean;
  onFeedFailure: (feed: StoreFeed, error: string, stale: boolean) => void;
}

/**
 * The catalog (docs/store.md): the shipped items first, then each enabled
 * feed's in settings order, each marked with what is installed from it.
 * Feeds are fetched when the catalog is asked for and their index is older
 * than the cache time (or `refresh`); a failing feed leaves its last good
 * index in the list (`stale`) or nothing (`failed`), never an error.
 */
export class StoreCatalog {
  private readonly deps: StoreCatalogDeps;
  private feeds: FeedClient[] = [];

  constructor(deps: StoreCatalogDeps) {
    this.deps = deps;
    this.syncFeeds();
    deps.settings.onChange(() => this.syncFeeds());
  }

  async list(query: StoreCatalogQuery & { refresh?: boolean }): Promise<{ data: StoreItem[]; meta: { total: number; page: number; size: number } }> {
    await this.refreshFeeds(query.refresh === true, query.source);
    const words = (query.q ?? '').toLowerCase().split(/\s+/).filter((word) => word.length > 0);
    const matches = this.sourced()
      .filter(({ source, entry }) => (query.type === undefined || entry.type === query.type) && (query.source === undefined || source === query.source))
      .filter(({ entry }) => {
        const text = [entry.id, entry.name, entry.summary, ...entry.tags].join(' ').toLowerCase();
        return words.every((word) => text.includes(word));
      });
    const limit = query.limit ?? 100;
    const offset = query.offset ?? 0;
    const data = matches.slice(offset, offset + limit).map(({ source, entry }) => this.view(source, entry));
    return { data, meta: { total: matches.length, page: Math.floor(offset / limit) + 1, size: limit } };
  }

  /** The item (from `source`, or the first source that has it: builtin, then the feeds in order); NOT_FOUND otherwise. */
  async find(type: StoreItemType, id: string, source?: string): Promise<SourcedEntry> {
    if (source === undefined || source === BUILTIN_SOURCE) {
      // A shipped item is found without waiting on the feeds (one may be slow).
      const shipped = this.sourced(false).find((item) => item.entry.type === type && item.entry.id === id);
      if (shipped || source === BUILTIN_SOURCE) {
        if (!shipped) throw notFound(`store item of source "${BUILTIN_SOURCE}"`, itemKey(type, id));
        return shipped;
      }
    }
    await this.refreshFeeds(false, source);
    const found = this.sourced().find((item) => item.entry.type === type && item.entry.id === id && (source === undefined || item.source === source));
    if (!found) throw notFound(`store item${source ? ` of source "${source}"` : ''}`, itemKey(type, id));
    return found;
  }

  async detail(type: StoreItemType, id: string, source?: string): Promise<StoreItemDetail> {
    const found = await this.find(type, id, source);
    const item = await found.load();
    return { ...this.view(found.source, found.entry), description: item.description, payload: item.payload, requires: referencesOf(item) };
  }

  /** Builtin first, then every configured feed (state ok, stale, failed or disabled). */
  async status(refresh: boolean): Promise<StoreFeedStatus[]> {
    await this.refreshFeeds(refresh);
    const builtin: StoreFeedStatus = { name: BUILTIN_SOURCE, url: 'resources/store', state: 'builtin', items: this.deps.builtin.entries.length, fetched_at: null, error: null };
    return [builtin, ...this.feeds.map((feed) => feed.status())];
  }

  /** What is installed from (source, type, id), with update_available when the catalog now has another version or digest. */
  installed(source: string, entry: StoreIndexEntry): StoreInstalled | null {
    const row = latestProvenance(this.deps.provenance, entry.type, entry.id, source);
    if (!row) return null;
    const local = row.local.filter((ref) => this.deps.exists(ref.type, ref.id));
    if (local.length === 0) return null;
    return {
      local,
      version: row.version,
      sha256: row.sha256,
      imported_at: row.imported_at,
      imported_by: row.imported_by,
      update_available: row.version !== entry.version || row.sha256 !== entry.sha256,
    };
  }

  private view(source: string, entry: StoreIndexEntry): StoreItem {
    return {
      type: entry.type,
      id: entry.id,
      name: entry.name,
      version: entry.version,
      summary: entry.summary,
      tags: [...entry.tags],
      os_family: entry.os_family,
      author: entry.author,
      source,
      sha256: entry.sha256,
      installed: this.installed(source, entry),
    };
  }

  private sourced(withFeeds = true): SourcedEntry[] {
    const builtin = this.deps.builtin;
    const shipped = builtin.entries.map((entry): SourcedEntry => ({
      source: BUILTIN_SOURCE,
      entry,
      load: async () => {
        const item = builtin.items.get(itemKey(entry.type, entry.id));
        if (!item) throw notFound('store item', itemKey(entry.type, entry.id));
        return item;
      },
    }));
    if (!withFeeds) return shipped;
    const remote = this.feeds.flatMap((feed) => feed.entries().map((entry): SourcedEntry => ({ source: feed.feed.name, entry, load: () => feed.item(entry) })));
    return [...shipped, ...remote];
  }

  private async refreshFeeds(force: boolean, only?: string): Promise<void> {
    await Promise.all(this.feeds.filter((feed) => only === undefined || feed.feed.name === only).map((feed) => feed.refresh(force)));
  }

  /** Keeps the clients (and their fetched state) of feeds whose settings did not change; makes new ones for the rest. */
  private syncFeeds(): void {
    const settings = this.deps.settings.get();
    const current = new Map(this.feeds.map((client) => [`${client.feed.name}\u0000${feedFingerprint(client.feed)}\u0000${client.enabled}`, client]));
    this.feeds = settings.feeds.map((feed) => {
      const kept = current.get(`${feed.name}\u0000${feedFingerprint(feed)}\u0000${feed.enabled !== false}`);
      if (kept) return kept;
      return new FeedClient(feed, {
        dir: path.join(this.deps.feedDir, feed.name),
        timeoutMs: () => this.deps.settings.get().timeout_seconds * 1000,
        now: this.deps.now,
        onFailure: this.deps.onFeedFailure,
      });
    });
  }
}
