import type { TreeNode } from '../../core/read-only-tree.js';
import type { ExportTable, ServedExport } from '../export-table.js';
import { HandleCodec, handlePathTag, pathTagOf, type HandleFields } from './file-handles.js';
import { AttributeCache } from './nfs3-attr-cache.js';

/*
 * Handle → node. Handles carry a node id and a tag of the node's path, not
 * the path itself, so the server keeps an in-memory index (export id, node
 * id) → tree path, filled whenever it hands out a handle (MNT, LOOKUP,
 * READDIRPLUS). After a restart the index is empty while clients still hold
 * handles: a miss walks the export's tree breadth-first (bounded in nodes
 * and time) for the node whose id and path tag match. Every resolution is
 * checked against the tree (stat at the path, same id; the stat may be up
 * to three seconds old, nfs3-attr-cache.ts), so a removed or replaced file
 * answers NFS3ERR_STALE rather than another file's bytes.
 */

export type Resolution =
  | { status: 'ok'; export: ServedExport; node: TreeNode; fields: HandleFields }
  /** Not a handle we issued (length, version, mac): NFS3ERR_BADHANDLE. */
  | { status: 'badhandle' }
  /** Ours, but its export is gone or the node is no longer at its path: NFS3ERR_STALE. */
  | { status: 'stale'; export: ServedExport | null; fields: HandleFields }
  /** Ours and its export is served, but not to this client: NFS3ERR_ACCES. */
  | { status: 'refused'; export: ServedExport; fields: HandleFields };

export interface HandleIndexOptions {
  /** The handle key (32 random bytes the area stores). */
  key: Buffer;
  exports: ExportTable;
  /** Most nodes a miss may visit (default 200,000). */
  walkNodeLimit?: number;
  /** Most milliseconds a miss may walk (default 2,000). */
  walkTimeLimitMs?: number;
  /** Most remembered paths before the index starts over (default 1,000,000; a miss only costs a walk). */
  maxEntries?: number;
  /** The nodes' attributes, kept briefly (default: a new AttributeCache). */
  attributes?: AttributeCache;
}

const DEFAULT_WALK_NODES = 200_000;
const DEFAULT_WALK_MS = 2_000;
const DEFAULT_MAX_ENTRIES = 1_000_000;

/** Keyed by the path tag too: a hard-linked file has one node id and several paths, each with its own handle. */
function keyOf(exportId: number, nodeId: bigint, pathTag: bigint): string {
  return `${exportId}:${nodeId}:${pathTag}`;
}

/** How long a handle whose walk found nothing answers STALE without walking again (a client retrying a dead handle must not make the server walk its tree each time). */
const NEGATIVE_TTL_MS = 30_000;
const MAX_NEGATIVE = 10_000;

export class HandleIndex {
  readonly codec: HandleCodec;
  /** Stats of export paths, shared with LOOKUP. */
  readonly attributes: AttributeCache;
  private readonly exports: ExportTable;
  private readonly paths = new Map<string, string>();
  private readonly walks = new Map<string, Promise<TreeNode | null>>();
  /** Handles a walk did not find, with when: STALE without another walk for NEGATIVE_TTL_MS. */
  private readonly notFound = new Map<string, number>();
  private readonly walkNodeLimit: number;
  private readonly walkTimeLimitMs: number;
  private readonly maxEntries: number;
  /** Misses that walked, and nodes visited: tests and logs look at these. */
  readonly stats = { walks: 0, walkedNodes: 0 };

