import { open, stat, type FileHandle } from 'node:fs/promises';
import { TreeError, type ByteExtent, type ReadOnlyTree, type TreeNode } from '../../core/read-only-tree.js';

/*
 * READ's fast path. A client reads a 1 GB file as a thousand 1 MiB calls;
 * resolving the handle (a stat, for a folder a realpath), asking the tree
 * for extents and opening the backing file on every call would cost more
 * than the read. So the file's node and extents are kept per (tree, node id)
 * for a short while, and the backing files (the ISO, or the file itself)
 * stay open in a small LRU of descriptors, closed when idle for a few
 * seconds, when the export changes (`forgetTree`) and on `close`.
 *
 * A cached file is re-checked (the caller resolves its handle again) once
 * `revalidateMs` has passed, so a file removed or replaced goes stale
 * within that time even in the middle of a long read.
 */

export interface ReadCacheOptions {
  /** Open backing files kept (default 16). */
  maxDescriptors?: number;
  /** Cached files (node + extents) kept (default 64). */
  maxFiles?: number;
  /** Close descriptors and forget files unused this long (default 5,000 ms). */
  idleMs?: number;
  /** How long a cached file is trusted before its handle is resolved again (default 2,000 ms). */
  revalidateMs?: number;
}

export interface CachedFile {
  readonly tree: ReadOnlyTree;
  readonly exportId: number;
  readonly node: TreeNode;
  readonly pathTag: bigint;
  /** null: the tree has no backing file (reads go through tree.read). */
  readonly extents: ByteExtent[] | null;
  checkedAt: number;
  usedAt: number;
}

/** A READ's bytes as stretches of open files (sendfile); the descriptors are held until `release`. */
export interface BorrowedStretches {
  pieces: Array<{ fd: number; offset: number; length: number }>;
  length: number;
  release(): void;
}

interface Descriptor {
  handle: Promise<FileHandle>;
  /** "dev:ino" of what was opened (null when unknown): a folder's file replaced under its name is another file. */
  identity: Promise<string | null>;
  users: number;
  usedAt: number;
  /** Out of the map (replaced or evicted while in use): closed when its last read ends. */
  retired: boolean;
}

function identityOf(info: { dev: number; ino: number }): string {
  return `${info.dev}:${info.ino}`;
}

export class ReadCache {
  private readonly files = new Map<string, CachedFile>();
  private readonly descriptors = new Map<string, Descriptor>();
  private readonly maxDescriptors: number;
  private readonly maxFiles: number;
  private readonly idleMs: number;
  readonly revalidateMs: number;
  private sweeper: NodeJS.Timeout | null = null;
  /** Backing files opened (tests check descriptors are reused), and READs answered as file stretches (sendfile). */
  readonly stats = { opens: 0, closes: 0, borrows: 0 };

  constructor(options: ReadCacheOptions = {}) {
    this.maxDescriptors = options.maxDescriptors ?? 16;
    this.maxFiles = options.maxFiles ?? 64;
    this.idleMs = options.idleMs ?? 5_000;
    this.revalidateMs = options.revalidateMs ?? 2_000;
  }

  private static key(exportId: number, nodeId: bigint): string {
    return `${exportId}:${nodeId}`;
  }

  /** A file cached for this export's current tree and checked recently enough; null otherwise. */
  get(exportId: number, nodeId: bigint, pathTag: bigint, tree: ReadOnlyTree, now = Date.now()): CachedFile | null {
    const cached = this.files.get(ReadCache.key(exportId, nodeId));
    if (!cached || cached.tree !== tree || cached.pathTag !== pathTag) return null;
    if (now - cached.checkedAt > this.revalidateMs) return null;
    cached.usedAt = now;
    return cached;
  }

