import { lstat, open, readdir, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TreeError, type ByteExtent, type ReadOnlyTree, type TreeNode } from '../../src-main/core/read-only-tree.js';

/*
 * A ReadOnlyTree over a map of files, for tests of everything that reads
 * through the tree interface (detection, extraction, mounts). Keys are
 * tree paths ('isolinux/isolinux.cfg'); parent directories appear by
 * themselves; a value is the file's content, `{ symlink: target }` or
 * `{ dir: true }` for an empty directory. Listing keeps insertion order.
 *
 * Without a backing file, `extents()` throws TreeError UNSUPPORTED (the
 * bytes live in memory only). `memoryTreeOnDisk` writes every file's bytes
 * into one backing file, 2048-byte aligned like an ISO's sectors and split
 * into extents of `extentSize` bytes when asked (multi-extent files), so
 * code that streams from extents reads real byte ranges of a real file.
 *
 * `calls` records every list and read, so tests can check how much a
 * reader looked at.
 */

export type MemoryEntry = string | Buffer | { symlink: string } | { dir: true };

export interface MemoryTreeOptions {
  kind?: string;
  mtimeMs?: number;
}

export interface MemoryTree extends ReadOnlyTree {
  readonly calls: { lists: string[]; reads: { path: string; offset: number; length: number }[] };
  readonly closed: boolean;
}

interface Node {
  node: TreeNode;
  data: Buffer | null;
  children: string[];
  extents: ByteExtent[] | null;
}

const SECTOR = 2048;

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function buildNodes(entries: Record<string, MemoryEntry>, options: MemoryTreeOptions): Map<string, Node> {
  const mtimeMs = options.mtimeMs ?? Date.UTC(2024, 5, 1);
  const nodes = new Map<string, Node>();
  let nextId = 1n;
  const add = (path: string, type: TreeNode['type'], data: Buffer | null, target?: string): Node => {
    const existing = nodes.get(path);
    if (existing) return existing;
    if (path !== '') ensureDir(parentOf(path));
    const node: Node = {
      node: {
        name: path === '' ? '' : (path.split('/').pop() ?? ''),
        path,
        type,
        size: data?.length ?? 0,
        mtimeMs,
        mode: type === 'directory' ? 0o555 : type === 'symlink' ? 0o777 : 0o444,
        id: nextId++,
        ...(target === undefined ? {} : { target }),
      },
      data,
      children: [],
      extents: null,
    };
    nodes.set(path, node);
    if (path !== '') nodes.get(parentOf(path))?.children.push(path);
    return node;
  };
  const ensureDir = (path: string): void => {
    const existing = nodes.get(path);
    if (existing) {
      if (existing.node.type !== 'directory') throw new Error(`memory tree: ${path} is both a file and a directory`);
      return;
    }
    add(path, 'directory', null);
  };
  ensureDir('');
  for (const [rawPath, value] of Object.entries(entries)) {
    const path = rawPath.replace(/^\/+|\/+$/g, '');
    if (typeof value === 'string') add(path, 'file', Buffer.from(value, 'utf8'));
    else if (Buffer.isBuffer(value)) add(path, 'file', value);
    else if ('symlink' in value) add(path, 'symlink', null, value.symlink);
    else ensureDir(path);
  }
  return nodes;
}

class MapTree implements MemoryTree {
  readonly kind: string;
  readonly calls = { lists: [] as string[], reads: [] as { path: string; offset: number; length: number }[] };
  closed = false;
  private readonly nodes: Map<string, Node>;

  constructor(nodes: Map<string, Node>, kind: string) {
    this.nodes = nodes;
    this.kind = kind;
  }

  private open(): void {
    if (this.closed) throw new Error('memory tree: used after close');
  }

  async stat(path: string): Promise<TreeNode | null> {
    this.open();
    return this.nodes.get(path)?.node ?? null;
  }

  async list(path: string): Promise<TreeNode[]> {
    this.open();
    this.calls.lists.push(path);
    const entry = this.nodes.get(path);
    if (!entry) throw new TreeError('NOT_FOUND', path, `${path}: not found`);
    if (entry.node.type !== 'directory') throw new TreeError('NOT_DIRECTORY', path, `${path}: not a directory`);
    return entry.children.map((child) => this.nodes.get(child)?.node).filter((node): node is TreeNode => node !== undefined);
  }

  async read(path: string, offset: number, length: number): Promise<Buffer> {
    this.open();
    const entry = this.nodes.get(path);
    if (!entry) throw new TreeError('NOT_FOUND', path, `${path}: not found`);
    if (entry.node.type === 'directory') throw new TreeError('IS_DIRECTORY', path, `${path}: is a directory`);
    this.calls.reads.push({ path, offset, length });
    const data = entry.data ?? Buffer.alloc(0);
    return Buffer.from(data.subarray(Math.min(offset, data.length), Math.min(offset + length, data.length)));
  }