  constructor(options: HandleIndexOptions) {
    this.codec = new HandleCodec(options.key);
    this.attributes = options.attributes ?? new AttributeCache();
    this.exports = options.exports;
    this.walkNodeLimit = options.walkNodeLimit ?? DEFAULT_WALK_NODES;
    this.walkTimeLimitMs = options.walkTimeLimitMs ?? DEFAULT_WALK_MS;
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  /** The handle of `node` in `served`, remembered for later resolution. */
  handleFor(served: ServedExport, node: TreeNode): Buffer {
    const handle = this.codec.encode(served.id, node.id, node.path);
    this.remember(served.id, node.id, node.path, handlePathTag(handle));
    return handle;
  }

  remember(exportId: number, nodeId: bigint, treePath: string, pathTag = pathTagOf(exportId, treePath)): void {
    if (this.paths.size >= this.maxEntries) this.paths.clear();
    const key = keyOf(exportId, nodeId, pathTag);
    this.paths.set(key, treePath);
    this.notFound.delete(key);
  }

  /** Drops what is remembered for an export (after it was removed or its source changed). */
  forgetExport(exportId: number): void {
    const prefix = `${exportId}:`;
    for (const key of this.paths.keys()) if (key.startsWith(prefix)) this.paths.delete(key);
    for (const key of this.notFound.keys()) if (key.startsWith(prefix)) this.notFound.delete(key);
  }

  /** The handle's export and node, checked against `client`'s address; `fresh`: stat now, not from the attribute cache. */
  async resolve(handle: Buffer, client: string, options: { fresh?: boolean } = {}): Promise<Resolution> {
    const fields = this.codec.verify(handle);
    if (!fields) return { status: 'badhandle' };
    const served = this.exports.byId(fields.exportId);
    if (!served) return { status: 'stale', export: null, fields };
    // Checked before any tree work: a refused client costs no stat and no walk.
    if (!served.allows(client)) return { status: 'refused', export: served, fields };
    const node = await this.locate(served, fields, options.fresh ?? false);
    if (!node) return { status: 'stale', export: served, fields };
    return { status: 'ok', export: served, node, fields };
  }

  private async locate(served: ServedExport, fields: HandleFields, fresh: boolean): Promise<TreeNode | null> {
    const key = keyOf(served.id, fields.nodeId, fields.pathTag);
    const known = this.paths.get(key);
    if (known !== undefined) {
      const node = await this.attributes.stat(served.id, served.tree, known, fresh).catch(() => null);
      if (node && node.id === fields.nodeId) return node;
      // Known path, another node there (replaced) or nothing: stale — a walk could only find it under another path, i.e. another tag.
      if (known !== '') return null;
    }
    // The export root always resolves by its tag (its id may change when the folder is recreated).
    if (fields.pathTag === pathTagOf(served.id, '')) {
      const root = await this.attributes.stat(served.id, served.tree, '', fresh).catch(() => null);
      if (!root) return null;
      this.remember(served.id, fields.nodeId, '', fields.pathTag);
      return root.id === fields.nodeId ? root : { ...root, id: fields.nodeId };
    }
    if (known !== undefined) return null;
    const failedAt = this.notFound.get(key);
    if (failedAt !== undefined && Date.now() - failedAt < NEGATIVE_TTL_MS) return null;
    let walk = this.walks.get(key);
    if (!walk) {
      walk = this.walk(served, fields).then((node) => {
        if (!node) {
          if (this.notFound.size >= MAX_NEGATIVE) this.notFound.clear();
          this.notFound.set(key, Date.now());
        }
        return node;
      });
      const shared = walk.finally(() => this.walks.delete(key));
      this.walks.set(key, shared);
      walk = shared;
    }
    return walk;
  }

  /** Breadth-first search of the export for the node with this id and path tag, within the limits. */
  private async walk(served: ServedExport, fields: HandleFields): Promise<TreeNode | null> {
    this.stats.walks += 1;
    const deadline = Date.now() + this.walkTimeLimitMs;
    const queue: string[] = [''];
    let visited = 0;
    for (let head = 0; head < queue.length; head += 1) {
      const dir = queue[head] ?? '';
      if (Date.now() > deadline) return null;
      let children: TreeNode[];
      try {
        children = await served.tree.list(dir);
      } catch {
        continue; // an unreadable directory is skipped, not fatal to the walk
      }
      for (const child of children) {
        visited += 1;
        this.stats.walkedNodes += 1;
        if (visited > this.walkNodeLimit) return null;
        if (child.id === fields.nodeId && pathTagOf(served.id, child.path) === fields.pathTag) {
          this.remember(served.id, child.id, child.path, fields.pathTag);
          return child;
        }
        if (child.type === 'directory') queue.push(child.path);
      }
      // Free the consumed part of the queue now and then, so a wide tree does not keep every path alive.
      if (head > 4096) {
        queue.splice(0, head + 1);
        head = -1;
      }
    }
    return null;
  }
}
