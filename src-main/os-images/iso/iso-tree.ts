import { normaliseTreePath, TreeError, type ByteExtent, type TreeNode } from '../../core/read-only-tree.js';
import type { OpenedImage } from '../image-ports.js';
import type { IsoInfo } from '../os-images-contract.js';
import { DirectoryCache, type ParsedDirectory } from './directory-cache.js';
import type { DirectoryExtent, IsoEntry } from './iso-directory.js';
import type { IsoSource } from './iso-source.js';
import { DIRECTORY_CACHE_ENTRIES, MAX_DEPTH, MAX_READ_BYTES } from './iso-limits.js';

interface Located {
  entry: IsoEntry;
  path: string;
  /** Directory extents on the way from the root (the entry's own excluded), for cycle detection. */
  ancestors: Set<number>;
}

/**
 * An ISO image as a ReadOnlyTree, over its ISO 9660 directories or its UDF
 * side (the DirectoryReader decides). Paths are looked up directory by
 * directory from the root (parsed directories cached); a name matches
 * exactly, else case-insensitively when only one entry matches (plain ISO
 * 9660 and Joliet names are case-insensitive on the systems that write
 * them). A directory whose extent is already on the path is a cycle (LOOP);
 * paths deeper than MAX_DEPTH are refused (LOOP).
 */
/** Reads one directory's entries (ISO 9660 records or UDF file identifiers). */
export type DirectoryReader = (directory: DirectoryExtent, dirPath: string) => Promise<IsoEntry[]>;

export class IsoTree implements OpenedImage {
  private readonly cache = new DirectoryCache(DIRECTORY_CACHE_ENTRIES);
  private closed = false;

  /** `kind`: 'iso9660', or 'udf' when the files are read from a UDF bridge's UDF side. */
  constructor(
    readonly info: IsoInfo,
    private readonly source: IsoSource,
    private readonly root: IsoEntry,
    private readonly readDirectory: DirectoryReader,
    readonly kind: 'iso9660' | 'udf' = 'iso9660',
  ) {}

  async stat(path: string): Promise<TreeNode | null> {
    const located = await this.locate(path);
    return located ? this.node(located) : null;
  }

  async list(path: string): Promise<TreeNode[]> {
    const located = await this.require(path);
    const directory = await this.directoryOf(located);
    return directory.entries.map((entry) => this.node({ entry, path: located.path ? `${located.path}/${entry.name}` : entry.name, ancestors: located.ancestors }));
  }

  async read(path: string, offset: number, length: number): Promise<Buffer> {
    const { entry, path: treePath } = await this.requireFile(path);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw new TreeError('OUTSIDE', treePath, `${treePath}: offset and length must be non-negative integers`);
    }
    const wanted = Math.max(0, Math.min(length, entry.size - offset));
    if (wanted > MAX_READ_BYTES) throw new TreeError('UNSUPPORTED', treePath, `${treePath}: one read is limited to ${MAX_READ_BYTES} bytes`);
    const buffer = Buffer.alloc(wanted);
    let filled = 0;
    let sectionStart = 0;
    for (const extent of this.checkedExtents(entry, treePath)) {
      if (filled >= wanted) break;
      const sectionEnd = sectionStart + extent.length;
      const from = offset + filled;
      if (from < sectionEnd) {
        const within = from - sectionStart;
        const count = Math.min(wanted - filled, extent.length - within);
        await this.source.readInto(buffer, filled, extent.offset + within, count, 'file data', treePath);
        filled += count;
      }
      sectionStart = sectionEnd;
    }
    return buffer;
  }

  async extents(path: string): Promise<ByteExtent[]> {
    const { entry, path: treePath } = await this.requireFile(path);
    return this.checkedExtents(entry, treePath).map((extent) => ({ file: this.source.file, offset: extent.offset, length: extent.length }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache.clear();
    await this.source.close();
  }

  private checkedExtents(entry: IsoEntry, treePath: string): IsoEntry['extents'] {
    if (entry.unreadable) throw new TreeError('UNSUPPORTED', treePath, `${treePath}: ${entry.unreadable}`);
    for (const extent of entry.extents) {
      if (!this.source.contains(extent.offset, extent.length)) {
        throw new TreeError('CORRUPT', treePath, `${treePath}: its data (${extent.length} bytes at ${extent.offset}) lies outside the ${this.source.size}-byte file`);
      }
    }
    return entry.extents;
  }

  private node(located: Located): TreeNode {
    const { entry } = located;
    const node: TreeNode = {
      name: entry.name,
      path: located.path,
      type: entry.type,
      size: entry.type === 'file' ? entry.size : 0,
      mtimeMs: entry.mtimeMs,
      mode: entry.mode,
      id: entry.id,
    };
    if (entry.type === 'symlink') node.target = entry.target ?? '';
    return node;
  }

  private async directoryOf(located: Located): Promise<ParsedDirectory> {
    const { entry, path } = located;
    if (entry.type !== 'directory' || !entry.directory) throw new TreeError('NOT_DIRECTORY', path, `${path} is not a directory`);
    const extent = entry.directory;
    if (located.ancestors.has(extent.offset)) throw new TreeError('LOOP', path, `${path}: the directory contains itself (a cycle in the image)`);
    return this.cache.get(extent.offset, () => this.readDirectory(extent, path));
  }

  private async locate(input: string): Promise<Located | null> {
    if (this.closed) throw new TreeError('UNSUPPORTED', input, 'the ISO image is closed');
    const path = normaliseTreePath(input);
    if (path === null) return null;
    const segments = path === '' ? [] : path.split('/');
    if (segments.length > MAX_DEPTH) throw new TreeError('LOOP', path, `${path}: deeper than ${MAX_DEPTH} levels`);
    let current: Located = { entry: this.root, path: '', ancestors: new Set() };
    for (const segment of segments) {
      if (current.entry.type !== 'directory') return null;
      const directory = await this.directoryOf(current);
      const entry = directory.byName.get(segment) ?? directory.byFoldedName.get(segment.toLowerCase()) ?? null;
      if (!entry) return null;
      const ancestors = new Set(current.ancestors);
      if (current.entry.directory) ancestors.add(current.entry.directory.offset);
      current = { entry, path: current.path ? `${current.path}/${entry.name}` : entry.name, ancestors };
    }
    return current;
  }

  private async require(path: string): Promise<Located> {
    const located = await this.locate(path);
    if (!located) throw new TreeError('NOT_FOUND', path, `${path || '/'} does not exist in the image`);
    return located;
  }

  private async requireFile(path: string): Promise<Located> {
    const located = await this.require(path);
    if (located.entry.type === 'directory') throw new TreeError('IS_DIRECTORY', located.path, `${located.path || '/'} is a directory`);
    if (located.entry.type === 'symlink') throw new TreeError('UNSUPPORTED', located.path, `${located.path} is a symlink: resolve it first (resolveTreePath)`);
    return located;
  }
}
