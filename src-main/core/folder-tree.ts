import { constants, lstat as lstatCallback, lstatSync, realpathSync, type BigIntStats } from 'node:fs';
import { lstat, open, readdir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { normaliseTreePath, TreeError, type ByteExtent, type ReadOnlyTree, type TreeNode, type TreeNodeType } from './read-only-tree.js';

/**
 * A folder on this machine as a ReadOnlyTree, confined to its root: what
 * serves an extracted image, and (issue 15) what NFS exports. Confinement
 * rules, all judged on real paths:
 *
 * - a path is normalised by `normaliseTreePath` ('..', backslashes, NUL and
 *   control characters are refused as OUTSIDE);
 * - its parent directory is resolved with realpath (symlinked directories
 *   inside the root are followed by the operating system) and must still lie
 *   inside the root's real path, else OUTSIDE: `etc -> /etc` makes
 *   `etc/passwd` unreachable;
 * - the final component is never followed: a symlink is reported as a
 *   symlink (with its target as recorded), and callers follow it with
 *   `resolveTreePath`, which keeps it inside the tree;
 * - device files, sockets and FIFOs are not part of the tree: stat, read and
 *   extents refuse them (UNSUPPORTED) and list leaves them out, so nothing
 *   ever opens /dev/sda or blocks on a FIFO;
 * - a file is opened with O_NOFOLLOW | O_NONBLOCK and checked on the open
 *   descriptor (a regular file, and on Linux its real location through
 *   /proc/self/fd still inside the root), so a symlink swapped in after the
 *   path check is not followed.
 *
 * Node ids are inode numbers (stable across reopening the same folder).
 */

/** O_NOFOLLOW and O_NONBLOCK where the platform has them (Windows has neither; it has no FIFOs either). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** How long a listing lstats on the main thread before it yields to other work. */
const LIST_SYNC_SLICE_MS = 2;
/** A metadata call slower than this is slow (SLOW_CALLS_IN_A_ROW of them: the metadata is not cached). */
const SLOW_LSTAT_MS = 1;
/** After slow metadata calls on this thread, how long every call goes through the pool before this thread tries again. */
const SYNC_PAUSE_MS = 5_000;
/** Slow metadata calls in a row that mean the metadata is not cached (one alone can be a garbage collection). */
const SLOW_CALLS_IN_A_ROW = 2;
/** How many entries of a listing are lstat-ed at once through the pool (it has 4 threads; more in flight only queues). */
const LIST_STAT_BATCH = 64;

/** lstat through libuv's pool (the callback API: half the main-thread cost of fs/promises'), null on any error. */
function lstatOrNull(file: string): Promise<BigIntStats | null> {
  return new Promise((resolve) => {
    lstatCallback(file, { bigint: true }, (error, info) => resolve(error ? null : info));
  });
}

/** lstat on this thread, null on any error (an entry gone since the readdir, no permission). */
function lstatSyncOrNull(file: string): BigIntStats | null {
  try {
    return lstatSync(file, { bigint: true, throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** Whether `candidate` is `root` or below it (both real, absolute). */
function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

function typeOf(info: BigIntStats): TreeNodeType | null {
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'directory';
  if (info.isSymbolicLink()) return 'symlink';
  return null;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

export class FolderTree implements ReadOnlyTree {
  readonly kind = 'folder';
  private closed = false;
  /**
   * Until when metadata calls (lstat, realpath) go through libuv's pool. While
   * the metadata is cached they run on this thread: a few µs each, where a trip
   * through the pool costs the caller more than that and adds its latency to
   * every NFS call (each one checks its handle's node with a realpath and an
   * lstat). SLOW_CALLS_IN_A_ROW calls each taking slowLstatMs or more (a cold
   * disk, a network file system) send them all through the pool for
   * SYNC_PAUSE_MS, so the event loop never waits on a disk for long. One slow
   * call alone does not: a garbage collection or the first call's compilation
   * lands inside a timed call now and then.
   */
  private syncPausedUntil = 0;
  private slowCalls = 0;

  private constructor(
    /** The root's real path: every path is resolved under it. */
    readonly root: string,
    private readonly slowLstatMs: number,
  ) {}

  /**
   * Opens `root` (an existing directory; symlinks in its own path are resolved
   * once, here). `slowLstatMs`: tests set 0 to take a listing's pool path.
   */
  static async open(root: string, options: { slowLstatMs?: number } = {}): Promise<FolderTree> {
    let real: string;
    try {
      real = await realpath(root);
    } catch (error) {
      throw new TreeError('NOT_FOUND', '', `folder ${root} cannot be opened: ${errnoOf(error) ?? String(error)}`);
    }
    const info = await stat(real);
    if (!info.isDirectory()) throw new TreeError('NOT_DIRECTORY', '', `${root} is not a directory`);
    return new FolderTree(real, options.slowLstatMs ?? SLOW_LSTAT_MS);
  }

  /** Whether metadata calls go through libuv's pool now (after slow ones); false while they run on this thread. */
  get metadataOnPool(): boolean {
    return !this.syncAllowed();
  }

  /** Whether metadata calls may run on this thread now. */
  private syncAllowed(): boolean {
    return this.syncPausedUntil === 0 || performance.now() >= this.syncPausedUntil;
  }

  /** `call` on this thread, timed: a slow one pauses this thread's metadata calls (errors are the call's own). */
  private timedSync<T>(call: () => T): T {
    const started = performance.now();
    try {
      return call();
    } finally {
      const now = performance.now();
      if (now - started < this.slowLstatMs) this.slowCalls = 0;
      else if (++this.slowCalls >= SLOW_CALLS_IN_A_ROW) {
        this.syncPausedUntil = now + SYNC_PAUSE_MS;
        this.slowCalls = 0;
      }
    }
  }

  /** A metadata call on this thread while that is fast, else through the pool; either way it rejects as the pool's would. */
  private metadata<T>(onThread: () => T, onPool: () => Promise<T>): Promise<T> {
    if (!this.syncAllowed()) return onPool();
    try {
      return Promise.resolve(this.timedSync(onThread));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private lstatBig(absolute: string): Promise<BigIntStats> {
    return this.metadata(
      () => lstatSync(absolute, { bigint: true }),
      () => lstat(absolute, { bigint: true }),
    );
  }

  /** libc's realpath either way (fs/promises' realpath is too). */
  private realpathOf(absolute: string): Promise<string> {
    return this.metadata(
      () => realpathSync.native(absolute),
      () => realpath(absolute),
    );
  }

  async stat(treePath: string): Promise<TreeNode | null> {
    const located = await this.locate(treePath);
    if (!located) return null;
    const info = await this.lstatBig(located.absolute).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return null;
      throw this.fsError(located.path, error);
    });
    if (!info) return null;
    return this.node(located.path, located.absolute, info);
  }

  async list(treePath: string): Promise<TreeNode[]> {
    const located = await this.locate(treePath);
    if (!located) throw new TreeError('NOT_FOUND', treePath, `${treePath || '/'}: no such directory`);
    const info = await this.lstatBig(located.absolute).catch(() => null);
    if (!info) throw new TreeError('NOT_FOUND', located.path, `${located.path || '/'}: no such directory`);
    if (!info.isDirectory()) throw new TreeError('NOT_DIRECTORY', located.path, `${located.path}: not a directory`);
    // One readdir (one trip through libuv's pool), then lstat on this thread while the inodes are
    // cached: a few µs each, where dispatching each through the pool cost the main thread several
    // times that (docs/performance.md, NFS walk). Other work (DHCP, TFTP) gets its turn every
    // LIST_SYNC_SLICE_MS; once one lstat is slow (a cold disk, a network file system), the rest go
    // through the pool so the event loop never waits on a disk.
    const names = await readdir(located.absolute).catch((error: unknown) => {
      throw this.fsError(located.path, error);
    });
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const nodes: TreeNode[] = [];
    const add = async (name: string, child: BigIntStats | null, childAbsolute: string) => {
      // Judged on lstat, not the directory entry's type (some file systems report none): special files and entries gone since are left out.
      if (child && typeOf(child) !== null) nodes.push(await this.node(located.path === '' ? name : `${located.path}/${name}`, childAbsolute, child));
    };
    let next = 0;
    let sliceEnds = performance.now() + LIST_SYNC_SLICE_MS;
    while (next < names.length && this.syncAllowed()) {
      const name = names[next] ?? '';
      const childAbsolute = path.join(located.absolute, name);
      const child = this.timedSync(() => lstatSyncOrNull(childAbsolute));
      const now = performance.now();
      next += 1;
      await add(name, child, childAbsolute);
      if (now > sliceEnds) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceEnds = performance.now() + LIST_SYNC_SLICE_MS;
      }
    }
    for (let start = next; start < names.length; start += LIST_STAT_BATCH) {
      const batch = names.slice(start, start + LIST_STAT_BATCH);
      const found = await Promise.all(batch.map((name) => lstatOrNull(path.join(located.absolute, name))));
      for (const [index, name] of batch.entries()) await add(name, found[index] ?? null, path.join(located.absolute, name));
    }
    return nodes;
  }

  async read(treePath: string, offset: number, length: number): Promise<Buffer> {
    if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 0) {
      throw new RangeError(`read of ${treePath}: offset ${offset} and length ${length} must be non-negative integers`);
    }
    const { handle } = await this.openFile(treePath);
    try {
      const size = (await handle.stat()).size;
      const wanted = Math.max(0, Math.min(length, size - offset));
      const buffer = Buffer.alloc(wanted);
      let done = 0;
      while (done < wanted) {
        const { bytesRead } = await handle.read(buffer, done, wanted - done, offset + done);
        if (bytesRead === 0) break; // the file shrank meanwhile
        done += bytesRead;
      }
      return done === wanted ? buffer : buffer.subarray(0, done);
    } finally {
      await handle.close();
    }
  }

  async extents(treePath: string): Promise<ByteExtent[]> {
    const { handle, real: file } = await this.openFile(treePath);
    try {
      const size = (await handle.stat()).size;
      return size === 0 ? [] : [{ file, offset: 0, length: size }];
    } finally {
      await handle.close();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /**
   * The absolute location of a tree path with its parent resolved and
   * checked; null when a parent is missing. TreeError OUTSIDE for a path
   * that is refused or whose parent's real path leaves the root.
   */
  private async locate(treePath: string): Promise<{ path: string; absolute: string } | null> {
    if (this.closed) throw new Error(`folder tree ${this.root} is closed`);
    const normal = normaliseTreePath(treePath);
    if (normal === null) throw new TreeError('OUTSIDE', treePath, `${JSON.stringify(treePath)}: not a path inside the tree ('..', backslash or control character)`);
    if (normal === '') return { path: '', absolute: this.root };
    const slash = normal.lastIndexOf('/');
    const parent = slash < 0 ? '' : normal.slice(0, slash);
    const name = normal.slice(slash + 1);
    let realParent = this.root;
    if (parent !== '') {
      try {
        realParent = await this.realpathOf(path.join(this.root, parent));
      } catch (error) {
        const code = errnoOf(error);
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        if (code === 'ELOOP') throw new TreeError('LOOP', normal, `${normal}: too many symlinks in its parent directories`);
        throw this.fsError(normal, error);
      }
      if (!inside(this.root, realParent)) throw new TreeError('OUTSIDE', normal, `${normal}: its directory ${parent} leads outside the tree (to ${realParent})`);
    }
    return { path: normal, absolute: path.join(realParent, name) };
  }

  /** A regular file of the tree, opened without following a final symlink and checked on the descriptor. */
  private async openFile(treePath: string): Promise<{ handle: FileHandle; real: string }> {
    const located = await this.locate(treePath);
    if (!located) throw new TreeError('NOT_FOUND', treePath, `${treePath}: no such file`);
    const info = await lstat(located.absolute, { bigint: true }).catch(() => null);
    if (!info) throw new TreeError('NOT_FOUND', located.path, `${located.path}: no such file`);
    this.requireRegular(located.path, info);
    let handle: FileHandle;
    try {
      handle = await open(located.absolute, OPEN_FLAGS);
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOENT') throw new TreeError('NOT_FOUND', located.path, `${located.path}: no such file`);
      // O_NOFOLLOW on a symlink swapped in since the lstat.
      if (code === 'ELOOP') throw new TreeError('UNSUPPORTED', located.path, `${located.path}: became a symlink; not followed`);
      throw this.fsError(located.path, error);
    }
    try {
      this.requireRegular(located.path, await handle.stat({ bigint: true }));
      return { handle, real: await this.realPathOf(handle, located.path, located.absolute) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  private requireRegular(treePath: string, info: BigIntStats): void {
    if (info.isDirectory()) throw new TreeError('IS_DIRECTORY', treePath, `${treePath || '/'}: is a directory`);
    if (info.isSymbolicLink()) throw new TreeError('UNSUPPORTED', treePath, `${treePath}: is a symlink; resolve it first (resolveTreePath)`);
    if (!info.isFile()) throw new TreeError('UNSUPPORTED', treePath, `${treePath}: a device file, socket or FIFO is never read`);
  }

  /**
   * Where an open descriptor really is. On Linux /proc/self/fd names it
   * whatever happened to the path since it was checked; a location outside
   * the root (a parent swapped for a symlink meanwhile) is refused.
   */
  private async realPathOf(handle: FileHandle, treePath: string, checkedPath: string): Promise<string> {
    const real = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (real === null) return checkedPath;
    if (!inside(this.root, real)) throw new TreeError('OUTSIDE', treePath, `${treePath}: the opened file lies outside the tree (${real})`);
    return real;
  }

  private async node(treePath: string, absolute: string, info: BigIntStats): Promise<TreeNode> {
    const type = typeOf(info);
    if (type === null) throw new TreeError('UNSUPPORTED', treePath, `${treePath}: a device file, socket or FIFO is not part of the tree`);
    const slash = treePath.lastIndexOf('/');
    const node: TreeNode = {
      name: slash < 0 ? treePath : treePath.slice(slash + 1),
      path: treePath,
      type,
      size: type === 'file' ? Number(info.size) : 0,
      mtimeMs: Number(info.mtimeMs),
      mode: Number(info.mode) & 0o7777,
      id: info.ino,
    };
    if (type === 'symlink') node.target = await readlink(absolute).catch(() => '');
    return node;
  }

  private fsError(treePath: string, error: unknown): Error {
    return new Error(`folder tree ${this.root}: ${treePath || '/'}: ${errnoOf(error) ?? String(error)}`, { cause: error });
  }
}
