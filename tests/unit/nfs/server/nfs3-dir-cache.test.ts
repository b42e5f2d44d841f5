import { describe, expect, it } from 'vitest';
import type { ReadOnlyTree, TreeNode } from '../../../../src-main/core/read-only-tree.js';
import { DEFAULT_TTL_MS, DirectoryCache } from '../../../../src-main/nfs/server/nfs3-dir-cache.js';
import { memoryTree } from '../../../helpers/memory-tree.js';

/** A tree of folders d0…d(n-1) holding `files` files each, counting its listings. */
function countingTree(folders: number, files: number): { tree: ReadOnlyTree; lists: () => number } {
  const entries: Record<string, string> = {};
  for (let d = 0; d < folders; d += 1) for (let f = 0; f < files; f += 1) entries[`d${d}/f${f}`] = `${d}/${f}`;
  const tree = memoryTree(entries);
  let lists = 0;
  const list = tree.list.bind(tree);
  tree.list = (path: string) => {
    lists += 1;
    return list(path);
  };
  return { tree, lists: () => lists };
}

async function dirNode(tree: ReadOnlyTree, path: string): Promise<TreeNode> {
  const node = await tree.stat(path);
  if (!node) throw new Error(`fixture: no ${path}`);
  return node;
}

describe('directory listings for READDIR(PLUS)', () => {
  it('keeps every folder of a walk when their entries fit the bound (not a count of listings)', async () => {
    const { tree, lists } = countingTree(100, 10);
    const cache = new DirectoryCache({ maxEntries: 2_000 });
    const dirs = await Promise.all(Array.from({ length: 100 }, (_, d) => dirNode(tree, `d${d}`)));
    const first = await Promise.all(dirs.map((dir) => cache.list(1, tree, dir)));
    expect(lists()).toBe(100);
    const second = await Promise.all(dirs.map((dir) => cache.list(1, tree, dir)));
    expect(lists()).toBe(100);
    // The same listings, with what READDIR(PLUS) encoded of them.
    expect(second.every((listing, d) => listing.nodes === first[d]?.nodes && listing.encoded === first[d]?.encoded)).toBe(true);
    // Another export of the same tree has its own listings and its own encoded entries.
    expect((await cache.list(2, tree, dirs[0]!)).encoded).not.toBe(first[0]?.encoded);
    expect(lists()).toBe(101);
  });

  it('evicts the oldest listings once their entries pass the bound, and keeps none bigger than it', async () => {
    const { tree, lists } = countingTree(3, 100);
    const cache = new DirectoryCache({ maxEntries: 250 });
    const [d0, d1, d2] = await Promise.all([0, 1, 2].map((d) => dirNode(tree, `d${d}`)));
    await cache.list(1, tree, d0!);
    await cache.list(1, tree, d1!);
    await cache.list(1, tree, d2!); // 300 entries > 250: d0 goes
    expect(lists()).toBe(3);
    await cache.list(1, tree, d2!);
    await cache.list(1, tree, d1!);
    expect(lists()).toBe(3);
    await cache.list(1, tree, d0!);
    expect(lists()).toBe(4);

    const small = new DirectoryCache({ maxEntries: 50 });
    expect((await small.list(1, tree, d0!)).nodes).toHaveLength(100);
    await small.list(1, tree, d0!);
    expect(lists()).toBe(6);
  });

  it('lists again when the directory changed or the listing is older than its time', async () => {
    const { tree, lists } = countingTree(1, 5);
    let now = 1_000_000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const cache = new DirectoryCache({ ttlMs: 5_000 });
      const dir = await dirNode(tree, 'd0');
      await cache.list(1, tree, dir);
      await cache.list(1, tree, dir);
      expect(lists()).toBe(1);
      await cache.list(1, tree, { ...dir, mtimeMs: dir.mtimeMs + 1 });
      expect(lists()).toBe(2);
      now += 5_001;
      await cache.list(1, tree, { ...dir, mtimeMs: dir.mtimeMs + 1 });
      expect(lists()).toBe(3);
    } finally {
      Date.now = realNow;
    }
  });

  it('reuses a listing for a minute by default (Ganesha\'s attribute expiry), not longer', async () => {
    const { tree, lists } = countingTree(1, 5);
    let now = 2_000_000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      expect(DEFAULT_TTL_MS).toBe(60_000);
      const cache = new DirectoryCache();
      const dir = await dirNode(tree, 'd0');
      await cache.list(1, tree, dir);
      now += 59_000;
      await cache.list(1, tree, dir);
      expect(lists()).toBe(1);
      now += 1_001;
      await cache.list(1, tree, dir);
      expect(lists()).toBe(2);
    } finally {
      Date.now = realNow;
    }
  });
});
