import { mkdir, mkdtemp, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import { TFTP_DEFAULTS, type StoredTftpSettings } from '../../../src-main/tftp/tftp-settings.js';
import { bearerHeaders } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { tftpGet } from './tftp-client.js';
import { freeUdpPort, loopbackNics, startTftpCore } from './tftp-harness.js';

/**
 * The served-root policy through the API: who may change the TFTP root, and
 * which roots nobody may serve (docs/boot-files.md, "Served roots").
 */

type Json = { success: boolean; data: Record<string, unknown>; code?: string; error?: string; details?: { field: string; message: string }[] };

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function put(t: TestCore, headers: Record<string, string>, url: string, payload: unknown) {
  const res = await t.core.http.inject({ method: 'PUT', url, headers, payload: payload as object });
  return { status: res.statusCode, body: res.json() as Json };
}

describe('PUT /services/tftp root: the confinement matrix by role', () => {
  let t: TestCore;
  let outside: string;
  const headers = {} as Record<Role, Record<string, string>>;
  beforeAll(async () => {
    t = await createTestCore({ nicReader: loopbackNics() });
    cleanup.push(() => t.close());
    outside = await mkdtemp(path.join(os.tmpdir(), 'bw-outside-root-'));
    cleanup.push(() => rm(outside, { recursive: true, force: true }));
    await t.core.area('boot-files').files.ensureRoot();
    await mkdir(path.join(t.dataDir, 'images', 'sub'), { recursive: true });
    // A symlink inside an allowed root that leads to `/`: judged by its real path.
    await symlink('/', path.join(t.dataDir, 'images', 'to-slash'));
    for (const role of ['viewer', 'operator', 'admin'] as const) headers[role] = await bearerHeaders(t.core, role);
  });

  // [what, root, viewer, operator, admin]; 403 for operators on any root change, 400 for roots nobody may serve.
  const matrix = (dataDir: string, outsideDir: string): [string, unknown, number, number, number][] => [
    ['the filesystem root', '/', 403, 403, 400],
    ['/etc', '/etc', 403, 403, 400],
    ['a folder inside /etc', '/etc/ssh', 403, 403, 400],
    ['/home', '/home', 403, 403, 400],
    ['the data directory', dataDir, 403, 403, 400],
    ['an ancestor of the data directory', path.dirname(dataDir), 403, 403, 400],
    ['a folder inside the data directory but outside its served folders', path.join(dataDir, 'logs-x'), 403, 403, 400],
    ['the boot root, unchanged (not a change)', path.join(dataDir, 'boot'), 403, 200, 200],
    ['a subfolder of an allowed root', path.join(dataDir, 'images', 'sub'), 403, 403, 200],
    ['a folder outside the allowed roots', outsideDir, 403, 403, 400],
    ['a symlink to / inside an allowed root', path.join(dataDir, 'images', 'to-slash'), 403, 403, 400],
    ['a relative path', 'images/sub', 403, 403, 400],
    ['a path with NUL', `${path.join(dataDir, 'images', 'sub')}\0x`, 403, 403, 400],
  ];

  it('answers each role as the matrix says and never stores a refused root', async () => {
    await mkdir(path.join(t.dataDir, 'logs-x'), { recursive: true });
    const bootRoot = path.join(t.dataDir, 'boot');
    for (const [what, root, ...expected] of matrix(t.dataDir, outside)) {
      for (const [index, role] of (['viewer', 'operator', 'admin'] as const).entries()) {
        const before = t.core.area('tftp').settings.get();
        const res = await put(t, headers[role], '/api/v1/services/tftp', { root, retries: 4 });
        expect(res.status, `${role}: ${what} (${JSON.stringify(res.body)})`).toBe(expected[index]);
        if (res.status === 403) {
          expect(res.body.code).toBe('FORBIDDEN');
          if (role === 'operator') expect(res.body.error).toMatch(/changing the TFTP root needs the admin role/);
        }
        if (res.status === 400) expect(res.body.details?.[0]?.field).toBe('body.root');
        if (res.status >= 400) {
          // Nothing at all changed: not the root, not the retries sent beside it.
          expect(t.core.area('tftp').settings.get(), `${role}: ${what}`).toEqual(before);
        } else {
          expect(res.body.data.root).toBe(path.resolve(root as string));
          // Back to the boot root for the next row.
          expect((await put(t, headers.admin, '/api/v1/services/tftp', { root: null, retries: 5 })).body.data.root).toBe(bootRoot);
        }
      }
    }
  });

  it('lets an operator change the other fields and send the current root back', async () => {
    const current = (await t.core.http.inject({ method: 'GET', url: '/api/v1/services/tftp', headers: headers.operator })).json() as Json;
    const res = await put(t, headers.operator, '/api/v1/services/tftp', { ...current.data, max_blksize: 1024 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ max_blksize: 1024, root: path.join(t.dataDir, 'boot') });
  });

  it('explains why an admin cannot serve a root', async () => {
    const res = await put(t, headers.admin, '/api/v1/services/tftp', { root: path.join(t.dataDir, 'images', 'to-slash') });
    expect(res.body.error).toContain(`resolves to /: / is the filesystem root`);
    expect((await put(t, headers.admin, '/api/v1/services/tftp', { root: t.dataDir })).body.error).toContain("is Bootwright's data directory");
    expect((await put(t, headers.admin, '/api/v1/services/tftp', { root: '/etc' })).body.error).toContain('is the system folder /etc');
    expect((await put(t, headers.admin, '/api/v1/services/tftp', { root: outside })).body.error).toContain('is outside the allowed roots');
  });

  it('audits a root change with the old and the new root, refused attempts included', async () => {
    const bootRoot = path.join(t.dataDir, 'boot');
    const sub = path.join(t.dataDir, 'images', 'sub');
    await put(t, headers.operator, '/api/v1/services/tftp', { root: '/' });
    await put(t, headers.admin, '/api/v1/services/tftp', { root: sub });
    await put(t, headers.admin, '/api/v1/services/tftp', { root: null });
    await put(t, headers.operator, '/api/v1/services/tftp', { retries: 3 });
    const rows = t.core.kernel.audit.all().filter((row) => row.action === 'services.tftp.update').slice(-4);
    expect(rows.map((row) => [row.status, row.detail ?? null])).toEqual([
      [403, { old_root: bootRoot, new_root: '/' }],
      [200, { old_root: bootRoot, new_root: sub }],
      [200, { old_root: sub, new_root: bootRoot }],
      [200, null],
    ]);
    // The API shows the detail too.
    const listed = (await t.core.http.inject({ method: 'GET', url: '/api/v1/audit-logs?action=services.tftp.update&sort=-id&size=4', headers: headers.admin })).json() as {
      data: { detail?: Record<string, string> }[];
    };
    expect(listed.data[3]?.detail).toEqual({ old_root: bootRoot, new_root: '/' });
  });
});

describe('GET/PUT /settings/served-roots', () => {
  let t: TestCore;
  let extra: string;
  const headers = {} as Record<Role, Record<string, string>>;
  beforeAll(async () => {
    t = await createTestCore({ nicReader: loopbackNics() });
    cleanup.push(() => t.close());
    extra = await mkdtemp(path.join(os.tmpdir(), 'bw-extra-root-'));
    cleanup.push(() => rm(extra, { recursive: true, force: true }));
    await mkdir(path.join(extra, 'tftp'));
    await symlink('/', path.join(extra, 'to-slash'));
    for (const role of ['viewer', 'operator', 'admin'] as const) headers[role] = await bearerHeaders(t.core, role);
  });

  it('lists the built-in roots to every role', async () => {
    const res = (await t.core.http.inject({ method: 'GET', url: '/api/v1/settings/served-roots', headers: headers.viewer })).json() as Json;
    expect(res.data).toEqual({
      allowed_roots: [],
      effective: [
        { path: path.join(t.dataDir, 'boot'), source: 'built-in', problem: expect.stringContaining('does not exist') },
        { path: path.join(t.dataDir, 'images'), source: 'built-in', problem: expect.stringContaining('does not exist') },
      ],
    });
  });

  it('needs the admin role to change, and refuses /, system folders and the data directory even to an admin', async () => {
    expect((await put(t, headers.viewer, '/api/v1/settings/served-roots', { allowed_roots: [extra] })).status).toBe(403);
    expect((await put(t, headers.operator, '/api/v1/settings/served-roots', { allowed_roots: [extra] })).status).toBe(403);
    for (const root of ['/', '/etc', '/usr/lib', '/var', '/home', t.dataDir, path.dirname(t.dataDir), path.join(extra, 'to-slash'), 'relative', '/no/such/dir/bw']) {
      const res = await put(t, headers.admin, '/api/v1/settings/served-roots', { allowed_roots: [extra, root] });
      expect(res.status, root).toBe(400);
      expect(res.body.details?.[0]?.field, root).toBe('body.allowed_roots.1');
    }
    expect(t.core.kernel.servedRoots.stored()).toEqual([]);
  });

  it('an allowed root lets the admin serve folders in it; removing it stops a running server', async () => {
    const port = await freeUdpPort();
    await t.core.area('tftp').settings.update({ port });
    await writeFile(path.join(extra, 'tftp', 'a.bin'), 'from the extra root');
    const allowed = await put(t, headers.admin, '/api/v1/settings/served-roots', { allowed_roots: [extra] });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.allowed_roots).toEqual([extra]);
    const set = await put(t, headers.admin, '/api/v1/services/tftp', { root: path.join(extra, 'tftp') });
    expect(set.status).toBe(200);
    await t.core.kernel.services.start('tftp');
    expect((await tftpGet({ port, file: 'a.bin' })).data.toString()).toBe('from the extra root');
    // Audited with the old and new lists.
    const row = t.core.kernel.audit.all().find((entry) => entry.action === 'settings.served-roots.update' && entry.status === 200);
    expect(row?.detail).toEqual({ old_allowed_roots: '[]', new_allowed_roots: JSON.stringify([extra]) });
    // Withdrawn: the running server is restarted and refuses to serve the root.
    expect((await put(t, headers.admin, '/api/v1/settings/served-roots', { allowed_roots: [] })).status).toBe(200);
    const status = t.core.kernel.services.get('tftp');
    expect(status.state).toBe('failed');
    expect(status.last_error).toContain(`TFTP root ${path.join(extra, 'tftp')} is refused`);
    expect(status.last_error).toContain('is outside the allowed roots');
    expect((await tftpGet({ port, file: 'a.bin', limitMs: 1500 }).catch(() => null))?.data.toString() ?? '').not.toBe('from the extra root');
  });
});

