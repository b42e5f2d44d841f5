import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderTree } from '../../../../src-main/core/folder-tree.js';
import type { ReadOnlyTree } from '../../../../src-main/core/read-only-tree.js';
import { AttributeCache } from '../../../../src-main/nfs/server/nfs3-attr-cache.js';
import { NF3, NFS3, NFSPROC3 } from '../../../../src-main/nfs/server/nfs3-constants.js';
import { postOpAttr } from '../../../../src-main/nfs/server/nfs3-codec.js';
import { openIso } from '../../../../src-main/os-images/iso/index.js';
import { buildIso, isoToolPresent, makeIsoWorkDir } from '../../../helpers/iso-fixtures.js';
import { memoryTreeOnDisk } from '../../../helpers/memory-tree.js';
import { prng } from '../../../helpers/prng.js';
import { call, context, getattr, harness, listAll, lookup, mountRoot, read, readAll, servedExport, walk } from './nfs3-harness.js';

function pseudoRandom(length: number, seed: number): Buffer {
  const next = prng(seed);
  const out = Buffer.alloc(length);
  for (let index = 0; index < length; index += 4) out.writeUInt32LE((next() * 0x1_0000_0000) >>> 0, Math.min(index, length - 4));
  return out;
}

const DEEP = 'd1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12';

describe('NFS v3 over a real folder (FolderTree)', () => {
  let dir = '';
  let tree: ReadOnlyTree;
  const big = pseudoRandom(2 * 1024 * 1024 + 777, 1);
  let haveFifo = true;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bw-nfs3-folder-'));
    await writeFile(join(dir, 'big.bin'), big);
    await mkdir(join(dir, DEEP), { recursive: true });
    await writeFile(join(dir, DEEP, 'leaf.txt'), 'leaf');
    await symlink('/etc', join(dir, 'outside'));
    await symlink('../big.bin', join(dir, 'd1/link'));
    try {
      execFileSync('mkfifo', [join(dir, 'fifo')]);
    } catch {
      haveFifo = false;
      console.log('mkfifo is missing: the FIFO case is not checked');
    }
    tree = await FolderTree.open(dir);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads a file byte-exact in 1 MiB calls through one descriptor', async () => {
    const h = harness([servedExport(1, '/folder', tree)]);
    const root = await mountRoot(h, '/folder');
    const file = await walk(h, root, 'big.bin');
    expect((await readAll(h, file, 1024 * 1024)).equals(big)).toBe(true);
    expect((await readAll(h, file, 100_000)).equals(big)).toBe(true);
    expect(h.readCache.stats.opens).toBe(1);
    await h.readCache.close();
  });

  it('lists without the FIFO; LOOKUP of the FIFO is an error, never a hang', async () => {
    const h = harness([servedExport(1, '/folder', tree)]);
    const root = await mountRoot(h, '/folder');
    const names = (await listAll(h, root, 4096, true)).map((entry) => entry.name).sort();
    expect(names).toEqual(['big.bin', 'd1', 'outside']);
    if (haveFifo) expect((await lookup(h, root, 'fifo')).status).toBe(NFS3.ERR_IO);
  });

  it('a symlink out of the folder is a symlink: READLINK shows it, LOOKUP through it is NOTDIR', async () => {
    const h = harness([servedExport(1, '/folder', tree)]);
    const root = await mountRoot(h, '/folder');
    const outside = await lookup(h, root, 'outside');
    expect(outside.attrs?.type).toBe(NF3.LNK);
    if (!outside.handle) throw new Error('no handle');
    const reply = await call(h.nfs, NFSPROC3.READLINK, (w) => w.opaque(outside.handle ?? Buffer.alloc(0)));
    expect(reply.uint32()).toBe(NFS3.OK);
    postOpAttr.decode(reply);
    expect(reply.string(4096)).toBe('/etc');
    expect((await lookup(h, outside.handle, 'passwd')).status).toBe(NFS3.ERR_NOTDIR);
    expect((await read(h, outside.handle, 0, 100)).status).toBe(NFS3.ERR_INVAL);
  });

  it('deep directories: LOOKUP down, ".." back up to the root and no further; a restart resolves the deep handle', async () => {
    const key = randomBytes(32);
    const h = harness([servedExport(1, '/folder', tree)], key);
    const root = await mountRoot(h, '/folder');
    const leaf = await walk(h, root, `${DEEP}/leaf.txt`);
    let handle = await walk(h, root, DEEP);
    for (let step = 0; step < 15; step += 1) {
      const up = await lookup(h, handle, '..');
      expect(up.status).toBe(NFS3.OK);
      if (!up.handle) throw new Error('no handle');
      handle = up.handle;
    }
    expect((await getattr(h, handle)).attrs?.fileid).toBe((await getattr(h, root)).attrs?.fileid);
    const restarted = harness([servedExport(1, '/folder', tree)], key);
    expect((await read(restarted, leaf, 0, 100)).data.toString()).toBe('leaf');
    expect(restarted.index.stats.walks).toBe(1);
  });

  it('a file replaced under its name goes stale (READ re-checks its cached file)', async () => {
    const h = harness([servedExport(1, '/folder', tree)], randomBytes(32), { revalidateMs: 0 });
    const root = await mountRoot(h, '/folder');
    await writeFile(join(dir, 'swap.txt'), 'first');
    const file = await walk(h, root, 'swap.txt');
    expect((await read(h, file, 0, 10)).data.toString()).toBe('first');
    await writeFile(join(dir, 'swap.new'), 'second');
    await rename(join(dir, 'swap.new'), join(dir, 'swap.txt'));
    expect((await read(h, file, 0, 10)).status).toBe(NFS3.ERR_STALE);
    expect((await getattr(h, file)).status).toBe(NFS3.ERR_STALE);
    const replaced = await walk(h, root, 'swap.txt');
    expect(replaced.equals(file)).toBe(false);
    // The new file is read from a new descriptor, not the one still open on the old inode.
    expect((await read(h, replaced, 0, 10)).data.toString()).toBe('second');
    await h.readCache.close();
  });

  it('within the attribute cache\'s three seconds, GETATTR may answer the replaced file\'s old attributes, but READ and READLINK check afresh: never the new bytes under the old handle', async () => {
    // The clock stands still: every kept attribute stays valid for the whole test.
    const attributes = new AttributeCache({ now: () => 0 });
    const h = harness([servedExport(1, '/folder', tree)], randomBytes(32), { revalidateMs: 0 }, attributes);
    const root = await mountRoot(h, '/folder');
    await writeFile(join(dir, 'kept.txt'), 'old bytes');
    await symlink('first-target', join(dir, 'kept-link'));
    const file = await walk(h, root, 'kept.txt');
    const link = await walk(h, root, 'kept-link');
    await writeFile(join(dir, 'kept.new'), 'new bytes!');
    await rename(join(dir, 'kept.new'), join(dir, 'kept.txt'));
    await rm(join(dir, 'kept-link'));
    await symlink('second-target', join(dir, 'kept-link'));
    const hits = attributes.stats.hits;
    expect((await getattr(h, file)).status).toBe(NFS3.OK);
    expect(attributes.stats.hits).toBe(hits + 1);
    const reading = await read(h, file, 0, 20);
    expect(reading.status).toBe(NFS3.ERR_STALE);
    expect(reading.data.toString()).not.toContain('new');
    const readlink = await call(h.nfs, NFSPROC3.READLINK, (w) => w.opaque(link));
    expect(readlink.uint32()).toBe(NFS3.ERR_STALE);
    // The fresh stat renewed the entry: GETATTR now answers STALE too.
    expect((await getattr(h, file)).status).toBe(NFS3.ERR_STALE);
  });

  it('a change of the export table forgets the kept attributes', async () => {
    const attributes = new AttributeCache({ now: () => 0 });
    const h = harness([servedExport(1, '/folder', tree)], randomBytes(32), {}, attributes);
    const root = await mountRoot(h, '/folder');
    await writeFile(join(dir, 'table.txt'), 'x');
    const file = await walk(h, root, 'table.txt');
    await getattr(h, file);
    expect(attributes.size).toBeGreaterThan(0);
    h.nfs.exportsChanged();
    expect(attributes.size).toBe(0);
    const misses = attributes.stats.misses;
    expect((await getattr(h, file)).status).toBe(NFS3.OK);
    expect(attributes.stats.misses).toBe(misses + 1);
  });
});