  /** Caches a just-resolved file (asks the tree for its extents once). */
  async put(exportId: number, pathTag: bigint, tree: ReadOnlyTree, node: TreeNode): Promise<CachedFile> {
    const key = ReadCache.key(exportId, node.id);
    const existing = this.files.get(key);
    const now = Date.now();
    if (existing && existing.tree === tree && existing.node.path === node.path && existing.node.size === node.size && existing.node.mtimeMs === node.mtimeMs) {
      existing.checkedAt = now;
      existing.usedAt = now;
      return existing;
    }
    let extents: ByteExtent[] | null;
    try {
      extents = await tree.extents(node.path);
    } catch (error) {
      if (!(error instanceof TreeError) || error.code !== 'UNSUPPORTED') throw error;
      extents = null;
    }
    // A descriptor still open on a backing file's old inode (a folder's file replaced under its name) must not serve the new node.
    for (const file of new Set((extents ?? []).map((extent) => extent.file))) await this.retireIfReplaced(file);
    const cached: CachedFile = { tree, exportId, node, pathTag, extents, checkedAt: now, usedAt: now };
    this.files.delete(key);
    this.files.set(key, cached);
    while (this.files.size > this.maxFiles) {
      const oldest = this.files.keys().next().value;
      if (oldest === undefined) break;
      this.files.delete(oldest);
    }
    this.startSweeper();
    return cached;
  }

  /** Up to `length` bytes from `offset` (fewer at the end of the file), in one fresh buffer. */
  async read(file: CachedFile, offset: number, length: number): Promise<Buffer> {
    const size = file.node.size;
    const end = Math.min(size, offset + length);
    if (end <= offset) return Buffer.alloc(0);
    if (file.extents === null) return file.tree.read(file.node.path, offset, end - offset);
    const out = Buffer.allocUnsafe(end - offset);
    let filled = 0;
    let extentStart = 0;
    for (const extent of file.extents) {
      const extentEnd = extentStart + extent.length;
      if (extentEnd > offset + filled && extentStart < end) {
        const from = offset + filled - extentStart;
        const want = Math.min(extent.length - from, end - (offset + filled));
        const got = await this.readExtent(extent.file, out, filled, want, extent.offset + from);
        filled += got;
        if (got < want) break; // the backing file shrank under us: answer what is there
      }
      extentStart = extentEnd;
      if (offset + filled >= end) break;
    }
    return filled === out.length ? out : out.subarray(0, filled);
  }

