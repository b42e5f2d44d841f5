// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BootloaderCheckReport, BootloaderFile, CheckArchitecture, FileCheck } from '@contracts/boot-files';
import type { TftpSettingsView } from '@contracts/tftp';
import { ok, type Route } from './fake-transport.js';
import { callsTo, renderApp, VIEWER_SESSION } from './render-app.js';

afterEach(cleanup);

const SETTINGS: TftpSettingsView = { enabled: true, port: 69, root: '/data/boot', max_blksize: 1468, max_windowsize: 64, timeout: 2, retries: 5 };
const CHECKED = {
  name: 'ipxe.efi',
  root: '/data/boot',
  architecture: 'uefi-x64',
  bundled: true,
  optional: false,
  referenced_by: ['archmap'],
  architectures: ['uefi_x64' as const],
  seen: true,
  ignored: false,
  present: false,
  readable: false,
  size: null,
  format: null,
  sha256: null,
  checksum: 'unknown' as const,
  ok: false,
  problems: [{ code: 'missing', severity: 'error' as const, message: 'ipxe.efi does not exist', fix: 'restart the TFTP service' }],
};
function arch(fields: Partial<CheckArchitecture> & Pick<CheckArchitecture, 'id' | 'name'>): CheckArchitecture {
  return { codes: [], seen: false, ignored: false, machines: 0, seen_by: { leases: 0, events: 0, hosts: 0 }, loader: null, grub: false, grub_reasons: [], errors: 0, warnings: 0, infos: 0, ...fields };
}
const CHECK: BootloaderCheckReport = {
  ok: false,
  checked_at: '2024-05-01T00:00:00Z',
  files: [CHECKED],
  profiles: [],
  problems: [{ ...CHECKED.problems[0]!, name: 'ipxe.efi', root: '/data/boot', architectures: ['uefi_x64'], seen: true, ignored: false }],
  architectures: [arch({ id: 'uefi_x64', name: 'x64 UEFI', seen: true, machines: 1, seen_by: { leases: 1, events: 1, hosts: 0 }, loader: 'ipxe', errors: 1 })],
  boot_root: '/data/boot',
  tftp_root: null,
  ignored_architectures: [],
};
const FILES: BootloaderFile[] = [
  {
    name: 'undionly.kpxe',
    architecture: 'bios',
    format: 'pxe',
    optional: false,
    description: 'iPXE for BIOS',
    size: 70_000,
    sha256: 'ab'.repeat(32),
    present: true,
    source: { package: 'ipxe', version: '1.21.1', path: '/usr/lib/ipxe/undionly.kpxe' },
  },
];

function renderTftp(path: string, routes: Record<string, Route> = {}, session?: unknown) {
  return renderApp(
    path,
    {
      'GET /api/v1/services/tftp': () => ok(SETTINGS),
      'GET /api/v1/bootloader/check': () => ok(CHECK),
      'GET /api/v1/bootloader/files': () => ok(FILES),
      ...routes,
    },
    session ? { session } : {},
  );
}