describe('roots allowed by the configuration (--allowed-root)', () => {
  it('are listed with source config and usable as roots', async () => {
    const extra = await mkdtemp(path.join(os.tmpdir(), 'bw-config-root-'));
    cleanup.push(() => rm(extra, { recursive: true, force: true }));
    const t = await createTestCore({ nicReader: loopbackNics(), config: { allowedRoots: [extra, '/etc'] } });
    cleanup.push(() => t.close());
    const described = await t.core.kernel.servedRoots.describe();
    expect(described.filter((view) => view.source === 'config')).toEqual([
      { path: extra, source: 'config', problem: null },
      // A configured root the fixed rules refuse is ignored, and says why.
      { path: '/etc', source: 'config', problem: '/etc is the system folder /etc' },
    ]);
    expect((await t.core.area('tftp').settings.update({ root: extra })).value.root).toBe(extra);
    await expect(t.core.area('tftp').settings.update({ root: '/etc' })).rejects.toThrow(/system folder/);
  });
});

describe('a stored root the policy refuses (an older configuration)', () => {
  const opened: TestCore[] = [];
  afterEach(async () => {
    for (const t of opened.splice(0)) await t.close();
  });

  it('fails the TFTP service with the reason instead of serving it, and writes nothing into it', async () => {
    const stale = await mkdtemp(path.join(os.tmpdir(), 'bw-stale-root-'));
    cleanup.push(() => rm(stale, { recursive: true, force: true }));
    await writeFile(path.join(stale, 'secret.txt'), 'not for the LAN');
    const t = await createTestCore({ nicReader: loopbackNics() });
    opened.push(t);
    const port = await freeUdpPort();
    // Written straight into the store, as an older version would have accepted it.
    await t.core.kernel.store.section<StoredTftpSettings>('tftp', TFTP_DEFAULTS).set({ ...TFTP_DEFAULTS, port, root: stale });
    await t.core.start();
    await t.core.kernel.services.start('tftp');
    const status = t.core.kernel.services.get('tftp');
    expect(status.state).toBe('failed');
    expect(status.last_error).toBe(
      `TFTP root ${stale} is refused: ${stale} is outside the allowed roots (${path.join(t.dataDir, 'boot')}, ${path.join(t.dataDir, 'images')}); an admin can allow more with PUT /settings/served-roots or --allowed-root; an admin must set another root (PUT /services/tftp {"root": ...}, null for the boot root)`,
    );
    // No boot loaders were copied into the refused root.
    expect(await readdir(stale)).toEqual(['secret.txt']);
    // An admin repairs it by resetting the root.
    await t.core.area('tftp').settings.update({ root: null });
    await t.core.kernel.services.start('tftp');
    expect(t.core.kernel.services.get('tftp').state).toBe('running');
    expect((await tftpGet({ port, file: 'secret.txt' })).error).toEqual({ code: 1, message: 'file not found' });
  });
});

