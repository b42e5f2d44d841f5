import { copyFile, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { bearerHeaders } from '../../helpers/auth.js';

const opened: TestCore[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function started(): Promise<TestCore> {
  // No served interface: the DHCP and TFTP servers bind nothing in these tests.
  const t = await createTestCore({ nicReader: () => [] });
  opened.push(t);
  await t.core.start();
  return t;
}

interface Check {
  name: string;
  ok: boolean;
  present: boolean;
  checksum: string;
  format: string | null;
  referenced_by: string[];
  problems: { code: string; severity: string; message: string; fix: string }[];
}

async function api(t: TestCore, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await t.core.ipc.invoke({ method, path: `/api/v1${url}`, body });
  return { status: res.status, body: res.body as { success: boolean; data: never; code?: string } };
}

describe('boot loaders', () => {
  it('copies the bundled files into the boot root at start, byte for byte', async () => {
    const t = await started();
    const root = t.core.area('boot-files').files.root;
    for (const name of ['undionly.kpxe', 'ipxe.pxe', 'ipxe.efi', 'snponly.efi']) {
      const installed = await readFile(path.join(root, name));
      expect(installed.equals(await readFile(path.join(t.core.area('boot-files').bootloaders.sourceDir, name))), name).toBe(true);
    }
  });

  it('GET /bootloader/files lists name, architecture, size, sha256, present and source', async () => {
    const t = await started();
    const res = await api(t, 'GET', '/bootloader/files');
    expect(res.status).toBe(200);
    const files = res.body.data as { name: string; present: boolean; source: { package: string; version: string }; sha256: string; size: number; architecture: string }[];
    const efi = files.find((file) => file.name === 'ipxe.efi')!;
    expect(efi).toMatchObject({ architecture: 'uefi-x64', present: true, source: { package: 'ipxe' } });
    expect(efi.sha256).toMatch(/^[0-9a-f]{64}$/);
    await rm(path.join(t.core.area('boot-files').files.root, 'ipxe.efi'));
    const after = (await api(t, 'GET', '/bootloader/files')).body.data as { name: string; present: boolean }[];
    expect(after.find((file) => file.name === 'ipxe.efi')?.present).toBe(false);
  });

  it('GET /bootloader/check checks every archmap file: bundled ones pass, unbundled architectures are warnings', async () => {
    const t = await started();
    const res = await api(t, 'GET', '/bootloader/check');
    expect(res.status).toBe(200);
    const report = res.body.data as { ok: boolean; files: Check[]; problems: Check['problems'] };
    expect(report.ok).toBe(true);
    const byName = new Map(report.files.map((file) => [file.name, file]));
    for (const name of ['undionly.kpxe', 'ipxe.efi']) {
      expect(byName.get(name)).toMatchObject({ ok: true, present: true, checksum: 'match', referenced_by: ['archmap'] });
    }
    expect(byName.get('undionly.kpxe')?.format).toBe('pxe');
    expect(byName.get('ipxe.efi')?.format).toBe('pe');
    expect(report.problems.every((problem) => problem.severity === 'warning')).toBe(true);
    expect(byName.get('ipxe-arm64.efi')?.problems[0]).toMatchObject({ code: 'missing', severity: 'warning' });
  });

  it('finds missing, empty, corrupted and wrong-format files, each with a fix', async () => {
    const t = await started();
    const root = t.core.area('boot-files').files.root;
    await rm(path.join(root, 'undionly.kpxe'));
    await truncate(path.join(root, 'ipxe.pxe'), 0);
    const efi = await readFile(path.join(root, 'ipxe.efi'));
    efi[efi.length - 1] = efi[efi.length - 1]! ^ 0xff;
    await writeFile(path.join(root, 'ipxe.efi'), efi);
    // A BIOS program where UEFI clients expect a PE image.
    await copyFile(path.join(t.core.area('boot-files').bootloaders.sourceDir, 'ipxe.pxe'), path.join(root, 'ipxe-arm64.efi'));

    const report = (await api(t, 'GET', '/bootloader/check')).body.data as { ok: boolean; files: Check[] };
    expect(report.ok).toBe(false);
    const problem = (name: string) => report.files.find((file) => file.name === name)!.problems.map((p) => p.code);
    expect(problem('undionly.kpxe')).toEqual(['missing']);
    expect(problem('ipxe.pxe')).toEqual(['empty']);
    expect(problem('ipxe.efi')).toEqual(['checksum_mismatch']);
    expect(problem('ipxe-arm64.efi')).toEqual(['wrong_format']);
    const missing = report.files.find((file) => file.name === 'undionly.kpxe')!.problems[0]!;
    expect(missing).toMatchObject({ severity: 'error', fix: expect.stringContaining('restart the TFTP service') });

    // The fix works: restarting TFTP copies the missing bundled file back.
    await t.core.kernel.services.restart('tftp');
    const again = (await api(t, 'GET', '/bootloader/check')).body.data as { files: Check[] };
    expect(again.files.find((file) => file.name === 'undionly.kpxe')?.ok).toBe(true);
  });

  it('POST /bootloader/check-file checks one file; a path outside the root is a problem, not a read', async () => {
    const t = await started();
    const ok = await api(t, 'POST', '/bootloader/check-file', { name: 'ipxe.efi' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ name: 'ipxe.efi', ok: true, results: [{ checksum: 'match', referenced_by: ['archmap', 'request'] }] });
    const outside = await api(t, 'POST', '/bootloader/check-file', { name: '../store/config.json' });
    expect(outside.body.data).toMatchObject({ ok: false, results: [{ present: false, problems: [{ code: 'outside_root' }] }] });
    const unknown = await api(t, 'POST', '/bootloader/check-file', { name: 'custom/loader.efi' });
    expect(unknown.body.data).toMatchObject({ ok: false, results: [{ bundled: false, problems: [{ code: 'missing', severity: 'error' }] }] });
    expect((await api(t, 'POST', '/bootloader/check-file', { name: '' })).status).toBe(400);
    expect((await api(t, 'POST', '/bootloader/check-file', { name: 'x', extra: 1 })).status).toBe(400);
  });

  it('lets viewers read files and checks but not run check-file', async () => {
    const t = await started();
    const headers = await bearerHeaders(t.core, 'viewer');
    expect((await t.core.http.inject({ method: 'GET', url: '/api/v1/bootloader/check', headers })).statusCode).toBe(200);
    expect((await t.core.http.inject({ method: 'POST', url: '/api/v1/bootloader/check-file', headers, payload: { name: 'ipxe.efi' } })).statusCode).toBe(403);
  });

  it('reports an unreadable manifest as a problem and still runs', async () => {
    const t = await createTestCore({ nicReader: () => [], bootloaderDir: path.join(import.meta.dirname, 'no-such-dir') });
    opened.push(t);
    await t.core.start();
    const report = (await api(t, 'GET', '/bootloader/check')).body.data as { ok: boolean; problems: { name: string; severity: string }[] };
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatchObject({ name: 'manifest.json', severity: 'error' });
    expect((await api(t, 'GET', '/bootloader/files')).body.data).toEqual([]);
  });
});