describe('NFS v3 READ descriptors', () => {
  it('are closed when idle and on close', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bw-nfs3-idle-'));
    try {
      await writeFile(join(dir, 'a'), 'aaa');
      await writeFile(join(dir, 'b'), 'bbb');
      const tree = await FolderTree.open(dir);
      const idle = harness([servedExport(1, '/f', tree)], randomBytes(32), { idleMs: 1 });
      const root = await mountRoot(idle, '/f');
      expect((await read(idle, await walk(idle, root, 'a'), 0, 10)).data.toString()).toBe('aaa');
      expect(idle.readCache.openDescriptors).toBe(1);
      for (let tries = 0; tries < 100 && idle.readCache.openDescriptors > 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(idle.readCache.openDescriptors).toBe(0);
      const closing = harness([servedExport(1, '/f', tree)]);
      const root2 = await mountRoot(closing, '/f');
      await read(closing, await walk(closing, root2, 'a'), 0, 10);
      await read(closing, await walk(closing, root2, 'b'), 0, 10);
      expect(closing.readCache.openDescriptors).toBe(2);
      await closing.readCache.close();
      expect(closing.readCache.openDescriptors).toBe(0);
      expect(closing.readCache.stats.closes).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('NFS v3 READ over multi-extent files', () => {
  it('is byte-exact across extent boundaries at odd offsets', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bw-nfs3-extents-'));
    try {
      const data = pseudoRandom(300_001, 2);
      const tree = await memoryTreeOnDisk({ 'f.bin': data, 'g.bin': 'small' }, join(dir, 'backing.img'), { extentSize: 64 * 1024 });
      // As bytes, and as file stretches for sendfile (what a TCP transport with the addon gets).
      for (const sendsFiles of [false, true]) {
        const h = harness([servedExport(3, '/m', tree)]);
        const ctx = context('127.0.0.1', 'tcp', sendsFiles);
        const root = await mountRoot(h, '/m', ctx);
        const file = await walk(h, root, 'f.bin', ctx);
        expect((await readAll(h, file, 77_777, ctx)).equals(data)).toBe(true);
        const middle = await read(h, file, 65_530, 20, ctx);
        expect(middle.data.equals(data.subarray(65_530, 65_550))).toBe(true);
        expect((await readAll(h, await walk(h, root, 'g.bin', ctx), 3, ctx)).toString()).toBe('small');
        expect(h.readCache.stats.opens).toBe(1);
        expect(h.readCache.stats.borrows > 0).toBe(sendsFiles);
        await h.readCache.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const haveXorriso = isoToolPresent('xorriso', 'the NFS-over-ISO tests');

describe.skipIf(!haveXorriso)('NFS v3 over a real ISO (Rock Ridge)', () => {
  let work = '';
  let tree: ReadOnlyTree | null = null;
  const big = pseudoRandom(3 * 1024 * 1024 + 5, 3);

  beforeAll(async () => {
    work = await makeIsoWorkDir('bw-nfs3-iso-');
    const iso = await buildIso(work, 'live.iso', {
      entries: [
        { kind: 'file', path: 'live/filesystem.squashfs', content: big },
        { kind: 'file', path: 'live/Mixed Case Name With Spaces.cfg', content: 'menu' },
        { kind: 'symlink', path: 'live/vmlinuz', target: 'vmlinuz-6.1' },
        { kind: 'file', path: 'live/vmlinuz-6.1', content: 'kernel' },
        { kind: 'file', path: 'a/b/c/d/e/f/g/h/i/j/deep.txt', content: 'deep' },
      ],
      volumeId: 'NFS_TEST',
    });
    tree = await openIso(iso);
  }, 120_000);

  afterAll(async () => {
    await tree?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('serves Rock Ridge names, symlinks and byte-exact file contents', async () => {
    if (!tree) throw new Error('no ISO');
    const h = harness([servedExport(1_000_004, '/iso/live', tree)]);
    const root = await mountRoot(h, '/iso/live');
    const live = await walk(h, root, 'live');
    const names = (await listAll(h, live, 1024)).map((entry) => entry.name).sort();
    expect(names).toEqual(['Mixed Case Name With Spaces.cfg', 'filesystem.squashfs', 'vmlinuz', 'vmlinuz-6.1']);
    const link = await walk(h, live, 'vmlinuz');
    const reply = await call(h.nfs, NFSPROC3.READLINK, (w) => w.opaque(link));
    expect(reply.uint32()).toBe(NFS3.OK);
    postOpAttr.decode(reply);
    expect(reply.string(4096)).toBe('vmlinuz-6.1');
    const squash = await walk(h, live, 'filesystem.squashfs');
    expect((await getattr(h, squash)).attrs?.size).toBe(BigInt(big.length));
    expect((await readAll(h, squash, 1024 * 1024)).equals(big)).toBe(true);
    expect((await readAll(h, await walk(h, live, 'Mixed Case Name With Spaces.cfg'), 1024)).toString()).toBe('menu');
    expect(h.readCache.stats.opens).toBe(1); // one descriptor on the ISO for every file in it
    await h.readCache.close();
    // As stretches of the ISO file for sendfile: the same bytes.
    const bySendfile = harness([servedExport(1_000_004, '/iso/live', tree)]);
    const ctx = context('127.0.0.1', 'tcp', true);
    const file = await walk(bySendfile, await mountRoot(bySendfile, '/iso/live', ctx), 'live/filesystem.squashfs', ctx);
    expect((await readAll(bySendfile, file, 1024 * 1024, ctx)).equals(big)).toBe(true);
    expect(bySendfile.readCache.stats.borrows).toBeGreaterThan(0);
    await bySendfile.readCache.close();
  });

  it('a restart (same key) resolves a deep handle by walking the ISO', async () => {
    if (!tree) throw new Error('no ISO');
    const key = randomBytes(32);
    const h = harness([servedExport(1_000_004, '/iso/live', tree)], key);
    const deep = await walk(h, await mountRoot(h, '/iso/live'), 'a/b/c/d/e/f/g/h/i/j/deep.txt');
    const restarted = harness([servedExport(1_000_004, '/iso/live', tree)], key);
    expect((await read(restarted, deep, 0, 100)).data.toString()).toBe('deep');
    await h.readCache.close();
    await restarted.readCache.close();
  });
});
