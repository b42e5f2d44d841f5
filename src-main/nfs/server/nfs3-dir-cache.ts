import type { ReadOnlyTree, TreeNode } from '../../core/read-only-tree.js';

/*
 * Directory listings for READDIR/READDIRPLUS. A client reads a large
 * directory in many calls (one per reply's worth of entries, resuming at a
 * cookie); listing a 10,000-entry folder stats every entry, so the listing
 * is kept for a few seconds, per tree and path, and only while the
 * directory's mtime is the one it was listed at (an entry added or removed
 * changes it). The cache is bounded by entries, not listings: a walk of a
 * tree of a hundred folders must find them all again on its next pass (NFS
 * clients re-read directories every few seconds), while one huge folder
 * cannot hold more than the bound.
 */

interface Listing {
  tree: ReadOnlyTree;
  mtimeMs: number;
  nodes: TreeNode[];
  at: number;
}

export interface DirectoryCacheOptions {
  /** Listings kept (default 4,096). */
  maxListings?: number;
  /** Entries of all kept listings together (default 200,000: some tens of MB with their encoded entries). */
  maxEntries?: number;
  /** How long a listing is reused (default 5,000 ms). */
  ttlMs?: number;
}

export class DirectoryCache {
  private readonly listings = new Map<string, Listing>();
  private readonly maxListings: number;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private entries = 0;

  constructor(options: DirectoryCacheOptions = {}) {
    this.maxListings = options.maxListings ?? 4096;
    this.maxEntries = options.maxEntries ?? 200_000;
    this.ttlMs = options.ttlMs ?? 5_000;
  }

  /** The entries of directory `dir` of export `exportId` (TreeError from the tree as it comes). */
  async list(exportId: number, tree: ReadOnlyTree, dir: TreeNode): Promise<TreeNode[]> {
    const key = `${exportId}:${dir.path}`;
    const now = Date.now();
    const cached = this.listings.get(key);
    if (cached && cached.tree === tree && cached.mtimeMs === dir.mtimeMs && now - cached.at <= this.ttlMs) return cached.nodes;
    const nodes = await tree.list(dir.path);
    this.drop(key);
    // A listing bigger than the whole bound is answered but not kept.
    if (nodes.length > this.maxEntries) return nodes;
    this.listings.set(key, { tree, mtimeMs: dir.mtimeMs, nodes, at: now });
    this.entries += nodes.length;
    while (this.listings.size > this.maxListings || this.entries > this.maxEntries) {
      const oldest = this.listings.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    return nodes;
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
