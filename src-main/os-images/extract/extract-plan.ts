import path from 'node:path';
import { resolveTreePath, TreeError, type ReadOnlyTree, type TreeNode } from '../../core/read-only-tree.js';

/*
 * The plan of an extraction: every directory, file and symlink to write,
 * with their place on disk relative to the target, decided before a byte
 * is copied (so progress knows its totals, and a hostile name is refused
 * before anything is written).
 *
 * Names come from the image and are not trusted: a name that is empty,
 * '.', '..', holds '/', '\', NUL or another control character, or is
 * longer than a file system allows, is refused (skipped and reported), and
 * so is a second entry of the same name in one directory. Places on disk
 * are built from the checked names only, never from the tree's own paths.
 * A symlink is kept (relative) only when its target stays inside the tree;
 * an absolute target is taken from the tree's root, as the mount does.
 */

export interface PlannedDir {
  /** Relative to the target, '/'-separated ('' for the target itself). */
  rel: string;
}

export interface PlannedFile {
  treePath: string;
  rel: string;
  size: number;
  mtimeMs: number;
}

export interface PlannedLink {
  rel: string;
  /** The link's content on disk: a relative path that stays inside the target. */
  target: string;
}

export interface Skipped {
  /** The tree path (or what could be read of it). */
  path: string;
  reason: string;
}

export interface Plan {
  dirs: PlannedDir[];
  files: PlannedFile[];
  links: PlannedLink[];
  skipped: Skipped[];
  totalBytes: number;
}

/** Deepest directory nesting followed (ISO 9660 allows 8 levels; Rock Ridge more — this is far beyond real media). */
export const MAX_DEPTH = 64;
/** Most entries one extraction handles (a full Windows or Debian DVD holds a few tens of thousands). */
export const MAX_ENTRIES = 1_000_000;
const MAX_NAME_BYTES = 255;

/** Why a name from the image cannot be written to disk, or null when it can. */
export function unsafeName(name: string): string | null {
  if (name === '' || name === '.' || name === '..') return `the name "${name}" is not a file name`;
  // eslint-disable-next-line no-control-regex
  if (/[/\\\u0000-\u001f\u007f]/.test(name)) return 'the name holds a slash, a backslash, NUL or a control character';
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) return `the name is longer than ${MAX_NAME_BYTES} bytes`;
  return null;
}

function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return JSON.stringify(text.replace(/[\u0000-\u001f\u007f]/g, '?')).slice(1, -1).slice(0, 256);
}

class Planner {
  readonly plan: Plan = { dirs: [], files: [], links: [], skipped: [], totalBytes: 0 };
  private entries = 0;
  private readonly dirSet = new Set<string>();
  private readonly taken = new Set<string>();
  private readonly tree: ReadOnlyTree;
  private readonly signal: AbortSignal | undefined;

  constructor(tree: ReadOnlyTree, signal?: AbortSignal) {
    this.tree = tree;
    this.signal = signal;
  }

  private count(): void {
    this.entries += 1;
    if (this.entries > MAX_ENTRIES) throw new TreeError('CORRUPT', '', `the image holds more than ${MAX_ENTRIES} entries`);
  }

  addDir(rel: string): void {
    if (this.dirSet.has(rel)) return;
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    if (rel !== '' && !this.dirSet.has(parent)) this.addDir(parent);
    this.dirSet.add(rel);
    this.taken.add(rel);
    this.plan.dirs.push({ rel });
  }

  /** Whether something is already planned at `rel`. */
  has(rel: string): boolean {
    return this.taken.has(rel);
  }

  skip(treePath: string, reason: string): void {
    this.plan.skipped.push({ path: printable(treePath), reason });
  }