  async extents(path: string): Promise<ByteExtent[]> {
    this.open();
    const entry = this.nodes.get(path);
    if (!entry) throw new TreeError('NOT_FOUND', path, `${path}: not found`);
    if (entry.node.type === 'directory') throw new TreeError('IS_DIRECTORY', path, `${path}: is a directory`);
    if (entry.extents === null) throw new TreeError('UNSUPPORTED', path, `${path}: a memory tree has no backing file`);
    return entry.extents.map((extent) => ({ ...extent }));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

export function memoryTree(entries: Record<string, MemoryEntry>, options: MemoryTreeOptions = {}): MemoryTree {
  return new MapTree(buildNodes(entries, options), options.kind ?? 'memory');
}

/**
 * A memory tree whose files also sit in `backingFile` (written here), one
 * after another on 2048-byte boundaries with filler between them, each in
 * extents of at most `extentSize` bytes. Reads still come from memory; the
 * extents name real byte ranges of the backing file.
 */
export async function memoryTreeOnDisk(entries: Record<string, MemoryEntry>, backingFile: string, options: MemoryTreeOptions & { extentSize?: number } = {}): Promise<MemoryTree> {
  const nodes = buildNodes(entries, options);
  const extentSize = options.extentSize ?? Number.MAX_SAFE_INTEGER;
  const chunks: Buffer[] = [Buffer.alloc(SECTOR, 0xee)]; // filler first, so no file starts at offset 0
  let offset = SECTOR;
  for (const entry of nodes.values()) {
    if (entry.node.type !== 'file' || !entry.data) continue;
    const extents: ByteExtent[] = [];
    for (let start = 0; start < entry.data.length; start += extentSize) {
      const piece = entry.data.subarray(start, Math.min(start + extentSize, entry.data.length));
      extents.push({ file: backingFile, offset, length: piece.length });
      const padded = Math.ceil(piece.length / SECTOR) * SECTOR + SECTOR; // a filler sector between extents
      const chunk = Buffer.alloc(padded, 0xee);
      piece.copy(chunk);
      chunks.push(chunk);
      offset += padded;
    }
    entry.extents = extents;
  }
  for (const entry of nodes.values()) if (entry.node.type === 'file' && entry.extents === null) entry.extents = [];
  await writeFile(backingFile, Buffer.concat(chunks));
  return new MapTree(nodes, options.kind ?? 'memory');
}

/**
 * A minimal ReadOnlyTree over a real folder, whose extents are the files
 * themselves (one extent per file), for tests that stream real files.
 * Test-only: the confined, production folder tree is core/folder-tree.ts.
 */
export function folderBackedTree(root: string): ReadOnlyTree {
  const full = (treePath: string): string => (treePath === '' ? root : join(root, ...treePath.split('/')));
  const nodeOf = async (treePath: string): Promise<TreeNode | null> => {
    let info;
    try {
      info = await lstat(full(treePath));
    } catch {
      return null;
    }
    const type: TreeNode['type'] = info.isDirectory() ? 'directory' : info.isSymbolicLink() ? 'symlink' : 'file';
    return {
      name: treePath === '' ? '' : (treePath.split('/').pop() ?? ''),
      path: treePath,
      type,
      size: type === 'file' ? info.size : 0,
      mtimeMs: info.mtimeMs,
      mode: info.mode & 0o777,
      id: BigInt(info.ino),
      ...(type === 'symlink' ? { target: await readlink(full(treePath)) } : {}),
    };
  };
  return {
    kind: 'folder',
    stat: nodeOf,
    async list(treePath) {
      const node = await nodeOf(treePath);
      if (!node) throw new TreeError('NOT_FOUND', treePath, `${treePath}: not found`);
      if (node.type !== 'directory') throw new TreeError('NOT_DIRECTORY', treePath, `${treePath}: not a directory`);
      const names = (await readdir(full(treePath))).sort();
      const nodes = await Promise.all(names.map((name) => nodeOf(treePath === '' ? name : `${treePath}/${name}`)));
      return nodes.filter((node): node is TreeNode => node !== null);
    },
    async read(treePath, offset, length) {
      const handle = await open(full(treePath), 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async extents(treePath) {
      const node = await nodeOf(treePath);
      if (!node || node.type !== 'file') throw new TreeError('NOT_FOUND', treePath, `${treePath}: not a file`);
      return node.size === 0 ? [] : [{ file: full(treePath), offset: 0, length: node.size }];
    },
    async close() {},
  };
}
