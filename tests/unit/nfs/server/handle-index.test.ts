import { randomBytes } from 'node:crypto';
import { link, mkdir, mkdtemp, rm, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderTree } from '../../../../src-main/core/folder-tree.js';
import { AttributeCache } from '../../../../src-main/nfs/server/nfs3-attr-cache.js';
import { HandleIndex } from '../../../../src-main/nfs/server/handle-index.js';
import { memoryTree } from '../../../helpers/memory-tree.js';
import { servedExport, TestExports } from './nfs3-harness.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function wideTree(files: number) {
  const entries: Record<string, string> = {};
  for (let index = 0; index < files; index += 1) entries[`d${index % 10}/f${index}`] = `${index}`;
  entries['deep/a/b/c/d/e/f/target'] = 'found';
  return memoryTree(entries);
}

describe('HandleIndex', () => {
  const key = randomBytes(32);

  it('resolves handles it handed out, without walking', async () => {
    const tree = wideTree(100);
    const table = new TestExports([servedExport(1, '/a', tree)]);
    const index = new HandleIndex({ key, exports: table });
    const node = await tree.stat('deep/a/b/c/d/e/f/target');
    if (!node) throw new Error('fixture');
    const handle = index.handleFor(table.exports[0]!, node);
    const resolved = await index.resolve(handle, '127.0.0.1');
    expect(resolved.status).toBe('ok');
    expect(resolved.status === 'ok' && resolved.node.path).toBe('deep/a/b/c/d/e/f/target');
    expect(index.stats.walks).toBe(0);
  });

  it('after a restart (a new index, the same key) finds old handles by walking', async () => {
    const tree = wideTree(1000);
    const table = new TestExports([servedExport(1, '/a', tree)]);
    const node = await tree.stat('deep/a/b/c/d/e/f/target');
    if (!node) throw new Error('fixture');
    const handle = new HandleIndex({ key, exports: table }).handleFor(table.exports[0]!, node);
    const restarted = new HandleIndex({ key, exports: table });
    const resolved = await restarted.resolve(handle, '127.0.0.1');
    expect(resolved.status === 'ok' && resolved.node.path).toBe('deep/a/b/c/d/e/f/target');
    expect(restarted.stats.walks).toBe(1);
    // Remembered now: the second resolution does not walk.
    await restarted.resolve(handle, '127.0.0.1');
    expect(restarted.stats.walks).toBe(1);
  });

  it('gives up (stale) past the node limit', async () => {
    const tree = wideTree(1000);
    const table = new TestExports([servedExport(1, '/a', tree)]);
    const node = await tree.stat('deep/a/b/c/d/e/f/target');
    if (!node) throw new Error('fixture');
    const handle = new HandleIndex({ key, exports: table }).handleFor(table.exports[0]!, node);
    const limited = new HandleIndex({ key, exports: table, walkNodeLimit: 50 });
    expect((await limited.resolve(handle, '127.0.0.1')).status).toBe('stale');
    expect(limited.stats.walkedNodes).toBeLessThanOrEqual(51);
  });

  it('the export root always resolves, even in a fresh index', async () => {
    const tree = wideTree(10);
    const table = new TestExports([servedExport(5, '/a', tree)]);
    const root = await tree.stat('');
    if (!root) throw new Error('fixture');
    const handle = new HandleIndex({ key, exports: table }).handleFor(table.exports[0]!, root);
    const fresh = new HandleIndex({ key, exports: table, walkNodeLimit: 0 });
    expect((await fresh.resolve(handle, '127.0.0.1')).status).toBe('ok');
    expect(fresh.stats.walks).toBe(0);
  });

  it('badhandle for forgeries, stale for a removed export, refused outside the subnets', async () => {
    const tree = wideTree(10);
    const table = new TestExports([servedExport(1, '/a', tree), servedExport(2, '/b', tree, ['10.0.0.0/8'])]);
    const index = new HandleIndex({ key, exports: table });
    const root = await tree.stat('');
    if (!root) throw new Error('fixture');
    const handle = index.handleFor(table.exports[0]!, root);
    expect((await index.resolve(Buffer.alloc(24), '127.0.0.1')).status).toBe('badhandle');
    expect((await index.resolve(handle.subarray(0, 16), '127.0.0.1')).status).toBe('badhandle');
    const forged = Buffer.from(handle);
    forged.writeUInt32BE(2, 1); // the export id: moved to export 2, the mac no longer matches
    expect((await index.resolve(forged, '127.0.0.1')).status).toBe('badhandle');
    const other = index.handleFor(table.exports[1]!, root);
    expect((await index.resolve(other, '127.0.0.1')).status).toBe('refused');
    expect((await index.resolve(other, '10.1.2.3')).status).toBe('ok');
    table.exports = [table.exports[1]!];
    expect((await index.resolve(handle, '127.0.0.1')).status).toBe('stale');
  });

  it('a file replaced at the same path (new inode) goes stale once its attributes expire (three seconds); a removed one too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bw-nfs-index-'));
    dirs.push(dir);
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub/file'), 'one');
    await writeFile(join(dir, 'sub/gone'), 'two');
    const tree = await FolderTree.open(dir);
    const table = new TestExports([servedExport(1, '/f', tree)]);
    let clock = 0;
    const index = new HandleIndex({ key, exports: table, attributes: new AttributeCache({ now: () => clock }) });
    const file = await tree.stat('sub/file');
    const gone = await tree.stat('sub/gone');
    if (!file || !gone) throw new Error('fixture');
    const fileHandle = index.handleFor(table.exports[0]!, file);
    const goneHandle = index.handleFor(table.exports[0]!, gone);
    expect((await index.resolve(fileHandle, '127.0.0.1')).status).toBe('ok');
    await writeFile(join(dir, 'sub/file.new'), 'replaced');
    await rename(join(dir, 'sub/file.new'), join(dir, 'sub/file'));
    await rm(join(dir, 'sub/gone'));
    // Within the three seconds the kept attributes answer (as a client's own attribute cache would).
    clock = 2999;
    expect((await index.resolve(fileHandle, '127.0.0.1')).status).toBe('ok');
    clock = 3000;
    expect((await index.resolve(fileHandle, '127.0.0.1')).status).toBe('stale');
    expect((await index.resolve(goneHandle, '127.0.0.1')).status).toBe('stale');
    // A fresh index (restart) walks and does not find them either.
    const fresh = new HandleIndex({ key, exports: table });
    expect((await fresh.resolve(fileHandle, '127.0.0.1')).status).toBe('stale');
  });

  it('a hard-linked file (one node id, two paths) resolves under both handles', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bw-nfs-index-'));
    dirs.push(dir);
    await writeFile(join(dir, 'a'), 'same');
    await link(join(dir, 'a'), join(dir, 'b'));
    const tree = await FolderTree.open(dir);
    const table = new TestExports([servedExport(1, '/f', tree)]);
    const index = new HandleIndex({ key, exports: table });
    const a = await tree.stat('a');
    const b = await tree.stat('b');
    if (!a || !b) throw new Error('fixture');
    expect(a.id).toBe(b.id);
    const handleA = index.handleFor(table.exports[0]!, a);
    const handleB = index.handleFor(table.exports[0]!, b);
    for (const handle of [handleA, handleB, handleA]) expect((await index.resolve(handle, '127.0.0.1')).status).toBe('ok');
    const resolvedB = await index.resolve(handleB, '127.0.0.1');
    expect(resolvedB.status === 'ok' && resolvedB.node.path).toBe('b');
    expect(index.stats.walks).toBe(0);
  });

  it('a handle a walk did not find is not walked for again right away', async () => {
    const tree = wideTree(100);
    const table = new TestExports([servedExport(1, '/a', tree)]);
    const handle = new HandleIndex({ key, exports: table }).codec.encode(1, 999_999n, 'gone/file');
    const index = new HandleIndex({ key, exports: table });
    expect((await index.resolve(handle, '127.0.0.1')).status).toBe('stale');
    expect((await index.resolve(handle, '127.0.0.1')).status).toBe('stale');
    expect(index.stats.walks).toBe(1);
    // Concurrent misses share one walk.
    const other = index.codec.encode(1, 888_888n, 'gone/other');
    await Promise.all([index.resolve(other, '127.0.0.1'), index.resolve(other, '127.0.0.1'), index.resolve(other, '127.0.0.1')]);
    expect(index.stats.walks).toBe(2);
  });
});
