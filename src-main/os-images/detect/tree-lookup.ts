import { TreeError, type ReadOnlyTree, type TreeNode } from '../../core/read-only-tree.js';

/*
 * Case-insensitive lookups in an image's tree, for detection. A plain
 * ISO 9660 volume (no Rock Ridge, no Joliet) records upper-case names, and
 * some record them with a version suffix ("ISOLINUX.CFG;1") or a trailing
 * dot ("README.;1"), while the boot menus inside name the same files in
 * lower case. Detection therefore never asks the tree for a path as
 * written: it walks the path a directory at a time and compares names
 * folded the way the medium would have recorded them.
 *
 * Detection must stay cheap on a 4 GB image and safe on a hostile one, so
 * every lookup here is bounded: directory listings are cached and counted,
 * large directories are cut, and text reads are capped.
 */

/** Most directories one detection lists (a real ISO needs a few dozen). */
export const MAX_LISTINGS = 256;
/** Entries considered per directory (Debian's pool/ has thousands; detection never needs them all). */
export const MAX_ENTRIES_PER_DIRECTORY = 4096;
/** Largest text file read for detection; longer files are read up to this many bytes. */
export const MAX_TEXT_BYTES = 256 * 1024;

/** A name as the medium might record it, for comparison: lower case, no ";1" version, no trailing dot. */
export function foldName(name: string): string {
  return name.replace(/;\d*$/, '').replace(/\.$/, '').toLowerCase();
}

export class TreeLookup {
  readonly tree: ReadOnlyTree;
  private readonly listings = new Map<string, TreeNode[] | null>();
  private listed = 0;

  constructor(tree: ReadOnlyTree) {
    this.tree = tree;
  }

  /** A directory's entries ([] when it is not a directory, is missing or the listing budget is spent). */
  async list(dirPath: string): Promise<TreeNode[]> {
    const cached = this.listings.get(dirPath);
    if (cached !== undefined) return cached ?? [];
    if (this.listed >= MAX_LISTINGS) return [];
    this.listed += 1;
    let entries: TreeNode[] | null;
    try {
      entries = (await this.tree.list(dirPath)).slice(0, MAX_ENTRIES_PER_DIRECTORY);
    } catch (err) {
      // A missing or unreadable directory is simply not evidence; anything else is a bug to surface.
      if (!(err instanceof TreeError)) throw err;
      entries = null;
    }
    this.listings.set(dirPath, entries);
    return entries ?? [];
  }

  /**
   * The node a path names, matched case-insensitively segment by segment
   * (leading slashes, '.' and empty segments ignored; '..' never matches).
   * Symlinks are not followed: detection reads what the medium records.
   */
  async find(path: string): Promise<TreeNode | null> {
    const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
    if (segments.length === 0 || segments.some((segment) => segment === '..')) return null;
    let dir = '';
    let node: TreeNode | null = null;
    for (const [index, segment] of segments.entries()) {
      const wanted = foldName(segment);
      node = (await this.list(dir)).find((entry) => foldName(entry.name) === wanted) ?? null;
      if (!node) return null;
      if (index < segments.length - 1 && node.type !== 'directory') return null;
      dir = node.path;
    }
    return node;
  }

  /** The tree path of a file at `path` (case-insensitively), or null. */
  async file(path: string): Promise<string | null> {
    const node = await this.find(path);
    return node && node.type === 'file' ? node.path : null;
  }

  /** The tree path of a directory at `path` (case-insensitively), or null. */
  async directory(path: string): Promise<string | null> {
    const node = await this.find(path);
    return node && node.type === 'directory' ? node.path : null;
  }

  /** The first of `paths` that is a file, as its tree path. */
  async firstFile(paths: readonly string[]): Promise<string | null> {
    for (const candidate of paths) {
      const found = await this.file(candidate);
      if (found) return found;
    }
    return null;
  }

  /** A file's size in bytes, or null when it is not a file. */
  async size(path: string): Promise<number | null> {
    const node = await this.find(path);
    return node && node.type === 'file' ? node.size : null;
  }

  /**
   * A small text file's content (up to `cap` bytes, decoded as UTF-8 with a
   * BOM dropped; undecodable bytes become U+FFFD), or null when it is not a
   * file. NUL bytes end the text: config files never hold them and binary
   * garbage should not turn into a megabyte of "text".
   */
  async text(path: string, cap = MAX_TEXT_BYTES): Promise<string | null> {
    const node = await this.find(path);
    if (!node || node.type !== 'file') return null;
    let bytes: Buffer;
    try {
      bytes = await this.tree.read(node.path, 0, Math.min(node.size, cap));
    } catch (err) {
      if (!(err instanceof TreeError)) throw err;
      return null;
    }
    const nul = bytes.indexOf(0);
    const text = (nul >= 0 ? bytes.subarray(0, nul) : bytes).toString('utf8');
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  }
}
