import { writeFile } from 'node:fs/promises';
import { TreeError, type ByteExtent, type ReadOnlyTree, type TreeNode } from '../../../../src-main/core/read-only-tree.js';

/**
 * An "ISO-like" file for mount tests: several files' bytes packed into one
 * backing file at known, 2048-aligned offsets (a split file's two halves in
 * reverse order, like non-contiguous extents), with a ReadOnlyTree over it
 * that answers stat/list/read/extents from a map. Test-only: the real reader
 * is os-images/iso.
 */
export type PackedEntry = Buffer | { split: Buffer } | { symlink: string };

export interface PackedImage {
  tree: ReadOnlyTree & { closed: boolean };
  file: string;
  /** Where each file's bytes are in `file`. */
  extents: Map<string, ByteExtent[]>;
}

const BLOCK = 2048;
const MTIME = Date.UTC(2024, 0, 2, 3, 4, 5);

export async function packImage(file: string, entries: Record<string, PackedEntry>): Promise<PackedImage> {
  const parts: Buffer[] = [Buffer.alloc(BLOCK * 2, 0xee)];
  let at = BLOCK * 2;
  const place = (bytes: Buffer): ByteExtent => {
    const extent = { file, offset: at, length: bytes.length };
    const padded = Math.ceil(bytes.length / BLOCK) * BLOCK || BLOCK;
    parts.push(bytes, Buffer.alloc(padded - bytes.length, 0xaa));
    at += padded;
    return extent;
  };
  const nodes = new Map<string, TreeNode>();
  const extents = new Map<string, ByteExtent[]>();
  let nextId = 1n;
  const node = (path: string, type: TreeNode['type'], size: number, target?: string): TreeNode => ({
    name: path.split('/').pop() ?? '',
    path,
    type,
    size,
    mtimeMs: MTIME,
    mode: type === 'directory' ? 0o555 : 0o444,
    id: nextId++,
    ...(target !== undefined ? { target } : {}),
  });
  nodes.set('', node('', 'directory', 0));
  for (const [path, entry] of Object.entries(entries)) {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const dir = segments.slice(0, i).join('/');
      if (!nodes.has(dir)) nodes.set(dir, node(dir, 'directory', 0));
    }
    if (Buffer.isBuffer(entry)) {
      extents.set(path, [place(entry)]);
      nodes.set(path, node(path, 'file', entry.length));
    } else if ('split' in entry) {
      const half = Math.floor(entry.split.length / 2);
      // The second half first in the file: extents in file order differ from the file's own order.
      const second = place(entry.split.subarray(half));
      const first = place(entry.split.subarray(0, half));
      extents.set(path, [first, second]);
      nodes.set(path, node(path, 'file', entry.split.length));
    } else {
      nodes.set(path, node(path, 'symlink', 0, entry.symlink));
    }
  }
  await writeFile(file, Buffer.concat(parts));

  const tree = {
    kind: 'packed-test',
    closed: false,
    async stat(path: string) {
      return nodes.get(path) ?? null;
    },
    async list(path: string) {
      const dir = nodes.get(path);
      if (!dir) throw new TreeError('NOT_FOUND', path, `${path}: not found`);
      if (dir.type !== 'directory') throw new TreeError('NOT_DIRECTORY', path, `${path}: not a directory`);
      const prefix = path === '' ? '' : `${path}/`;
      return [...nodes.values()].filter((n) => n.path !== '' && n.path.startsWith(prefix) && !n.path.slice(prefix.length).includes('/'));
    },
    async read(path: string, offset: number, length: number) {
      throw new TreeError('UNSUPPORTED', path, `read(${offset}, ${length}) is not used by mounts`);
    },
    async extents(path: string) {
      if (tree.closed) throw new Error('tree closed');
      const found = extents.get(path);
      if (!found) throw new TreeError('NOT_FOUND', path, `${path}: not a file`);
      return found;
    },
    async close() {
      tree.closed = true;
    },
  };
  return { tree, file, extents };
}
