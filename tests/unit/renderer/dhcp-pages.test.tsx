// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchmapEntry, LeaseStats, LeaseView } from '@contracts/dhcp';
import { ok } from './fake-transport.js';
import { callsTo, okList, renderApp } from './render-app.js';

afterEach(cleanup);

const USAGE = { size: 101, used: 1, reserved: 0, quarantined: 0, free: 100, utilisation_percent: 1, expired: 1 };
const STATS: LeaseStats = { overall: { ...USAGE, leases: 2 }, ranges: [{ ...USAGE, subnet: '10.0.0.0/24', start: '10.0.0.100', end: '10.0.0.200' }] };
const LEASE: LeaseView = {
  mac: '52:54:00:00:00:02',
  ip: '10.0.0.100',
  hostname: 'pxe01',
  state: 'active',
  subnet: '10.0.0.0/24',
  starts_at: '2024-05-01T00:00:00Z',
  expires_at: '2030-05-01T00:00:00Z',
  client_id: null,
  vendor_class: 'PXEClient',
  arch: 7,
  reserved: false,
};
const DEFAULT_MAP: ArchmapEntry[] = [{ code: 0, name: 'x86 BIOS', boot_file: 'undionly.kpxe', http_boot_url_path: null, alternatives: [] }];

// The pages reach the API only through the typed DHCP client (api.dhcp.*); these check its paths and bodies.
describe('DHCP pages over the typed client', () => {
  it('lists leases with their statistics and prunes the expired ones', async () => {
    const fake = renderApp('/leases', {
      'GET /api/v1/leases': () => okList([LEASE]),
      'GET /api/v1/leases/stats': () => ok(STATS),
      'POST /api/v1/leases/prune': () => ok({ removed: 1 }),
    });
    expect(await screen.findByText('pxe01')).toBeTruthy();
    expect(await screen.findByLabelText('Lease statistics')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Prune expired' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove expired' }));
    expect(await screen.findByText('1 expired lease(s) removed.')).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/leases/prune')).toHaveLength(1);
  });

  it('restores the default architecture map: reads the defaults, then replaces the map with them', async () => {
    const fake = renderApp('/services/dhcp?tab=archmap', {
      'GET /api/v1/services/archmap': () => ok({ entries: [{ code: 7, name: 'x64 UEFI', boot_file: 'ipxe.efi', http_boot_url_path: null, alternatives: [] }] }),
      'GET /api/v1/services/archmap/defaults': () => ok({ entries: DEFAULT_MAP }),
      'PUT /api/v1/services/archmap': (body) => ok(body),
    });
    expect(await screen.findByDisplayValue('x64 UEFI')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Restore defaults' }));
    const dialogButtons = await screen.findAllByRole('button', { name: 'Restore defaults' });
    fireEvent.click(dialogButtons.at(-1)!);
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/archmap')[0]?.body).toEqual({ entries: DEFAULT_MAP }));
    expect(callsTo(fake.calls, 'GET', '/services/archmap/defaults')).toHaveLength(1);
  });
});
