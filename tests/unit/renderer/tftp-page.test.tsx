// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BootloaderCheckReport, BootloaderFile, FileCheck } from '@contracts/boot-files';
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
  present: false,
  readable: false,
  size: null,
  format: null,
  sha256: null,
  checksum: 'unknown' as const,
  ok: false,
  problems: [{ code: 'missing', severity: 'error' as const, message: 'ipxe.efi does not exist', fix: 'restart the TFTP service' }],
};
const CHECK: BootloaderCheckReport = { ok: false, checked_at: '2024-05-01T00:00:00Z', files: [CHECKED], profiles: [], problems: [{ ...CHECKED.problems[0]!, name: 'ipxe.efi', root: '/data/boot' }] };
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

  it('shows a viewer the settings read-only and no single-file check', async () => {
    renderTftp('/services/tftp?tab=bootloaders', {}, VIEWER_SESSION);
    expect(await screen.findByText('ipxe.efi: ipxe.efi does not exist')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Check file' })).toBeNull();
  });
});