describe('the root is re-checked at serve time', () => {
  it('TFTP refuses every file once its root was swapped for a symlink to /', async () => {
    const t = await startTftpCore({ files: { 'a.bin': 'boot file' } });
    cleanup.push(() => t.close());
    expect((await tftpGet({ port: t.port, file: 'a.bin' })).data.toString()).toBe('boot file');
    // Swap the checked root for a symlink to / while the server runs.
    await rename(t.root, `${t.root}-moved`);
    await symlink('/', t.root);
    const res = await tftpGet({ port: t.port, file: 'etc/passwd' });
    expect(res.error).toEqual({ code: 2, message: 'access violation' });
    expect(res.data.length).toBe(0);
    // And a restart refuses the root outright.
    await t.core.kernel.services.restart('tftp');
    expect(t.core.kernel.services.get('tftp')).toMatchObject({ state: 'failed', last_error: expect.stringContaining('/ is the filesystem root') });
  });

  it('HTTP boot refuses files through a boot root swapped for a symlink to /', async () => {
    const t = await createTestCore({ nicReader: loopbackNics() });
    cleanup.push(() => t.close());
    await t.core.start();
    const root = t.core.area('boot-files').files.root;
    await writeFile(path.join(root, 'a.txt'), 'boot file');
    expect((await t.core.http.inject({ method: 'GET', url: '/boot/a.txt' })).body).toBe('boot file');
    await rename(root, `${root}-moved`);
    await symlink('/', root);
    const res = await t.core.http.inject({ method: 'GET', url: '/boot/etc/passwd' });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('root:');
    // Checked afresh (as at the next start): refused with the reason.
    expect(await t.core.area('boot-files').files.ensureRoot()).toEqual({ ok: false, problem: `${root} resolves to /: / is the filesystem root` });
  });
});
