import { describe, expect, it } from 'vitest';
import { MNT3, MOUNTPROC3, NFS3 } from '../../../../src-main/nfs/server/nfs3-constants.js';
import type { XdrReader } from '../../../../src-main/nfs/server/xdr.js';
import { memoryTree } from '../../../helpers/memory-tree.js';
import { call, context, getattr, harness, lookup, outcome, servedExport } from './nfs3-harness.js';

function setup() {
  const tree = memoryTree({ 'sub/dir/file': 'x', 'top.txt': 'y' });
  return harness([servedExport(1, '/live', tree, ['127.0.0.0/8']), servedExport(2, '/iso/debian', tree, ['10.0.0.0/8', '192.168.1.0/24'])]);
}

function mountList(reply: XdrReader): { host: string; dir: string }[] {
  const list: { host: string; dir: string }[] = [];
  while (reply.bool()) list.push({ host: reply.string(255), dir: reply.string(1024) });
  return list;
}

describe('MOUNT v3 program', () => {
  it('NULL; unknown procedures are PROC_UNAVAIL', async () => {
    const h = setup();
    const nul = await outcome(h.mount, MOUNTPROC3.NULL, () => undefined);
    expect(nul.status === 'success' && nul.results.length).toBe(0);
    expect((await outcome(h.mount, 6, () => undefined)).status).toBe('proc_unavail');
  });

  it('MNT gives the root handle and the auth flavors [AUTH_SYS, AUTH_NONE], and reports the mount', async () => {
    const h = setup();
    const reply = await call(h.mount, MOUNTPROC3.MNT, (w) => w.string('/live/'));
    expect(reply.uint32()).toBe(MNT3.OK);
    const handle = Buffer.from(reply.opaque(64));
    expect(handle.length).toBe(24);
    expect(reply.array(8, (r) => r.uint32())).toEqual([1, 0]);
    expect(reply.remaining()).toBe(0);
    expect((await getattr(h, handle)).status).toBe(NFS3.OK);
    expect(h.activity.events).toEqual([{ kind: 'mounted', client: '127.0.0.1', path: '/live' }]);
  });

  it('MNT of a subdirectory works (its ".." stays inside the export), of a file is NOTDIR, of anything else NOENT', async () => {
    const h = setup();
    const sub = await call(h.mount, MOUNTPROC3.MNT, (w) => w.string('/live/sub/dir'));
    expect(sub.uint32()).toBe(MNT3.OK);
    const handle = Buffer.from(sub.opaque(64));
    const up = await lookup(h, handle, '..');
    expect(up.status).toBe(NFS3.OK);
    expect((await call(h.mount, MOUNTPROC3.MNT, (w) => w.string('/live/top.txt'))).uint32()).toBe(MNT3.ERR_NOTDIR);
    for (const path of ['/nope', '/', '', '/liv', '/live/../etc', '/live/missing', '/live\0']) {
      expect((await call(h.mount, MOUNTPROC3.MNT, (w) => w.string(path))).uint32(), path).toBe(MNT3.ERR_NOENT);
    }
  });

  it('MNT from outside the export subnets is ACCES and reported as refused', async () => {
    const h = setup();
    expect((await call(h.mount, MOUNTPROC3.MNT, (w) => w.string('/iso/debian'))).uint32()).toBe(MNT3.ERR_ACCES);
    expect(h.activity.events).toEqual([{ kind: 'refused', client: '127.0.0.1', path: '/iso/debian' }]);
    expect((await call(h.mount, MOUNTPROC3.MNT, (w) => w.string('/iso/debian'), context('192.168.1.20'))).uint32()).toBe(MNT3.OK);
  });

  it('DUMP lists mounts; UMNT and UMNTALL remove them', async () => {
    const h = setup();
    await call(h.mount, MOUNTPROC3.MNT, (w) => w.string('/live'));
    await call(h.mount, MOUNTPROC3.MNT, (w) => w.string('/live/sub'));
    await call(h.mount, MOUNTPROC3.MNT, (w) => w.string('/iso/debian'), context('10.1.1.1'));
    expect(mountList(await call(h.mount, MOUNTPROC3.DUMP, () => undefined))).toEqual([
      { host: '127.0.0.1', dir: '/live' },
      { host: '127.0.0.1', dir: '/live/sub' },
      { host: '10.1.1.1', dir: '/iso/debian' },
    ]);
    const umnt = await call(h.mount, MOUNTPROC3.UMNT, (w) => w.string('/live/sub'));
    expect(umnt.remaining()).toBe(0);
    expect(h.activity.events.at(-1)).toEqual({ kind: 'unmounted', client: '127.0.0.1', path: '/live' });
    await call(h.mount, MOUNTPROC3.UMNTALL, () => undefined, context('10.1.1.1'));
    expect(h.activity.events.at(-1)).toEqual({ kind: 'unmounted', client: '10.1.1.1', path: null });
    expect(mountList(await call(h.mount, MOUNTPROC3.DUMP, () => undefined))).toEqual([{ host: '127.0.0.1', dir: '/live' }]);
  });

  it('EXPORT lists every export with its subnets as groups', async () => {
    const h = setup();
    const reply = await call(h.mount, MOUNTPROC3.EXPORT, () => undefined);
    const exports: { dir: string; groups: string[] }[] = [];
    while (reply.bool()) {
      const dir = reply.string(1024);
      const groups: string[] = [];
      while (reply.bool()) groups.push(reply.string(255));
      exports.push({ dir, groups });
    }
    expect(reply.remaining()).toBe(0);
    expect(exports).toEqual([
      { dir: '/live', groups: ['127.0.0.0/8'] },
      { dir: '/iso/debian', groups: ['10.0.0.0/8', '192.168.1.0/24'] },
    ]);
  });

  it('a dirpath over MNTPATHLEN does not decode (GARBAGE_ARGS through XdrError)', async () => {
    const h = setup();
    await expect(outcome(h.mount, MOUNTPROC3.MNT, (w) => w.string(`/${'x'.repeat(1100)}`))).rejects.toThrow(/over the limit/);
  });

  it('DUMP over UDP stops before a datagram overflows; over TCP it lists every mount', async () => {
    const entries: Record<string, { dir: true }> = {};
    const names = Array.from({ length: 60 }, (_, index) => `${'x'.repeat(200)}${index}`);
    for (const name of names) entries[name] = { dir: true };
    const h = harness([servedExport(1, '/live', memoryTree(entries), ['127.0.0.0/8'])]);
    for (let client = 1; client <= 5; client += 1) {
      for (const name of names) expect((await call(h.mount, MOUNTPROC3.MNT, (w) => w.string(`/live/${name}`), context(`127.0.0.${client}`))).uint32()).toBe(MNT3.OK);
    }
    const tcp = await call(h.mount, MOUNTPROC3.DUMP, () => undefined);
    expect(tcp.end).toBeGreaterThan(65_507);
    expect(mountList(tcp)).toHaveLength(300);
    const udp = await call(h.mount, MOUNTPROC3.DUMP, () => undefined, context('127.0.0.1', 'udp'));
    expect(udp.end).toBeLessThan(65_507 - 100);
    const listed = mountList(udp);
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.length).toBeLessThan(300);
  });
});
