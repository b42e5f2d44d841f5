import type { ReadOnlyTree, TreeNode } from '../../core/read-only-tree.js';

/*
 * Directory listings for READDIR/READDIRPLUS. A client reads a large
 * directory in many calls (one per reply's worth of entries, resuming at a
 * cookie); listing a 10,000-entry folder stats every entry, so the listing
 * is kept for a few seconds, per tree and path, and only while the
 * directory's mtime is the one it was listed at (an entry added or removed
 * changes it).
 */

interface Listing {
  tree: ReadOnlyTree;
  mtimeMs: number;
  nodes: TreeNode[];
  at: number;
}

export interface DirectoryCacheOptions {
  /** Listings kept (default 32). */
  maxListings?: number;
  /** How long a listing is reused (default 5,000 ms). */
  ttlMs?: number;
}

export class DirectoryCache {
  private readonly listings = new Map<string, Listing>();
  private readonly maxListings: number;
  private readonly ttlMs: number;

  constructor(options: DirectoryCacheOptions = {}) {
    this.maxListings = options.maxListings ?? 32;
    this.ttlMs = options.ttlMs ?? 5_000;
  }

  /** The entries of directory `dir` of export `exportId` (TreeError from the tree as it comes). */
  async list(exportId: number, tree: ReadOnlyTree, dir: TreeNode): Promise<TreeNode[]> {
    const key = `${exportId}:${dir.path}`;
    const now = Date.now();
    const cached = this.listings.get(key);
    if (cached && cached.tree === tree && cached.mtimeMs === dir.mtimeMs && now - cached.at <= this.ttlMs) return cached.nodes;
    const nodes = await tree.list(dir.path);
    this.listings.delete(key);
    this.listings.set(key, { tree, mtimeMs: dir.mtimeMs, nodes, at: now });
    while (this.listings.size > this.maxListings) {
      const oldest = this.listings.keys().next().value;
      if (oldest === undefined) break;
      this.listings.delete(oldest);
    }
    return nodes;
  }

  clear(): void {
    this.listings.clear();
  }
}
