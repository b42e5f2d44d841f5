import { copyFile, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
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
  problems: { code: string; severity: string; message: string; fix: string; seen?: boolean }[];
}

async function api(t: TestCore, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await t.core.ipc.invoke({ method, path: `/api/v1${url}`, body });
  return { status: res.status, body: res.body as { success: boolean; data: never; code?: string } };
}

describe('boot loaders', () => {
  it('copies the bundled files into the boot root at start, byte for byte', async () => {
    const t = await started();
    const root = t.core.area('boot-files').files.root;
    // The Secure Boot chains too (x64 and ARM64): DHCP hands out the shims by default.
    for (const name of ['undionly.kpxe', 'ipxe.pxe', 'ipxe.efi', 'snponly.efi', 'shimx64.efi', 'grubx64.efi', 'mmx64.efi', 'shimaa64.efi', 'grubaa64.efi']) {
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

  it('GET /bootloader/check checks every archmap file and the GRUB chains: bundled ones pass, unbundled architectures nobody booted are info', async () => {
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
    // The shipped default sends UEFI x64 and ARM64 machines to the signed chain: its bundled files are checked too.
    for (const name of ['shimx64.efi', 'grubx64.efi', 'shimaa64.efi', 'grubaa64.efi']) {
      expect(byName.get(name), name).toMatchObject({ ok: true, present: true, checksum: 'match', format: 'pe', referenced_by: ['grub_chain'] });
    }
    // No machine booted yet: the missing iPXE builds of other architectures are information, not warnings.
    expect(report.problems.every((problem) => problem.severity === 'info' && !problem.seen)).toBe(true);
    expect(byName.get('ipxe-arm64.efi')?.problems[0]).toMatchObject({ code: 'missing', severity: 'info' });
  });

  it('ranks what is missing by the architectures machines were seen with: an arm64 host on grub reports shimaa64.efi first', async () => {
    const t = await started();
    const root = t.core.area('boot-files').files.root;
    await rm(path.join(root, 'shimaa64.efi'));
    expect((await api(t, 'POST', '/hosts', { mac: '52:54:00:a6:40:01', arch: 'arm64' })).status).toBe(201);
    // A LoongArch machine asked DHCP (the event every DHCP answer leaves); nobody booted RISC-V, IA32 or ARM32.
    t.core.kernel.events.emit({ kind: 'dhcp.offer', message: 'OFFER', mac: '52:54:00:10:06:01', detail: { arch: 0x27 } });
    type Report = { ok: boolean; files: Check[]; problems: (Check['problems'][number] & { name: string; seen: boolean; architectures: string[] })[]; architectures: { id: string; seen: boolean; grub: boolean; loader: string | null; machines: number; errors: number; warnings: number; infos: number }[] };
    const report = (await api(t, 'GET', '/bootloader/check')).body.data as Report;
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatchObject({ name: 'shimaa64.efi', code: 'missing', severity: 'error', seen: true, architectures: ['uefi_arm64'] });
    expect(report.problems.slice(1, 3).map((problem) => [problem.name, problem.severity])).toEqual([
      ['ipxe-arm64.efi', 'warning'],
      ['ipxe-loong64.efi', 'warning'],
    ]);
    const rest = report.problems.slice(3);
    expect(rest.map((problem) => problem.name).sort()).toEqual(['ipxe-arm32.efi', 'ipxe-i386.efi', 'ipxe-riscv32.efi', 'ipxe-riscv64.efi']);
    expect(rest.every((problem) => problem.severity === 'info' && !problem.seen)).toBe(true);
    expect(report.architectures.slice(0, 2).map((arch) => arch.id).sort()).toEqual(['uefi_arm64', 'uefi_loong64']);
    expect(report.architectures.find((arch) => arch.id === 'uefi_arm64')).toMatchObject({ seen: true, machines: 1, loader: 'grub', grub: true, errors: 1, warnings: 1 });
    expect(report.architectures.find((arch) => arch.id === 'uefi_riscv64')).toMatchObject({ seen: false, errors: 0, warnings: 0, infos: 1 });

    // ARM64 machines on iPXE: the chain is not fetched, so not checked ...
    const onIpxe = await api(t, 'PUT', '/settings/netboot', { boot_loaders: { uefi_x64: 'grub', uefi_arm64: 'ipxe', groups: {} } });
    expect(onIpxe.status).toBe(200);
    const ipxe = (await api(t, 'GET', '/bootloader/check')).body.data as Report;
    expect(ipxe.files.some((file) => file.name === 'shimaa64.efi')).toBe(false);
    expect(ipxe.ok).toBe(true);
    // ... until a group they are in asks for GRUB.
    const host = (await api(t, 'GET', '/hosts?q=52:54:00:a6:40:01')).body.data as { id: number }[];
    expect((await api(t, 'PUT', `/hosts/${host[0]!.id}`, { group: 'arm-lab' })).status).toBe(200);
    await api(t, 'PUT', '/settings/netboot', { boot_loaders: { uefi_x64: 'grub', uefi_arm64: 'ipxe', groups: { 'ARM-lab': 'grub' } } });
    const grouped = (await api(t, 'GET', '/bootloader/check')).body.data as Report;
    expect(grouped.problems[0]).toMatchObject({ name: 'shimaa64.efi', severity: 'error', message: expect.stringContaining('group ARM-lab') });
  });

  it('ignores the architectures an operator chose: their problems are info, listed last, raise no alert, and the choice survives a restart', async () => {
    const dir = await tempDir();
    const t = await createTestCore({ nicReader: () => [], dataDir: dir.dir });
    await t.core.start();
    const root = t.core.area('boot-files').files.root;
    await rm(path.join(root, 'shimaa64.efi'));
    expect((await api(t, 'POST', '/hosts', { mac: '52:54:00:a6:40:02', arch: 'arm64' })).status).toBe(201);
    t.core.kernel.events.emit({ kind: 'dhcp.offer', message: 'OFFER', mac: '52:54:00:10:06:02', detail: { arch: 0x27 } });
    type Report = { ok: boolean; problems: { name: string; severity: string; ignored: boolean }[]; architectures: { id: string; ignored: boolean; errors: number; warnings: number; infos: number }[]; ignored_architectures: string[] };
    const alertIds = async () => ((await api(t, 'GET', '/alerts')).body.data as { id: string }[]).map((alert) => alert.id);
    expect(await alertIds()).toContain('bootloader.uefi_arm64');

    // Bad lists change nothing.
    for (const body of [{ architectures: ['uefi_sparc'] }, { architectures: ['uefi_arm64', 'uefi_arm64'] }, { architectures: 'uefi_arm64' }, { architectures: [], extra: 1 }]) {
      expect((await api(t, 'PUT', '/bootloader/check/ignored-architectures', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(((await api(t, 'GET', '/bootloader/check')).body.data as Report).ignored_architectures).toEqual([]);

    const set = await api(t, 'PUT', '/bootloader/check/ignored-architectures', { architectures: ['uefi_loong64', 'uefi_arm64'] });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ architectures: ['uefi_loong64', 'uefi_arm64'] });
    const report = (await api(t, 'GET', '/bootloader/check')).body.data as Report;
    expect(report.ok).toBe(true);
    expect(report.ignored_architectures).toEqual(['uefi_loong64', 'uefi_arm64']);
    // Ignored problems come last, as info; the architectures too.
    const ignored = report.problems.filter((problem) => problem.ignored);
    expect(ignored.map((problem) => problem.name).sort()).toEqual(['ipxe-arm64.efi', 'ipxe-loong64.efi', 'shimaa64.efi']);
    expect(ignored.every((problem) => problem.severity === 'info')).toBe(true);
    expect(report.problems.slice(-3).every((problem) => problem.ignored)).toBe(true);
    expect(report.architectures.slice(-2).map((arch) => [arch.id, arch.ignored]).sort()).toEqual([['uefi_arm64', true], ['uefi_loong64', true]]);
    expect(report.architectures.find((arch) => arch.id === 'uefi_arm64')).toMatchObject({ errors: 0, warnings: 0, infos: 2 });
    expect(await alertIds()).not.toContain('bootloader.uefi_arm64');
    expect((await api(t, 'GET', '/events?kind=bootloader.check.ignored')).body.data).toMatchObject([{ message: 'the boot-loader check ignores uefi_loong64, uefi_arm64' }]);

    // Stored: a restarted core still ignores them; [] ignores none again.
    await t.close();
    const again = await createTestCore({ nicReader: () => [], dataDir: dir.dir });
    try {
      await again.core.start();
      expect(((await api(again, 'GET', '/bootloader/check')).body.data as Report).ignored_architectures).toEqual(['uefi_loong64', 'uefi_arm64']);
      expect((await api(again, 'PUT', '/bootloader/check/ignored-architectures', { architectures: [] })).status).toBe(200);
      // (The start put the bundled shimaa64.efi back; the missing ARM64 iPXE build is a warning again.)
      const cleared = (await api(again, 'GET', '/bootloader/check')).body.data as Report;
      expect(cleared.ignored_architectures).toEqual([]);
      expect(cleared.problems.find((problem) => problem.name === 'ipxe-arm64.efi')).toMatchObject({ severity: 'warning', ignored: false });
    } finally {
      await again.close();
      await dir.remove();
    }
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