  /** Adds one node found at tree path `treePath`, to be written at `rel`; walks a directory's subtree. */
  async add(node: TreeNode, treePath: string, rel: string, depth: number): Promise<void> {
    this.count();
    this.taken.add(rel);
    if (node.type === 'directory') {
      if (depth > MAX_DEPTH) {
        this.skip(treePath, `deeper than ${MAX_DEPTH} directories`);
        return;
      }
      this.addDir(rel);
      // Listing a DVD's tens of thousands of entries takes a moment: an abort is heard between directories.
      this.signal?.throwIfAborted();
      for (const child of await this.tree.list(treePath)) {
        const reason = unsafeName(child.name);
        const childTreePath = treePath === '' ? child.name : `${treePath}/${child.name}`;
        if (reason) {
          this.skip(childTreePath, reason);
          continue;
        }
        const childRel = rel === '' ? child.name : `${rel}/${child.name}`;
        if (this.taken.has(childRel)) {
          this.skip(childTreePath, 'a second entry of the same name in its directory');
          continue;
        }
        this.taken.add(childRel);
        // The tree's own path for reads: the child's as the tree gives it, which names the same node.
        await this.add(child, child.path, childRel, depth + 1);
      }
      return;
    }
    if (node.type === 'file') {
      this.plan.files.push({ treePath, rel, size: node.size, mtimeMs: node.mtimeMs });
      this.plan.totalBytes += node.size;
      return;
    }
    const target = linkTarget(treePath, node.target ?? '');
    if (target === null) {
      this.skip(treePath, `a symlink to "${printable(node.target ?? '')}", outside the image`);
      return;
    }
    this.plan.links.push({ rel, target });
  }
}

/** A symlink's content on disk for a link at tree path `linkPath`: relative, and only when it stays inside the tree. */
export function linkTarget(linkPath: string, target: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (target === '' || /[\u0000\\]/.test(target)) return null;
  const linkDir = path.posix.dirname(linkPath) === '.' ? '' : path.posix.dirname(linkPath);
  const resolved = target.startsWith('/') ? path.posix.normalize(target.slice(1)) : path.posix.normalize(path.posix.join(linkDir, target));
  if (resolved === '..' || resolved.startsWith('../') || path.posix.isAbsolute(resolved)) return null;
  const inside = resolved === '.' ? '' : resolved.replace(/\/+$/, '');
  return path.posix.relative(linkDir, inside) || '.';
}

/** The plan for the whole tree. */
export async function planFull(tree: ReadOnlyTree, signal?: AbortSignal): Promise<Plan> {
  const planner = new Planner(tree, signal);
  const root = await tree.stat('');
  if (!root || root.type !== 'directory') throw new TreeError('CORRUPT', '', 'the image has no root directory');
  await planner.add(root, '', '', 0);
  return planner.plan;
}

/**
 * The plan for chosen tree paths (and, for each, the directories above it).
 * A chosen symlink brings the node it resolves to inside the tree as well,
 * so a kernel recorded as a link is extracted with its bytes.
 */
export async function planPaths(tree: ReadOnlyTree, paths: readonly string[], signal?: AbortSignal): Promise<Plan> {
  const planner = new Planner(tree, signal);
  planner.addDir('');
  // A path inside another chosen directory comes with it.
  const queue = paths.filter((candidate) => !paths.some((other) => other !== candidate && candidate.startsWith(`${other}/`)));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const treePath = queue.shift() ?? '';
    if (seen.has(treePath)) continue;
    seen.add(treePath);
    const segments = treePath.split('/');
    const bad = segments.map(unsafeName).find((reason) => reason !== null);
    if (bad) {
      planner.skip(treePath, bad);
      continue;
    }
    const node = await tree.stat(treePath);
    if (!node) continue;
    const rel = segments.join('/');
    if (planner.has(rel)) continue;
    planner.addDir(segments.slice(0, -1).join('/'));
    if (node.type === 'symlink') {
      const resolved = await resolveTreePath(tree, treePath).catch((err: unknown) => {
        if (err instanceof TreeError) return null;
        throw err;
      });
      if (resolved && resolved.path !== treePath) queue.push(resolved.path);
    }
    await planner.add(node, treePath, rel, segments.length);
  }
  return planner.plan;
}
