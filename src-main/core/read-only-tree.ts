/**
 * A read-only file tree: an ISO image read through our ISO 9660 reader
 * (os-images/iso), or a folder confined to its root (core/folder-tree.ts).
 * Everything that serves or inspects an image's content reads through this
 * one interface: HTTP/TFTP mounts under /boot/, extraction, OS detection and
 * (later) NFS exports. None of them needs to know whether the bytes sit in an
 * ISO or in a folder.
 *
 * Paths are relative to the tree's root, '/'-separated, without a leading
 * slash; '' is the root. A tree never resolves '..' or follows a symlink by
 * itself: callers normalise a request with `normaliseTreePath` and follow
 * symlinks with `resolveTreePath`, so a link cannot lead outside the tree.
 */

export type TreeNodeType = 'file' | 'directory' | 'symlink';

export interface TreeNode {
  /** The name inside its directory ('' for the root). */
  name: string;
  /** The path from the root ('' for the root). */
  path: string;
  type: TreeNodeType;
  /** Bytes of a file; 0 for directories and symlinks. */
  size: number;
  /** Last modification, milliseconds since the epoch (the recording time when the tree has none per file). */
  mtimeMs: number;
  /** POSIX permission bits (0o444 files / 0o555 directories when the tree records none, e.g. ISO 9660 without Rock Ridge). */
  mode: number;
  /**
   * A number that names this node for the tree's lifetime and across reopening
   * the same tree (an ISO: the byte position of the node's directory record or
   * its Rock Ridge inode number; a folder: the inode). File handles and ETags
   * are built from it, so it must not depend on memory addresses or order of reads.
   */
  id: bigint;
  /** A symlink's target as recorded (Rock Ridge SL, readlink); undefined for other types. */
  target?: string;
}

/**
 * Where a stretch of a file's bytes sits in a backing file on disk, so a
 * server can sendfile it without copying it through JavaScript.
 */
export interface ByteExtent {
  /** Absolute path of the backing file (the ISO file, or the file itself for a folder tree). */
  file: string;
  /** Byte offset in the backing file. */
  offset: number;
  length: number;
}

export type TreeErrorCode = 'NOT_FOUND' | 'NOT_DIRECTORY' | 'IS_DIRECTORY' | 'CORRUPT' | 'UNSUPPORTED' | 'OUTSIDE' | 'LOOP';

/** A tree's refusal: an error with a code a server maps to its own status (HTTP 404, NFS3ERR_NOENT…). */
export class TreeError extends Error {
  readonly code: TreeErrorCode;
  readonly treePath: string;

  constructor(code: TreeErrorCode, treePath: string, message: string) {
    super(message);
    this.name = 'TreeError';
    this.code = code;
    this.treePath = treePath;
  }
}

export interface ReadOnlyTree {
  /** What the tree reads ('iso9660', 'folder'), for logs and the API. */
  readonly kind: string;
  /** The node at `path` without following a final symlink; null when nothing is there. */
  stat(path: string): Promise<TreeNode | null>;
  /** A directory's entries (no '.' or '..'), in the tree's order. TreeError NOT_FOUND / NOT_DIRECTORY. */
  list(path: string): Promise<TreeNode[]>;
  /** Up to `length` bytes of a file from `offset` (fewer at the end). TreeError NOT_FOUND / IS_DIRECTORY. */
  read(path: string, offset: number, length: number): Promise<Buffer>;
  /** The file's bytes as extents of backing files, in order; their lengths add up to the file's size. */
  extents(path: string): Promise<ByteExtent[]>;
  /** Releases open descriptors; the tree is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * A request path as a tree path: strips leading and trailing slashes, turns
 * empty and '.' segments away, and refuses '..' segments, backslashes, NUL
 * and other control characters (null). Percent-decoding is the caller's job
 * and happens before this, so an encoded '..' is refused here too.
 */
export function normaliseTreePath(input: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(input)) return null;
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return null;
    segments.push(segment);
  }
  return segments.join('/');
}

/** Most symlinks followed while resolving one path (Linux's own limit is 40; trees here are shallow). */
export const MAX_SYMLINK_HOPS = 16;

/**
 * The node a path names, following symlinks inside the tree (relative and
 * absolute targets; an absolute target is taken from the tree's root, as a
 * chroot would). A target that climbs above the root is refused (OUTSIDE),
 * a cycle or a chain longer than MAX_SYMLINK_HOPS is refused (LOOP), and a
 * missing node is null.
 */
export async function resolveTreePath(tree: ReadOnlyTree, path: string): Promise<TreeNode | null> {
  let pending = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  const done: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === '..') {
      if (done.length === 0) throw new TreeError('OUTSIDE', path, `${path}: a symlink leads above the root`);
      done.pop();
      continue;
    }
    const candidate = [...done, segment].join('/');
    const node = await tree.stat(candidate);
    if (!node) return null;
    if (node.type !== 'symlink') {
      done.push(segment);
      continue;
    }
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) throw new TreeError('LOOP', path, `${path}: more than ${MAX_SYMLINK_HOPS} symlinks`);
    const target = node.target ?? '';
    const targetSegments = target.split('/').filter((part) => part !== '' && part !== '.');
    if (target.startsWith('/')) done.length = 0;
    pending = [...targetSegments, ...pending];
  }
  return tree.stat(done.join('/'));
}
