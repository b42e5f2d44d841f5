import { describe, expect, it } from 'vitest';
import { ACCESS3, NF3, NFS3, NFSPROC3 } from '../../../../src-main/nfs/server/nfs3-constants.js';
import { fattr3, postOpAttr } from '../../../../src-main/nfs/server/nfs3-codec.js';
import { memoryTree } from '../../../helpers/memory-tree.js';
import { call, context, getattr, harness, listAll, lookup, mountRoot, outcome, read, readAll, readdir, servedExport, walk } from './nfs3-harness.js';

const big = Buffer.alloc(3 * 1024 * 1024 + 123);
for (let index = 0; index < big.length; index += 1) big[index] = (index * 31 + (index >> 11)) & 0xff;

function fixture() {
  const entries: Record<string, string | Buffer | { symlink: string } | { dir: true }> = {
    'boot/vmlinuz': big,
    'boot/initrd.img': 'initrd',
    'boot/link': { symlink: 'vmlinuz' },
    'empty/': { dir: true },
    'a/b/c/deep.txt': 'deep',
  };
  for (let index = 0; index < 300; index += 1) entries[`many/file-${String(index).padStart(3, '0')}`] = `#${index}`;
  return memoryTree(entries, { mtimeMs: Date.UTC(2024, 0, 2, 3, 4, 5, 678) });
}

async function setup(clients?: string[]) {
  const tree = fixture();
  const h = harness([servedExport(11, '/live', tree, clients)]);
  const root = await mountRoot(h, '/live');
  return { h, tree, root };
}

