import type { ReadOnlyTree, TreeNode } from '../../core/read-only-tree.js';
import { EncodedEntries } from './nfs3-readdir.js';

/*
 * Directory listings for READDIR/READDIRPLUS. A client reads a large
 * directory in many calls (one per reply's worth of entries, resuming at a
 * cookie); listing a 10,000-entry folder stats every entry, so the listing
 * is kept, per tree and path, only while the directory's mtime is the one it
 * was listed at (an entry added or removed changes it, and every call looks,
 * at attributes at most three seconds old) and for at most a minute. Within
 * that minute READDIRPLUS may hand out an entry's attributes as they were
 * when listed (a file rewritten in place, same name); GETATTR, LOOKUP,
 * ACCESS and READ look at the file itself (through the three-second
 * attribute cache, nfs3-attr-cache.ts). A minute is NFS-Ganesha's default
 * attribute expiry (Attr_Expiration_Time = 60) and the Linux client's
 * acregmax: with 5 s, a client walking the tree every few seconds listed
 * every folder again (bench:nfs, 10,000 files: 0.11 s a walk, 0.08 s with a
 * minute).
 *
 * The cache is bounded by entries, not listings: a walk of a tree of a
 * hundred folders must find them all again on its next pass (NFS clients
 * re-read directories every few seconds), while one huge folder cannot hold
 * more than the bound. Each listing keeps its entries encoded
 * for READDIR(PLUS) (EncodedEntries) as long as it is kept: the key is per
 * export, so two exports of one tree never share encoded entries (their
 * fsid and handles differ) even when the tree answers both with one array.
 */

/** A directory's entries and what READDIR(PLUS) encoded of them so far. */
export interface CachedListing {
  nodes: TreeNode[];
  encoded: EncodedEntries;
}

interface Listing extends CachedListing {
  tree: ReadOnlyTree;
  mtimeMs: number;
  at: number;
}

export interface DirectoryCacheOptions {
  /** Listings kept (default 4,096). */
  maxListings?: number;
  /** Entries of all kept listings together (default 200,000: some tens of MB with their encoded entries). */
  maxEntries?: number;
  /** How long a listing is reused at most (default 60,000 ms). */
  ttlMs?: number;
}

/** The longest a listing is reused (see the header). */
export const DEFAULT_TTL_MS = 60_000;

export class DirectoryCache {
  private readonly listings = new Map<string, Listing>();
  private readonly maxListings: number;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private entries = 0;

  constructor(options: DirectoryCacheOptions = {}) {
    this.maxListings = options.maxListings ?? 4096;
    this.maxEntries = options.maxEntries ?? 200_000;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  }

  /** The entries of directory `dir` of export `exportId` (TreeError from the tree as it comes). */
  async list(exportId: number, tree: ReadOnlyTree, dir: TreeNode): Promise<CachedListing> {
    const key = `${exportId}:${dir.path}`;
    const now = Date.now();
    const cached = this.listings.get(key);
    if (cached && cached.tree === tree && cached.mtimeMs === dir.mtimeMs && now - cached.at <= this.ttlMs) return cached;
    const listing: Listing = { tree, mtimeMs: dir.mtimeMs, nodes: await tree.list(dir.path), encoded: new EncodedEntries(), at: now };
    const nodes = listing.nodes;
    this.drop(key);
    // A listing bigger than the whole bound is answered but not kept.
    if (nodes.length > this.maxEntries) return listing;
    this.listings.set(key, listing);
    this.entries += nodes.length;
    while (this.listings.size > this.maxListings || this.entries > this.maxEntries) {
      const oldest = this.listings.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    return listing;
  }

  private drop(key: string): void {
    const listing = this.listings.get(key);
    if (!listing) return;
    this.entries -= listing.nodes.length;
    this.listings.delete(key);
  }

  clear(): void {
    this.listings.clear();
    this.entries = 0;
  }
}
