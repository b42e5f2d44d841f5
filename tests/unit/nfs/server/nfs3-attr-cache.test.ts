import { describe, expect, it } from 'vitest';
import type { ReadOnlyTree, TreeNode } from '../../../../src-main/core/read-only-tree.js';
import { AttributeCache } from '../../../../src-main/nfs/server/nfs3-attr-cache.js';
import { memoryTree } from '../../../helpers/memory-tree.js';

/** A memory tree whose stat calls are counted, and whose answers can be swapped. */
function countingTree(): { tree: ReadOnlyTree; stats: () => number; replace: (path: string, node: TreeNode | null) => void } {
  const inner = memoryTree({ 'a.txt': 'aaa', 'dir/b.txt': 'bb' });
  const replaced = new Map<string, TreeNode | null>();
  let calls = 0;
  const tree: ReadOnlyTree = Object.assign(Object.create(inner) as ReadOnlyTree, {
    async stat(treePath: string) {
      calls += 1;
      return replaced.has(treePath) ? (replaced.get(treePath) ?? null) : inner.stat(treePath);
    },
  });
  return { tree, stats: () => calls, replace: (p, node) => replaced.set(p, node) };
}

describe('AttributeCache (nfs3-attr-cache.ts)', () => {
  it('answers a path from the tree once per three seconds: kept within them, asked again after', async () => {
    let clock = 0;
    const cache = new AttributeCache({ now: () => clock });
    const { tree, stats } = countingTree();
    const first = await cache.stat(1, tree, 'a.txt');
    expect(first?.size).toBe(3);
    clock = 2999;
    expect(await cache.stat(1, tree, 'a.txt')).toBe(first);
    expect(stats()).toBe(1);
    expect(cache.stats).toEqual({ hits: 1, misses: 1 });
    clock = 3000;
    await cache.stat(1, tree, 'a.txt');
    expect(stats()).toBe(2);
  });

  it('a fresh stat asks the tree and keeps its answer (a replaced node is then seen by everyone)', async () => {
    const cache = new AttributeCache({ now: () => 0 });
    const { tree, stats, replace } = countingTree();
    const before = await cache.stat(1, tree, 'a.txt');
    if (!before) throw new Error('fixture');
    const after: TreeNode = { ...before, id: before.id + 1n };
    replace('a.txt', after);
    expect((await cache.stat(1, tree, 'a.txt'))?.id).toBe(before.id);
    expect((await cache.stat(1, tree, 'a.txt', true))?.id).toBe(after.id);
    expect((await cache.stat(1, tree, 'a.txt'))?.id).toBe(after.id);
    expect(stats()).toBe(2);
  });

  it('keeps no absence, no error, and nothing across exports or trees', async () => {
    const cache = new AttributeCache({ now: () => 0 });
    const { tree, stats, replace } = countingTree();
    expect(await cache.stat(1, tree, 'missing')).toBeNull();
    expect(await cache.stat(1, tree, 'missing')).toBeNull();
    expect(stats()).toBe(2);
    // A node kept, then gone (fresh): the entry goes with it.
    await cache.stat(1, tree, 'dir');
    replace('dir', null);
    expect(await cache.stat(1, tree, 'dir', true)).toBeNull();
    expect(cache.size).toBe(0);
    const failing: ReadOnlyTree = Object.assign(Object.create(tree) as ReadOnlyTree, { stat: () => Promise.reject(new Error('EIO')) });
    await expect(cache.stat(1, failing, 'a.txt')).rejects.toThrow('EIO');
    await expect(cache.stat(1, failing, 'a.txt')).rejects.toThrow('EIO');
    await cache.stat(1, tree, 'a.txt');
    const calls = stats();
    await cache.stat(2, tree, 'a.txt');
    const other = countingTree();
    await cache.stat(1, other.tree, 'a.txt');
    expect(stats()).toBe(calls + 1);
    expect(other.stats()).toBe(1);
  });

  it('is bounded (starts over past maxEntries), cleared on demand, and off with ttlMs 0', async () => {
    const bounded = new AttributeCache({ now: () => 0, maxEntries: 2 });
    const { tree } = countingTree();
    await bounded.stat(1, tree, 'a.txt');
    await bounded.stat(1, tree, 'dir');
    expect(bounded.size).toBe(2);
    await bounded.stat(1, tree, 'dir/b.txt');
    expect(bounded.size).toBe(1);
    bounded.clear();
    expect(bounded.size).toBe(0);
    const off = new AttributeCache({ now: () => 0, ttlMs: 0 });
    const counted = countingTree();
    await off.stat(1, counted.tree, 'a.txt');
    await off.stat(1, counted.tree, 'a.txt');
    expect(counted.stats()).toBe(2);
    expect(off.size).toBe(0);
  });
});