describe('NFS v3 program over a memory tree', () => {
  it('NULL answers empty; an unknown procedure is PROC_UNAVAIL', async () => {
    const { h } = await setup();
    const nul = await outcome(h.nfs, NFSPROC3.NULL, () => undefined);
    expect(nul.status === 'success' && nul.results.length).toBe(0);
    expect((await outcome(h.nfs, 22, () => undefined)).status).toBe('proc_unavail');
    expect((await outcome(h.nfs, 0xffffffff, () => undefined)).status).toBe('proc_unavail');
  });

  it('GETATTR gives the documented attributes', async () => {
    const { h, root } = await setup();
    const dir = await getattr(h, root);
    expect(dir.status).toBe(NFS3.OK);
    expect(dir.attrs).toMatchObject({ type: NF3.DIR, mode: 0o555, nlink: 2, uid: 0, gid: 0, fsid: 11n });
    const file = await getattr(h, await walk(h, root, 'boot/vmlinuz'));
    expect(file.attrs).toMatchObject({ type: NF3.REG, mode: 0o444, nlink: 1, size: BigInt(big.length), used: BigInt(Math.ceil(big.length / 4096) * 4096) });
    expect(file.attrs?.mtime).toEqual({ seconds: Math.floor(Date.UTC(2024, 0, 2, 3, 4, 5) / 1000), nseconds: 678_000_000 });
    expect(file.attrs?.atime).toEqual(file.attrs?.mtime);
  });

  it('LOOKUP: names, missing names, "/" and NUL in names, too long, and a file as the directory', async () => {
    const { h, root } = await setup();
    const boot = await lookup(h, root, 'boot');
    expect(boot.status).toBe(NFS3.OK);
    expect(boot.attrs?.type).toBe(NF3.DIR);
    expect(boot.dirAttrs?.type).toBe(NF3.DIR);
    expect((await lookup(h, root, 'nope')).status).toBe(NFS3.ERR_NOENT);
    expect((await lookup(h, root, 'boot/vmlinuz')).status).toBe(NFS3.ERR_NOENT);
    expect((await lookup(h, root, 'bo\0ot')).status).toBe(NFS3.ERR_NOENT);
    expect((await lookup(h, root, '')).status).toBe(NFS3.ERR_NOENT);
    expect((await lookup(h, root, Buffer.from([0xff, 0xfe]))).status).toBe(NFS3.ERR_NOENT);
    expect((await lookup(h, root, 'x'.repeat(256))).status).toBe(NFS3.ERR_NAMETOOLONG);
    const file = await walk(h, root, 'boot/initrd.img');
    const notDir = await lookup(h, file, 'x');
    expect(notDir.status).toBe(NFS3.ERR_NOTDIR);
    expect(notDir.dirAttrs?.type).toBe(NF3.REG);
  });

  it('".." walks up inside the export and never above its root; "." stays', async () => {
    const { h, root } = await setup();
    const rootId = (await getattr(h, root)).attrs?.fileid;
    const up = await lookup(h, root, '..');
    expect(up.status).toBe(NFS3.OK);
    expect(up.attrs?.fileid).toBe(rootId);
    let handle = await walk(h, root, 'a/b/c');
    const cId = (await getattr(h, handle)).attrs?.fileid;
    expect((await lookup(h, handle, '.')).attrs?.fileid).toBe(cId);
    const ids: bigint[] = [];
    for (let step = 0; step < 5; step += 1) {
      const parent = await lookup(h, handle, '..');
      expect(parent.status).toBe(NFS3.OK);
      if (!parent.handle || !parent.attrs) throw new Error('no handle');
      ids.push(parent.attrs.fileid);
      handle = parent.handle;
    }
    const b = (await getattr(h, await walk(h, root, 'a/b'))).attrs?.fileid;
    const a = (await getattr(h, await walk(h, root, 'a'))).attrs?.fileid;
    expect(ids).toEqual([b, a, rootId, rootId, rootId]);
  });

  it('READ is byte-exact in 1 MiB calls, caps the count, sets eof and reports bytes', async () => {
    const { h, root } = await setup();
    const file = await walk(h, root, 'boot/vmlinuz');
    expect((await readAll(h, file, 1024 * 1024)).equals(big)).toBe(true);
    const huge = await read(h, file, 0, 0xffffffff);
    expect(huge.data.length).toBe(1024 * 1024);
    expect(huge.eof).toBe(false);
    const udp = await read(h, file, 0, 1024 * 1024, context('127.0.0.1', 'udp'));
    expect(udp.data.length).toBe(32 * 1024);
    const tail = await read(h, file, big.length - 10, 100);
    expect(tail.data.equals(big.subarray(big.length - 10))).toBe(true);
    expect(tail.eof).toBe(true);
    const past = await read(h, file, 2n ** 63n, 100);
    expect(past.status).toBe(NFS3.OK);
    expect(past.data.length).toBe(0);
    expect(past.eof).toBe(true);
    const odd = await read(h, file, 5, 3);
    expect(odd.data.equals(big.subarray(5, 8))).toBe(true);
    expect(h.activity.readBytes).toBeGreaterThanOrEqual(big.length);
  });

  it('READ of a directory is ISDIR, of a symlink INVAL', async () => {
    const { h, root } = await setup();
    expect((await read(h, root, 0, 10)).status).toBe(NFS3.ERR_ISDIR);
    const link = await lookup(h, await walk(h, root, 'boot'), 'link');
    if (!link.handle) throw new Error('no handle');
    expect(link.attrs?.type).toBe(NF3.LNK);
    expect((await read(h, link.handle, 0, 10)).status).toBe(NFS3.ERR_INVAL);
  });

  it('READLINK returns the target as recorded; on a file it is INVAL', async () => {
    const { h, root } = await setup();
    const link = await walk(h, root, 'boot/link');
    const reply = await call(h.nfs, NFSPROC3.READLINK, (w) => w.opaque(link));
    expect(reply.uint32()).toBe(NFS3.OK);
    expect(postOpAttr.decode(reply)?.type).toBe(NF3.LNK);
    expect(reply.string(4096)).toBe('vmlinuz');
    const file = await walk(h, root, 'boot/initrd.img');
    expect((await call(h.nfs, NFSPROC3.READLINK, (w) => w.opaque(file))).uint32()).toBe(NFS3.ERR_INVAL);
  });

  it('ACCESS grants read/lookup/execute by the mode, never modify/extend/delete', async () => {
    const { h, root } = await setup();
    const all = 0x3f;
    const dirReply = await call(h.nfs, NFSPROC3.ACCESS, (w) => w.opaque(root).uint32(all));
    expect(dirReply.uint32()).toBe(NFS3.OK);
    postOpAttr.decode(dirReply);
    expect(dirReply.uint32()).toBe(ACCESS3.READ | ACCESS3.LOOKUP);
    const file = await walk(h, root, 'boot/initrd.img');
    const fileReply = await call(h.nfs, NFSPROC3.ACCESS, (w) => w.opaque(file).uint32(all));
    expect(fileReply.uint32()).toBe(NFS3.OK);
    postOpAttr.decode(fileReply);
    expect(fileReply.uint32()).toBe(ACCESS3.READ); // 0444: no execute
  });

  it('READDIR pages through a directory by cookies within the count', async () => {
    const { h, root } = await setup();
    const many = await walk(h, root, 'many');
    const entries = await listAll(h, many, 512);
    expect(entries.map((entry) => entry.name)).toEqual(Array.from({ length: 300 }, (_, index) => `file-${String(index).padStart(3, '0')}`));
    expect(entries.map((entry) => entry.cookie)).toEqual(Array.from({ length: 300 }, (_, index) => BigInt(index + 1)));
    const first = await readdir(h, many, 0n, Buffer.alloc(8), 512);
    expect(first.entries.length).toBeGreaterThan(3);
    expect(first.entries.length).toBeLessThan(300);
    expect(first.eof).toBe(false);
    const whole = await readdir(h, many, 0n, Buffer.alloc(8), 1024 * 1024);
    expect(whole.entries.length).toBe(300);
    expect(whole.eof).toBe(true);
  });

  it('READDIR: cookies out of range and changed verifiers are BAD_COOKIE; too small a count TOOSMALL; the end is an empty eof page', async () => {
    const { h, root } = await setup();
    const many = await walk(h, root, 'many');
    const first = await readdir(h, many, 0n, Buffer.alloc(8), 4096);
    expect((await readdir(h, many, 301n, first.verf, 4096)).status).toBe(NFS3.ERR_BAD_COOKIE);
    expect((await readdir(h, many, 2n ** 64n - 1n, first.verf, 4096)).status).toBe(NFS3.ERR_BAD_COOKIE);
    const wrongVerf = Buffer.from(first.verf);
    wrongVerf[7] = (wrongVerf[7] ?? 0) ^ 1;
    expect((await readdir(h, many, 5n, wrongVerf, 4096)).status).toBe(NFS3.ERR_BAD_COOKIE);
    const end = await readdir(h, many, 300n, first.verf, 4096);
    expect(end.status).toBe(NFS3.OK);
    expect(end.entries).toEqual([]);
    expect(end.eof).toBe(true);
    expect((await readdir(h, many, 0n, Buffer.alloc(8), 100)).status).toBe(NFS3.ERR_TOOSMALL);
    const empty = await readdir(h, await walk(h, root, 'empty'), 0n, Buffer.alloc(8), 200);
    expect(empty.status).toBe(NFS3.OK);
    expect(empty.entries).toEqual([]);
    expect(empty.eof).toBe(true);
    const file = await walk(h, root, 'boot/initrd.img');
    expect((await readdir(h, file, 0n, Buffer.alloc(8), 4096)).status).toBe(NFS3.ERR_NOTDIR);
  });

  it('READDIRPLUS returns attributes and handles that work, within maxcount', async () => {
    const { h, root } = await setup();
    const boot = await walk(h, root, 'boot');
    const page = await readdir(h, boot, 0n, Buffer.alloc(8), 8192, true);
    expect(page.status).toBe(NFS3.OK);
    expect(page.entries.map((entry) => entry.name)).toEqual(['vmlinuz', 'initrd.img', 'link']);
    const vmlinuz = page.entries[0];
    if (!vmlinuz?.handle) throw new Error('no handle');
    expect(vmlinuz.attrs?.size).toBe(BigInt(big.length));
    expect((await read(h, vmlinuz.handle, 0, 16)).data.equals(big.subarray(0, 16))).toBe(true);
    const many = await walk(h, root, 'many');
    const all = await listAll(h, many, 1500, true);
    expect(all.length).toBe(300);
    expect(all.every((entry) => entry.handle && entry.attrs)).toBe(true);
  });

  it('READDIRPLUS encodes an entry once per kept listing: the next walk gets the same bytes without new handles', async () => {
    const { h, root } = await setup();
    const many = await walk(h, root, 'many');
    let handles = 0;
    const handleFor = h.index.handleFor.bind(h.index);
    h.index.handleFor = (served, node) => {
      handles += 1;
      return handleFor(served, node);
    };
    const first = await listAll(h, many, 4000, true);
    expect(handles).toBe(300);
    const again = await listAll(h, many, 4000, true);
    expect(handles).toBe(300);
    expect(again).toEqual(first);
    // Pages of another size cut the same encoded entries elsewhere.
    expect(await listAll(h, many, 1500, true)).toEqual(first);
    expect(handles).toBe(300);
    // READDIR keeps its own encoding of the same listing.
    expect((await listAll(h, many, 1500, false)).map((entry) => entry.name)).toEqual(first.map((entry) => entry.name));
  });

  it('two exports sharing a listing (one tree) each answer with their own fsid and handles', async () => {
    const tree = fixture();
    const kept = new Map<string, ReturnType<typeof tree.list>>();
    const list = tree.list.bind(tree);
    // Like an ISO tree: the same listing array for every caller.
    tree.list = (path: string) => {
      const found = kept.get(path) ?? list(path);
      kept.set(path, found);
      return found;
    };
    const h = harness([servedExport(11, '/one', tree), servedExport(12, '/two', tree)]);
    const pages = [];
    for (const path of ['/one', '/two']) {
      const dir = await walk(h, await mountRoot(h, path), 'boot');
      pages.push(await listAll(h, dir, 4000, true));
    }
    const [one, two] = pages;
    expect(one?.map((entry) => entry.attrs?.fsid)).toEqual([11n, 11n, 11n]);
    expect(two?.map((entry) => entry.attrs?.fsid)).toEqual([12n, 12n, 12n]);
    const handle = two?.[0]?.handle;
    if (!handle) throw new Error('no handle');
    expect((await getattr(h, handle)).attrs).toMatchObject({ fsid: 12n, size: BigInt(big.length) });
  });

  it('FSINFO, FSSTAT and PATHCONF', async () => {
    const { h, root } = await setup();
    const info = await call(h.nfs, NFSPROC3.FSINFO, (w) => w.opaque(root));
    expect(info.uint32()).toBe(NFS3.OK);
    expect(postOpAttr.decode(info)?.type).toBe(NF3.DIR);
    expect([info.uint32(), info.uint32(), info.uint32()]).toEqual([1048576, 1048576, 4096]);
    info.uint32();
    info.uint32();
    info.uint32();
    expect(info.uint32()).toBe(65536);
    expect(info.uint64()).toBe(2n ** 63n - 1n);
    expect([info.uint32(), info.uint32()]).toEqual([1, 0]);
    expect(info.uint32()).toBe(0x02 | 0x08);
    expect(info.remaining()).toBe(0);
    const udpInfo = await call(h.nfs, NFSPROC3.FSINFO, (w) => w.opaque(root), context('127.0.0.1', 'udp'));
    udpInfo.uint32();
    postOpAttr.decode(udpInfo);
    expect(udpInfo.uint32()).toBe(32768);
    const stat = await call(h.nfs, NFSPROC3.FSSTAT, (w) => w.opaque(root));
    expect(stat.uint32()).toBe(NFS3.OK);
    postOpAttr.decode(stat);
    for (let index = 0; index < 6; index += 1) stat.uint64();
    stat.uint32();
    expect(stat.remaining()).toBe(0);
    const conf = await call(h.nfs, NFSPROC3.PATHCONF, (w) => w.opaque(root));
    expect(conf.uint32()).toBe(NFS3.OK);
    postOpAttr.decode(conf);
    expect([conf.uint32(), conf.uint32(), conf.bool(), conf.bool(), conf.bool(), conf.bool()]).toEqual([1, 255, true, true, false, true]);
  });

  it('every write procedure answers ROFS with its wcc data', async () => {
    const { h, root } = await setup();
    const file = await walk(h, root, 'boot/initrd.img');
    const procedures = [
      NFSPROC3.SETATTR,
      NFSPROC3.WRITE,
      NFSPROC3.CREATE,
      NFSPROC3.MKDIR,
      NFSPROC3.SYMLINK,
      NFSPROC3.MKNOD,
      NFSPROC3.REMOVE,
      NFSPROC3.RMDIR,
      NFSPROC3.RENAME,
      NFSPROC3.LINK,
      NFSPROC3.COMMIT,
    ];
    for (const procedure of procedures) {
      const handle = procedure === NFSPROC3.WRITE || procedure === NFSPROC3.SETATTR || procedure === NFSPROC3.COMMIT || procedure === NFSPROC3.LINK ? file : root;
      const reply = await call(h.nfs, procedure, (w) => w.opaque(handle).string('name').uint64(0n).uint32(0));
      expect(reply.uint32(), `procedure ${procedure}`).toBe(NFS3.ERR_ROFS);
      if (procedure === NFSPROC3.LINK) {
        expect(postOpAttr.decode(reply)?.fileid).toBeDefined();
        expect(reply.bool()).toBe(false);
        postOpAttr.decode(reply);
      } else {
        const wccs = procedure === NFSPROC3.RENAME ? 2 : 1;
        for (let index = 0; index < wccs; index += 1) {
          expect(reply.bool()).toBe(false); // no pre_op_attr
          const after = postOpAttr.decode(reply);
          if (index === 0) expect(after?.fsid).toBe(11n);
        }
      }
      expect(reply.remaining(), `procedure ${procedure}`).toBe(0);
    }
    const bad = await call(h.nfs, NFSPROC3.WRITE, (w) => w.opaque(Buffer.alloc(32)));
    expect(bad.uint32()).toBe(NFS3.ERR_BADHANDLE);
  });

  it('handles: forged ones are BADHANDLE, a removed export STALE, a client outside the subnets ACCES (and reported)', async () => {
    const { h, root } = await setup(['127.0.0.0/8']);
    for (const forged of [Buffer.alloc(24), Buffer.alloc(32), root.subarray(0, 23), Buffer.concat([root, Buffer.alloc(4)]), Buffer.alloc(64, 1)]) {
      expect((await getattr(h, forged)).status).toBe(NFS3.ERR_BADHANDLE);
    }
    const flipped = Buffer.from(root);
    flipped[10] = (flipped[10] ?? 0) ^ 0x40;
    expect((await getattr(h, flipped)).status).toBe(NFS3.ERR_BADHANDLE);
    const file = await walk(h, root, 'boot/vmlinuz');
    expect((await getattr(h, root, context('192.168.1.5'))).status).toBe(NFS3.ERR_ACCES);
    expect((await read(h, file, 0, 10, context('192.168.1.5'))).status).toBe(NFS3.ERR_ACCES);
    expect((await lookup(h, root, 'boot', context('192.168.1.5'))).status).toBe(NFS3.ERR_ACCES);
    expect(h.activity.count('refused')).toBe(3);
    h.exports.exports = [];
    h.nfs.exportsChanged();
    expect((await getattr(h, root)).status).toBe(NFS3.ERR_STALE);
    expect((await read(h, file, 0, 10)).status).toBe(NFS3.ERR_STALE);
  });

  it('a READ right after the export was swapped for another tree re-resolves (cached files belong to their tree)', async () => {
    const { h, root } = await setup();
    const file = await walk(h, root, 'boot/vmlinuz');
    expect((await read(h, file, 0, 4)).data.equals(big.subarray(0, 4))).toBe(true);
    const other = memoryTree({ 'boot/other': 'x' });
    h.exports.exports = [servedExport(11, '/live', other)];
    expect((await read(h, file, 0, 4)).status).toBe(NFS3.ERR_STALE);
  });

  it('fattr3 round-trips through its codec', async () => {
    const { h, root } = await setup();
    const attrs = (await getattr(h, root)).attrs;
    if (!attrs) throw new Error('no attrs');
    const { XdrReader, XdrWriter } = await import('../../../../src-main/nfs/server/xdr.js');
    const writer = new XdrWriter();
    fattr3.encode(writer, attrs);
    expect(writer.length).toBe(fattr3.encodingLength());
    expect(fattr3.decode(new XdrReader(writer.toBuffer()))).toEqual(attrs);
  });

  it('READ places the data in the reply by reference: one chunk of exactly the data', async () => {
    const { h, root } = await setup();
    const file = await walk(h, root, 'boot/vmlinuz');
    const result = await outcome(h.nfs, NFSPROC3.READ, (w) => w.opaque(file).uint64(4n).uint32(100_001));
    if (result.status !== 'success') throw new Error(result.status);
    const chunks = result.results.toBuffers();
    const data = chunks.find((chunk) => chunk.length === 100_001);
    expect(data?.equals(big.subarray(4, 100_005))).toBe(true);
    // Header before it (status, post_op_attr, count, eof, length), 3 bytes of padding after it.
    expect(chunks.reduce((sum, chunk) => sum + chunk.length, 0)).toBe(4 + 88 + 4 + 4 + 4 + 100_004);
  });
});