  /**
   * Up to `length` bytes from `offset` (fewer at the end of the file) as
   * stretches of open backing files, for sendfile: the descriptors stay open
   * until `release()` (call it exactly once). Null when the tree has no
   * backing file (its reads go through `read`).
   */
  async borrow(file: CachedFile, offset: number, length: number): Promise<BorrowedStretches | null> {
    if (file.extents === null) return null;
    const end = Math.min(file.node.size, offset + length);
    const stretches: { file: string; offset: number; length: number }[] = [];
    let extentStart = 0;
    for (const extent of file.extents) {
      const extentEnd = extentStart + extent.length;
      const from = Math.max(offset, extentStart);
      const to = Math.min(end, extentEnd);
      if (to > from) stretches.push({ file: extent.file, offset: extent.offset + (from - extentStart), length: to - from });
      extentStart = extentEnd;
      if (extentStart >= end) break;
    }
    this.stats.borrows += 1;
    const held: Descriptor[] = [];
    const release = () => {
      for (const descriptor of held.splice(0)) this.releaseDescriptor(descriptor);
    };
    try {
      const pieces: BorrowedStretches['pieces'] = [];
      for (const stretch of stretches) {
        const descriptor = this.descriptor(stretch.file);
        descriptor.users += 1;
        held.push(descriptor);
        pieces.push({ fd: (await descriptor.handle).fd, offset: stretch.offset, length: stretch.length });
      }
      return { pieces, length: pieces.reduce((sum, piece) => sum + piece.length, 0), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  private releaseDescriptor(descriptor: Descriptor): void {
    descriptor.users -= 1;
    descriptor.usedAt = Date.now();
    if (descriptor.retired && descriptor.users === 0) void descriptor.handle.then((handle) => handle.close()).catch(() => undefined);
  }

  private async retireIfReplaced(file: string): Promise<void> {
    const descriptor = this.descriptors.get(file);
    if (!descriptor) return;
    const [opened, current] = await Promise.all([descriptor.identity, stat(file).then(identityOf, () => null)]);
    if (opened !== null && opened === current) return;
    if (this.descriptors.get(file) === descriptor) this.closeDescriptor(file, descriptor);
  }

  private async readExtent(file: string, into: Buffer, at: number, length: number, position: number): Promise<number> {
    const descriptor = this.descriptor(file);
    descriptor.users += 1;
    try {
      const handle = await descriptor.handle;
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(into, at + done, length - done, position + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done;
    } finally {
      this.releaseDescriptor(descriptor);
    }
  }

  private descriptor(file: string): Descriptor {
    const existing = this.descriptors.get(file);
    if (existing) {
      // Re-insert: the map's order is the LRU order.
      this.descriptors.delete(file);
      this.descriptors.set(file, existing);
      return existing;
    }
    this.stats.opens += 1;
    const handle = open(file, 'r');
    const identity = handle.then((opened) => opened.stat()).then(identityOf, () => null);
    const descriptor: Descriptor = { handle, identity, users: 0, usedAt: Date.now(), retired: false };
    // A failed open is not kept: the next read tries again (and reports the error itself).
    handle.catch(() => {
      if (this.descriptors.get(file) === descriptor) this.descriptors.delete(file);
    });
    this.descriptors.set(file, descriptor);
    this.evict(false);
    this.startSweeper();
    return descriptor;
  }

  /** Takes a descriptor out of the map; closes it now, or when its last read ends. */
  private closeDescriptor(file: string, descriptor: Descriptor): void {
    this.descriptors.delete(file);
    this.stats.closes += 1;
    descriptor.retired = true;
    if (descriptor.users === 0) void descriptor.handle.then((handle) => handle.close()).catch(() => undefined);
  }

  /** Closes descriptors over the limit (LRU first) and, when `idleToo`, those idle too long; never one in use. */
  private evict(idleToo: boolean): void {
    const now = Date.now();
    let over = this.descriptors.size - this.maxDescriptors;
    for (const [file, descriptor] of this.descriptors) {
      if (descriptor.users > 0) continue;
      if (over > 0) {
        this.closeDescriptor(file, descriptor);
        over -= 1;
      } else if (idleToo && now - descriptor.usedAt > this.idleMs) {
        this.closeDescriptor(file, descriptor);
      }
    }
  }

  private sweep(): void {
    const now = Date.now();
    this.evict(true);
    for (const [key, file] of this.files) if (now - file.usedAt > this.idleMs) this.files.delete(key);
    if (this.files.size === 0 && this.descriptors.size === 0) this.stopSweeper();
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), Math.max(250, Math.min(1_000, this.idleMs)));
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /** Forgets an export's cached files and closes idle descriptors (call when the export table changes). */
  forgetExport(exportId: number): void {
    for (const [key, file] of this.files) if (file.exportId === exportId) this.files.delete(key);
    this.dropUnreferencedDescriptors();
  }

  /** Forgets everything cached and closes idle descriptors (the export table was swapped). */
  clear(): void {
    this.files.clear();
    this.dropUnreferencedDescriptors();
  }

  private dropUnreferencedDescriptors(): void {
    const wanted = new Set<string>();
    for (const file of this.files.values()) for (const extent of file.extents ?? []) wanted.add(extent.file);
    for (const [file, descriptor] of this.descriptors) if (!wanted.has(file) && descriptor.users === 0) this.closeDescriptor(file, descriptor);
  }

  /** Closes every descriptor (the service stops); waits for them. */
  async close(): Promise<void> {
    this.stopSweeper();
    this.files.clear();
    const handles = [...this.descriptors.values()].map((descriptor) => descriptor.handle);
    this.stats.closes += this.descriptors.size;
    this.descriptors.clear();
    await Promise.all(handles.map((handle) => handle.then((opened) => opened.close()).catch(() => undefined)));
  }

  /** Open descriptors now (tests). */
  get openDescriptors(): number {
    return this.descriptors.size;
  }
}
