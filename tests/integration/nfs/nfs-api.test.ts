import { copyFile, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import type { NfsPathCheck, NfsSettingsView, NfsStatus } from '../../../src-main/nfs/nfs-contract.js';
import type { BrowseResult } from '../../../src-main/files/files-contract.js';
import { buildIso, isoToolPresent, makeIsoWorkDir, mediaEntries } from '../../helpers/iso-fixtures.js';
import { UBUNTU_DESKTOP } from '../../helpers/os-media.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

let t: TestCore;
let work: { dir: string; remove: () => Promise<void> };
let library: string;
let outside: string;

interface Reply<T> {
  status: number;
  body: { success: boolean; data: T; error?: string; code?: string; details?: { field: string; message: string }[] };
}

async function call<T>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, role: Role, payload?: unknown): Promise<Reply<T>> {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as Reply<T>['body'] };
}

async function until<T>(what: string, probe: () => T | undefined | false, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i += 1) {
    const value = probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const fieldsOf = (reply: Reply<unknown>) => (reply.body.details ?? []).map((detail) => detail.field);

beforeAll(async () => {
  work = await tempDir('bootwright-nfs-api-');
  library = path.join(work.dir, 'library');
  outside = path.join(work.dir, 'outside');
  await mkdir(path.join(library, 'live', 'casper'), { recursive: true });
  await writeFile(path.join(library, 'live', 'casper', 'vmlinuz'), 'kernel');
  await mkdir(path.join(library, 'empty'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'secret'), 'no');
  await symlink(outside, path.join(library, 'escape'));
  t = await createTestCore({ authenticator: roleAuthenticator, config: { allowedRoots: [library] } });
  await t.core.start();
});
afterAll(async () => {
  await t?.close();
  await work?.remove();
});

describe('GET/PUT /services/nfs', () => {
  it('shows the defaults to a viewer, with a handle key stored but never shown', async () => {
    const res = await call<NfsSettingsView>('GET', '/services/nfs', 'viewer');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ enabled: false, nfs_port: 2049, mount_port: 20048, portmapper: 'auto', udp: true, export_mounted_images: true, exports: [] });
    expect(Array.isArray(res.body.data.image_clients)).toBe(true);
    expect(res.body.data).not.toHaveProperty('handle_key');
    expect(Buffer.from(t.core.area('nfs').settings.get().handle_key, 'base64')).toHaveLength(32);
  });

  it('sets image_clients and puts it back to the served interfaces with null', async () => {
    const set = await call<NfsSettingsView>('PUT', '/services/nfs', 'admin', { image_clients: ['10.9.0.0/16'] });
    expect(set.body.data.image_clients).toEqual(['10.9.0.0/16']);
    expect(set.body.data.image_clients_default).toBe(false);
    expect(t.core.area('nfs').settings.get().image_clients).toEqual(['10.9.0.0/16']);
    const reset = await call<NfsSettingsView>('PUT', '/services/nfs', 'admin', { image_clients: null });
    expect(reset.status, reset.body.error).toBe(200);
    expect(t.core.area('nfs').settings.get().image_clients).toBeNull();
    expect(reset.body.data.image_clients).not.toContain('10.9.0.0/16');
    expect(reset.body.data.image_clients_default).toBe(true);
    expect(fieldsOf(await call('PUT', '/services/nfs', 'admin', { image_clients: ['not-a-subnet'] }))).toEqual(['body.image_clients.0']);
  });

  it('round-trips exports with stable ids that are never reused, and swaps the table without a restart', async () => {
    const live = path.join(library, 'live');
    const first = await call<NfsSettingsView>('PUT', '/services/nfs', 'admin', {
      exports: [
        { path: '/live', folder: live, clients: ['127.0.0.0/8', '::1'], comment: 'casper' },
        { path: '/scratch', folder: path.join(library, 'empty'), clients: ['10.0.0.0/8'] },
      ],
    });
    expect(first.status, first.body.error).toBe(200);
    expect(first.body.data.exports).toEqual([
      { id: 1, path: '/live', folder: live, image_id: null, clients: ['127.0.0.0/8', '::1'], enabled: true, comment: 'casper', problem: null },
      { id: 2, path: '/scratch', folder: path.join(library, 'empty'), image_id: null, clients: ['10.0.0.0/8'], enabled: true, comment: '', problem: null },
    ]);
    const table = t.core.area('nfs').exports;
    expect(table.byPath('/live')?.allows('127.0.0.1')).toBe(true);
    expect((await table.byPath('/live')?.tree.read('casper/vmlinuz', 0, 10))?.toString()).toBe('kernel');
    // GET answers what PUT stored.
    expect((await call<NfsSettingsView>('GET', '/services/nfs', 'viewer')).body.data.exports).toEqual(first.body.data.exports);
    // Drop 2, add one: it gets 3.
    const second = await call<NfsSettingsView>('PUT', '/services/nfs', 'admin', {
      exports: [{ id: 1, path: '/live', folder: live, clients: ['127.0.0.0/8', '::1'], comment: 'casper' }, { path: '/scratch2', folder: path.join(library, 'empty'), clients: ['10.0.0.0/8'] }],
    });
    expect(second.body.data.exports.map((entry) => [entry.id, entry.path])).toEqual([
      [1, '/live'],
      [3, '/scratch2'],
    ]);
    expect(table.byId(2)).toBeUndefined();
    expect(table.byId(3)?.path).toBe('/scratch2');
    const status = await call<NfsStatus>('GET', '/services/nfs/status', 'viewer');
    expect(status.body.data.exports.map((entry) => [entry.id, entry.path, entry.problem])).toEqual([
      [1, '/live', null],
      [3, '/scratch2', null],
    ]);
    expect(t.core.kernel.events.all().filter((event) => event.kind === 'nfs.exports.changed').length).toBeGreaterThanOrEqual(2);
  });

  it('answers 400 naming each bad field', async () => {
    const res = await call('PUT', '/services/nfs', 'admin', {
      exports: [
        { path: '/out', folder: outside, clients: ['10.0.0.0/8'] },
        { path: '/esc', folder: path.join(library, 'escape'), clients: ['10.0.0.0/8'] },
        { path: '/img', image_id: 4242, clients: ['10.0.0.0/8'] },
        { path: '/bad', folder: path.join(library, 'live'), clients: ['10.0.0.0/8', '300.1.1.1/8'] },
        { path: '/iso/x', folder: path.join(library, 'live'), clients: ['10.0.0.0/8'] },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(fieldsOf(res)).toEqual(['body.exports.0.folder', 'body.exports.1.folder', 'body.exports.2.image_id', 'body.exports.3.clients.1', 'body.exports.4.path']);
    expect(res.body.details?.[0]?.message).toContain('outside the allowed roots');
    expect(res.body.details?.[1]?.message).toContain(`resolves to ${outside}`);
    // The schema's own checks name fields the same way.
    const schema = await call('PUT', '/services/nfs', 'admin', { exports: [{ path: 'relative', folder: outside, clients: ['10.0.0.0/8'] }] });
    expect(schema.status).toBe(400);
    expect(fieldsOf(schema)).toEqual(['body.exports.0.path']);
    expect(fieldsOf(await call('PUT', '/services/nfs', 'admin', { mount_port: 2049 }))).toEqual(['body.mount_port']);
    // Nothing changed.
    expect((await call<NfsSettingsView>('GET', '/services/nfs', 'viewer')).body.data.exports.map((entry) => entry.id)).toEqual([1, 3]);
  });

  it('lets an operator change UDP and the portmapper, but not exports or ports; a viewer only reads', async () => {
    const current = (await call<NfsSettingsView>('GET', '/services/nfs', 'viewer')).body.data;
    const sameExports = current.exports.map(({ problem: _problem, ...entry }) => entry);
    expect((await call('PUT', '/services/nfs', 'operator', { udp: false, portmapper: 'own', exports: sameExports })).status).toBe(200);
    expect((await call('PUT', '/services/nfs', 'operator', { exports: [] })).status).toBe(403);
    expect((await call('PUT', '/services/nfs', 'operator', { nfs_port: 3049 })).status).toBe(403);
    expect((await call('PUT', '/services/nfs', 'viewer', { udp: true })).status).toBe(403);
    expect((await call('GET', '/services/nfs/status', 'viewer')).status).toBe(200);
    expect((await call('POST', '/services/nfs/validate-path', 'operator', { path: library })).status).toBe(403);
    expect((await call('GET', '/services/nfs/browse-path', 'operator')).status).toBe(403);
    const stored = t.core.area('nfs').settings.get();
    expect(stored).toMatchObject({ udp: false, portmapper: 'own', nfs_port: 2049 });
    expect(stored.exports.map((entry) => entry.id)).toEqual([1, 3]);
    await call('PUT', '/services/nfs', 'admin', { udp: true, portmapper: 'auto' });
  });

  it('audits changes with the exports asked for, refused attempts included', async () => {
    const rows = t.core.kernel.audit.all().filter((row) => row.action === 'services.nfs.update');
    expect(rows.length).toBeGreaterThan(3);
    const refused = rows.find((row) => row.status === 403 && row.detail?.exports === '');
    expect(refused).toBeDefined();
    const created = rows.find((row) => row.status === 200 && row.detail?.added_ids === '3');
    expect(created?.detail).toMatchObject({ removed_ids: '2' });
    expect(created?.detail?.exports).toContain('/scratch2=');
    expect(rows.some((row) => row.status === 400 && (row.detail?.exports ?? '').includes(`/out=${outside}`))).toBe(true);
  });

  it('shows an export whose allowed root was removed as not served, with why', async () => {
    const other = path.join(work.dir, 'other-root');
    await mkdir(path.join(other, 'data'), { recursive: true });
    expect((await call('PUT', '/settings/served-roots', 'admin', { allowed_roots: [other] })).status).toBe(200);
    const put = await call<NfsSettingsView>('PUT', '/services/nfs', 'admin', {
      exports: [{ id: 1, path: '/live', clients: ['127.0.0.0/8', '::1'] }, { id: 3, path: '/scratch2', clients: ['10.0.0.0/8'] }, { path: '/data', folder: path.join(other, 'data'), clients: ['10.0.0.0/8'] }],
    });
    expect(put.status, put.body.error).toBe(200);
    expect(t.core.area('nfs').exports.byId(4)?.path).toBe('/data');
    // The admin removes the root: the export stops being served at once (servedRoots.onChange).
    expect((await call('PUT', '/settings/served-roots', 'admin', { allowed_roots: [] })).status).toBe(200);
    expect(t.core.area('nfs').exports.byId(4)).toBeUndefined();
    const view = (await call<NfsSettingsView>('GET', '/services/nfs', 'viewer')).body.data;
    expect(view.exports.find((entry) => entry.id === 4)?.problem).toContain('outside the allowed roots');
    expect(view.exports.find((entry) => entry.id === 1)?.problem).toBeNull();
    await call('PUT', '/services/nfs', 'admin', { exports: [{ id: 1, path: '/live', clients: ['127.0.0.0/8', '::1'] }] });
  });
});

describe('POST /services/nfs/validate-path and GET /services/nfs/browse-path', () => {
  it('validates a good folder, warns when it is empty or already exported', async () => {
    const live = await call<NfsPathCheck>('POST', '/services/nfs/validate-path', 'admin', { path: path.join(library, 'live') });
    expect(live.status).toBe(200);
    expect(live.body.data).toEqual({ path: path.join(library, 'live'), real_path: path.join(library, 'live'), valid: true, problems: [], warnings: ['already exported as /live'] });
    const empty = await call<NfsPathCheck>('POST', '/services/nfs/validate-path', 'admin', { path: path.join(library, 'empty') });
    expect(empty.body.data.valid).toBe(true);
    expect(empty.body.data.warnings).toEqual([`${path.join(library, 'empty')} is empty: clients would mount an empty folder`]);
  });

  it('refuses traversal, NUL, a symlink out (with its real path), a file, a missing folder and a folder outside the roots', async () => {
    const check = async (candidate: string) => (await call<NfsPathCheck>('POST', '/services/nfs/validate-path', 'admin', { path: candidate })).body.data;
    const traversal = await check(`${library}/live/../../outside`);
    expect(traversal).toMatchObject({ valid: false, real_path: null });
    expect(traversal.problems[0]).toContain('..');
    expect((await check(`${library}/live\u0000`)).valid).toBe(false);
    const escape = await check(path.join(library, 'escape'));
    expect(escape).toMatchObject({ valid: false, real_path: outside });
    expect(escape.problems.join(' ')).toContain(`resolves to ${outside}`);
    expect((await check(path.join(library, 'live', 'casper', 'vmlinuz'))).problems).toEqual([`${path.join(library, 'live', 'casper', 'vmlinuz')} is not a directory`]);
    expect((await check(path.join(library, 'nope'))).problems).toEqual([`${path.join(library, 'nope')} does not exist`]);
    expect((await check(outside)).problems.join(' ')).toContain('outside the allowed roots');
    expect((await check('relative/path')).valid).toBe(false);
  });

  it('browses directories only, inside the allowed roots; refuses traversal and symlinks out', async () => {
    const top = await call<BrowseResult>('GET', '/services/nfs/browse-path', 'admin');
    expect(top.status).toBe(200);
    expect(top.body.data.path).toBeNull();
    expect(top.body.data.roots).toContain(library);
    const inside = await call<BrowseResult>('GET', `/services/nfs/browse-path?path=${encodeURIComponent(path.join(library, 'live'))}`, 'admin');
    expect(inside.status).toBe(200);
    expect(inside.body.data.entries.map((entry) => [entry.name, entry.type])).toEqual([['casper', 'directory']]);
    const files = await call<BrowseResult>('GET', `/services/nfs/browse-path?path=${encodeURIComponent(path.join(library, 'live', 'casper'))}`, 'admin');
    expect(files.body.data.entries).toEqual([]);
    const listing = await call<BrowseResult>('GET', `/services/nfs/browse-path?path=${encodeURIComponent(library)}`, 'admin');
    // The symlink leading out is not listed.
    expect(listing.body.data.entries.map((entry) => entry.name)).toEqual(['empty', 'live']);
    for (const bad of [`${library}/live/../..`, path.join(library, 'escape'), outside, `${library}/live%00`]) {
      const res = await call('GET', `/services/nfs/browse-path?path=${encodeURIComponent(bad)}`, 'admin');
      expect(res.status, bad).toBe(400);
    }
    expect((await call('GET', '/services/nfs/browse-path?show=all', 'admin')).status).toBe(400);
  });

  it('does not fall into POST /services/:name/:action, which still runs the lifecycle', async () => {
    // Ephemeral ports and no portmapper: the test must not take 2049 or 111 on this machine.
    const [nfsPort, mountPort] = [await freeTcpPort(), await freeTcpPort()];
    const configured = await call('PUT', '/services/nfs', 'admin', { nfs_port: nfsPort, mount_port: mountPort, portmapper: 'off', udp: false });
    expect(configured.status, configured.body.error).toBe(200);
    const started = await call<{ name: string; state: string }>('POST', '/services/nfs/start', 'operator');
    expect(started.status, started.body.error).toBe(200);
    expect(started.body.data).toMatchObject({ name: 'nfs', state: 'running' });
    const status = await call<NfsStatus>('GET', '/services/nfs/status', 'viewer');
    expect(status.body.data).toMatchObject({ portmapper: { mode: 'none' }, clients: [], requests: 0, bytes_read: 0, refused: 0 });
    expect(status.body.data.listen).toEqual([`tcp 0.0.0.0:${nfsPort}`, `tcp 0.0.0.0:${mountPort}`]);
    expect((await call<{ state: string }>('POST', '/services/nfs/stop', 'operator')).body.data.state).toBe('stopped');
    expect((await call('POST', '/services/nfs/validate-path', 'admin', { path: library })).status).toBe(200);
  });
});

describe('automatic exports of mounted images', () => {
  it('exports a mounted ISO at /iso/<slug> and drops it when unmounted', async () => {
    if (!isoToolPresent('xorriso', 'the NFS image export test')) return;
    const isoDir = await makeIsoWorkDir('bw-nfs-iso-');
    const iso = await buildIso(isoDir, 'live.iso', { entries: [{ kind: 'dir', path: 'casper' }, { kind: 'file', path: 'casper/vmlinuz', content: 'live kernel' }] });
    const copy = path.join(library, 'live-image.iso');
    await copyFile(iso, copy);
    expect((await call('PUT', '/services/nfs', 'operator', { image_clients: ['127.0.0.0/8'] })).status).toBe(200);
    const imported = await call<{ id: number; slug: string }>('POST', '/os-images/import', 'operator', { path: copy });
    expect(imported.status, imported.body.error).toBe(201);
    const { id, slug } = imported.body.data;
    const mounted = await call('POST', `/os-images/${id}/mount`, 'operator');
    expect(mounted.status, mounted.body.error).toBe(200);
    const table = t.core.area('nfs').exports;
    // The table follows os_image.mounted by itself.
    const served = await until('the image export', () => table.byPath(`/iso/${slug}`));
    expect(served?.id).toBe(1_000_000 + id);
    expect(served?.allows('127.0.0.1')).toBe(true);
    expect(served?.allows('10.0.0.1')).toBe(false);
    expect((await served?.tree.read('casper/vmlinuz', 0, 100))?.toString()).toBe('live kernel');
    const status = (await call<NfsStatus>('GET', '/services/nfs/status', 'viewer')).body.data;
    expect(status.exports.find((entry) => entry.automatic)).toMatchObject({ id: 1_000_000 + id, path: `/iso/${slug}`, clients: ['127.0.0.0/8'], problem: null });
    // A stored export may not sit under /iso while images are exported there.
    const clash = await call('PUT', '/services/nfs', 'admin', { exports: [{ path: `/iso/${slug}`, folder: path.join(library, 'live'), clients: ['10.0.0.0/8'] }] });
    expect(fieldsOf(clash)).toEqual(['body.exports.0.path']);
    expect((await call('POST', `/os-images/${id}/unmount`, 'operator')).status).toBe(200);
    await until('the image export to go', () => table.byPath(`/iso/${slug}`) === undefined);
    await rm(isoDir, { recursive: true, force: true });
  });
});

describe('boot this ISO over NFS (POST /os-images/{id}/boot-profile with via nfs)', () => {
  it("makes a casper profile whose rendered nfsroot is the image's export, serving the live system's squashfs; refused while image exports are off", async () => {
    if (!isoToolPresent('xorriso', 'the NFS boot profile test')) return;
    const isoDir = await makeIsoWorkDir('bw-nfs-boot-');
    const iso = await buildIso(isoDir, 'ubuntu-live.iso', { entries: mediaEntries({ ...UBUNTU_DESKTOP, 'casper/filesystem.squashfs': 'the live root' }) });
    const copy = path.join(library, 'ubuntu-22.04-live.iso');
    await copyFile(iso, copy);
    const imported = await call<{ id: number; slug: string }>('POST', '/os-images/import', 'operator', { path: copy });
    expect(imported.status, imported.body.error).toBe(201);
    const { id, slug } = imported.body.data;
    await until('the detection', () => t.core.area('os-images').get(id)?.detection?.family === 'ubuntu');

    expect((await call('PUT', '/services/nfs', 'admin', { export_mounted_images: false })).status).toBe(200);
    const off = await call('POST', `/os-images/${id}/boot-profile`, 'operator', { via: 'nfs' });
    expect(off.status).toBe(409);
    expect(off.body.error).toMatch(/export_mounted_images is off/);
    expect(t.core.area('os-images').get(id)?.mounted).toBeNull();

    expect((await call('PUT', '/services/nfs', 'admin', { export_mounted_images: true, image_clients: ['127.0.0.0/8'] })).status).toBe(200);
    const made = await call<{ profile: { id: number; name: string; linux: { cmdline: string } }; notes: string[] }>('POST', `/os-images/${id}/boot-profile`, 'operator', { via: 'nfs' });
    expect(made.status, made.body.error).toBe(201);
    expect(made.body.data.profile.name).toBe(`ISO ${slug} (NFS)`);
    expect(made.body.data.profile.linux.cmdline).toContain(`netboot=nfs nfsroot={{ server.ip }}:/iso/${slug}`);
    // The NFS service is off in this core: the notes say so, and who may mount.
    expect(made.body.data.notes.join(' ')).toMatch(/NFS service is not running/);
    expect(made.body.data.notes.join(' ')).toMatch(/Clients allowed to mount it: 127\.0\.0\.0\/8/);

    // What a machine gets, and that the path in its nfsroot is served: casper finds casper/filesystem.squashfs there.
    const netboot = t.core.kernel.settings.netboot();
    await t.core.kernel.settings.update({ netboot: { ...netboot, default_action: 'profile', default_profile_id: made.body.data.profile.id } });
    const script = (await t.core.http.inject({ method: 'GET', url: '/boot/ipxe/boot.ipxe?mac=52%3A54%3A00%3A00%3A0a%3A01&arch=x86_64&platform=pcbios' })).body;
    const nfsroot = /nfsroot=(\S+):(\S+)/.exec(script);
    expect(nfsroot?.[1]).toBe('127.0.0.1');
    const served = await until('the image export', () => t.core.area('nfs').exports.byPath(nfsroot?.[2] ?? ''));
    expect(served.allows('127.0.0.1')).toBe(true);
    expect((await served.tree.read('casper/filesystem.squashfs', 0, 100))?.toString()).toBe('the live root');

    await t.core.kernel.settings.update({ netboot });
    expect((await call('DELETE', `/profiles/${made.body.data.profile.id}`, 'operator')).status).toBeLessThan(300);
    expect((await call('POST', `/os-images/${id}/unmount`, 'operator')).status).toBe(200);
    await rm(isoDir, { recursive: true, force: true });
  });
});

/** A TCP port free on this machine right now (bound to 0 and released). */
function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '0.0.0.0', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
