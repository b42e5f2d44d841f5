import type { ReadOnlyTree, TreeNode } from '../../core/read-only-tree.js';

/*
 * The nodes (attributes) of export paths, each kept for three seconds. Every
 * NFS call resolves its handle to a node and checks it against the tree: a
 * stat at the remembered path, same node id (handle-index.ts), and LOOKUP
 * stats the child it names. A folder tree's stat is a parent check (realpath:
 * one readlink per component of the absolute path) and an lstat, and a
 * client walking a tree asks about each directory several times (LOOKUP,
 * then READDIRPLUS page after page, then again on its next walk); after the
 * socket these stats were the largest share of our time per call.
 *
 * Three seconds is the Linux client's own shortest attribute cache
 * (acregmin = 3), far inside NFS-Ganesha's 60 s (Attr_Expiration_Time): a
 * client cannot tell the difference. bench:nfs, the 10,000-file walk against
 * Ganesha's: 0.74–0.76× without the cache, 0.75–0.76× keeping nodes for one
 * second (each walk still stats every folder once: the walks are two seconds
 * apart), 0.79–0.90× for three seconds.
 *
 * Within the three seconds a file replaced under its name still resolves to
 * the old node's attributes for GETATTR, ACCESS, LOOKUP and READDIRPLUS; READ
 * and READLINK, which answer with what is at the path now, stat afresh
 * (`fresh`), so a replaced file's bytes never go out under the old handle,
 * and their fresh stat renews the entry. Only found nodes are kept: a name
 * that appears is seen at once, and errors are the tree's each time.
 */

interface Entry {
  tree: ReadOnlyTree;
  node: TreeNode;
  at: number;
}

export interface AttributeCacheOptions {
  /** How long a node is reused (default 3,000 ms; 0 turns the cache off). */
  ttlMs?: number;
  /** Nodes kept; past this the cache starts over (default 100,000: a few tens of MB at most). */
  maxEntries?: number;
  /** The clock (tests). */
  now?: () => number;
}

export const DEFAULT_ATTRIBUTE_TTL_MS = 3_000;

export class AttributeCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Stats answered from the cache and from the tree (tests, logs). */
  readonly stats = { hits: 0, misses: 0 };

  constructor(options: AttributeCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_ATTRIBUTE_TTL_MS;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * The node at `treePath` of export `exportId` (whose tree is `tree`): kept,
   * or the tree's stat (null: nothing there). `fresh` asks the tree in any
   * case (and keeps its answer).
   */
  async stat(exportId: number, tree: ReadOnlyTree, treePath: string, fresh = false): Promise<TreeNode | null> {
    const key = `${exportId}:${treePath}`;
    const now = this.now();
    const kept = fresh ? undefined : this.entries.get(key);
    if (kept && kept.tree === tree && now - kept.at < this.ttlMs) {
      this.stats.hits += 1;
      return kept.node;
    }
    this.stats.misses += 1;
    const node = await tree.stat(treePath);
    if (node === null) {
      this.entries.delete(key);
      return null;
    }
    if (this.ttlMs > 0) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { tree, node, at: now });
    }
    return node;
  }

  /** Forgets everything (the export table changed). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