describe('TFTP page (/services/tftp)', () => {
  it('checks the numeric fields by the contract before saving and sends only what the API takes', async () => {
    const fake = renderTftp('/services/tftp', { 'PUT /api/v1/services/tftp': (body) => ok({ ...SETTINGS, ...(body as object), root: '/data/boot' }) });
    await screen.findByDisplayValue('/data/boot');
    fireEvent.change(screen.getByLabelText('Largest block size', { exact: false }), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save TFTP settings' }));
    expect(await screen.findByText('An integer 512–65464')).toBeTruthy();
    expect(callsTo(fake.calls, 'PUT', '/services/tftp')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Largest block size', { exact: false }), { target: { value: '8192' } });
    fireEvent.change(screen.getByLabelText('Root directory', { exact: false }), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save TFTP settings' }));
    await waitFor(() =>
      // No `enabled` (the switch did not change); an empty root is null, the boot root.
      expect(callsTo(fake.calls, 'PUT', '/services/tftp')[0]?.body).toEqual({ port: 69, root: null, max_blksize: 8192, max_windowsize: 64, timeout: 2, retries: 5 }),
    );
  });

  it('shows the boot loader check with its fixes, the bundled files, and checks one file', async () => {
    const result: FileCheck = { name: 'ipxe.efi', ok: false, results: [CHECKED] };
    const fake = renderTftp('/services/tftp?tab=bootloaders', { 'POST /api/v1/bootloader/check-file': () => ok(result) });
    expect(await screen.findByText('ipxe.efi: ipxe.efi does not exist')).toBeTruthy();
    const bundled = await screen.findByRole('table', { name: 'Bundled boot loaders' });
    expect(within(bundled).getByText('undionly.kpxe')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('File in the boot root'), { target: { value: 'ipxe.efi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check file' }));
    expect(await screen.findByText('ipxe.efi: problems found')).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/bootloader/check-file')[0]?.body).toEqual({ name: 'ipxe.efi' });
  });

  it('ranks the check by architectures seen: ARM64 machines and their missing shim first, unseen architectures folded away', async () => {
    const shim = { code: 'missing', severity: 'error' as const, message: 'shimaa64.efi does not exist: machines on GRUB (default) cannot boot', fix: 'restart the TFTP service' };
    const riscv = { code: 'missing', severity: 'info' as const, message: 'ipxe-riscv64.efi does not exist and is not bundled', fix: 'put a UEFI riscv64 boot loader there' };
    const ranked: BootloaderCheckReport = {
      ...CHECK,
      problems: [
        { ...shim, name: 'shimaa64.efi', root: '/data/boot', architectures: ['uefi_arm64'], seen: true, ignored: false },
        { ...riscv, name: 'ipxe-riscv64.efi', root: '/data/boot', architectures: ['uefi_riscv64'], seen: false, ignored: false },
      ],
      architectures: [
        arch({ id: 'uefi_arm64', name: 'ARM64 UEFI', seen: true, machines: 2, seen_by: { leases: 1, events: 0, hosts: 2 }, loader: 'grub', grub: true, grub_reasons: ['default'], errors: 1 }),
        arch({ id: 'uefi_riscv64', name: 'RISC-V 64-bit UEFI', infos: 1 }),
        arch({ id: 'uefi_ia32', name: 'x86 UEFI (IA32)' }),
      ],
    };
    renderTftp('/services/tftp?tab=bootloaders', { 'GET /api/v1/bootloader/check': () => ok(ranked) });
    const seen = await screen.findByRole('table', { name: 'Architectures machines were seen with' });
    expect(within(seen).getByText('ARM64 UEFI')).toBeTruthy();
    expect(within(seen).getByText('2 machines (1 in leases, 2 hosts)')).toBeTruthy();
    expect(within(seen).getByText('signed shim → GRUB')).toBeTruthy();
    expect(within(seen).queryByText('RISC-V 64-bit UEFI')).toBeNull();
    // Mantine's Alert gives each <li> the alert role: count the items themselves.
    const first = [...screen.getByRole('list', { name: 'Problems' }).querySelectorAll('li')];
    expect(first).toHaveLength(1);
    expect(first[0]?.textContent).toContain('shimaa64.efi');
    // The architectures nobody booted: one folded summary naming them, their problems inside it.
    const summary = screen.getByText('1 problem of architectures no machine was seen with (RISC-V 64-bit UEFI)');
    const details = summary.closest('details');
    expect(details?.open).toBe(false);
    expect(within(details as HTMLElement).getByText(/ipxe-riscv64.efi: /)).toBeTruthy();
  });

  it('ignores an architecture on request and folds its problems apart; Stop ignoring sends the list without it', async () => {
    const riscv = { code: 'missing', severity: 'info' as const, message: 'ipxe-riscv64.efi does not exist and is not bundled', fix: 'put a UEFI riscv64 boot loader there' };
    const loong = { ...riscv, message: 'ipxe-loong64.efi does not exist and is not bundled' };
    const report: BootloaderCheckReport = {
      ...CHECK,
      ok: true,
      problems: [
        { ...riscv, name: 'ipxe-riscv64.efi', root: '/data/boot', architectures: ['uefi_riscv64'], seen: false, ignored: false },
        { ...loong, name: 'ipxe-loong64.efi', root: '/data/boot', architectures: ['uefi_loong64'], seen: false, ignored: true },
      ],
      architectures: [arch({ id: 'uefi_riscv64', name: 'RISC-V 64-bit UEFI', infos: 1 }), arch({ id: 'uefi_loong64', name: 'LoongArch 64-bit UEFI', infos: 1, ignored: true })],
      ignored_architectures: ['uefi_loong64'],
    };
    const fake = renderTftp('/services/tftp?tab=bootloaders', {
      'GET /api/v1/bootloader/check': () => ok(report),
      'PUT /api/v1/bootloader/check/ignored-architectures': (body) => ok(body),
    });
    const summary = await screen.findByText('1 problem of ignored architectures (LoongArch 64-bit UEFI)');
    expect(within(summary.closest('details') as HTMLElement).getByText(/ipxe-loong64.efi: /)).toBeTruthy();
    expect(screen.getByText('1 problem of architectures no machine was seen with (RISC-V 64-bit UEFI)')).toBeTruthy();
    const buttons = screen.getByRole('group', { name: 'Ignore architectures' });
    fireEvent.click(within(buttons).getByRole('button', { name: 'Ignore RISC-V 64-bit UEFI' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/bootloader/check/ignored-architectures')[0]?.body).toEqual({ architectures: ['uefi_loong64', 'uefi_riscv64'] }));
    fireEvent.click(within(buttons).getByRole('button', { name: 'Stop ignoring LoongArch 64-bit UEFI' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/bootloader/check/ignored-architectures')[1]?.body).toEqual({ architectures: [] }));
  });

  it('shows a viewer the settings read-only and no single-file check', async () => {
    renderTftp('/services/tftp?tab=bootloaders', {}, VIEWER_SESSION);
    expect(await screen.findByText('ipxe.efi: ipxe.efi does not exist')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Check file' })).toBeNull();
  });
});
