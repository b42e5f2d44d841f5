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
  arch_name: 'x64 UEFI',
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
    // The architecture by name, not option 93's number.
    expect(screen.getByText('x64 UEFI')).toBeTruthy();
    expect(await screen.findByLabelText('Lease statistics')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Prune expired' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove expired' }));
    expect(await screen.findByText('1 expired lease(s) removed.')).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/leases/prune')).toHaveLength(1);
  });

  it('turns a lease into a reservation or a host, with the address it has now', async () => {
    const fake = renderApp('/leases', {
      'GET /api/v1/leases': () => okList([LEASE]),
      'GET /api/v1/leases/stats': () => ok(STATS),
      'POST /api/v1/dhcp/reservations': (body) => ok({ id: 1, ...(body as object) }),
      'POST /api/v1/hosts': (body) => ok({ id: 9, ip: LEASE.ip, hostname: 'pxe01', ...(body as object) }),
    });
    fireEvent.click(await screen.findByRole('button', { name: `Reserve ${LEASE.ip} for ${LEASE.mac}` }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/dhcp/reservations')[0]?.body).toEqual({ mac: LEASE.mac, ip: LEASE.ip, hostname: 'pxe01' }));
    fireEvent.click(screen.getByRole('button', { name: `Add ${LEASE.mac} as a host` }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/hosts')[0]?.body).toEqual({ mac: LEASE.mac, ip: LEASE.ip, hostname: 'pxe01' }));
    expect(await screen.findByText('Host pxe01 created with 10.0.0.100.')).toBeTruthy();
  });

  it('shows another DHCP server that keeps an interface out of server mode, and switches it to proxy mode in one click', async () => {
    const settings = { interfaces: [{ name: 'eth0', mode: 'server' }, { name: 'eth1', mode: 'proxy' }], subnets: [], default_lease_time_seconds: 3600, authoritative: true, ping_check: false, decline_quarantine_seconds: 86400, access_mode: 'open', rogue_guard: true, rogue_probe_timeout_ms: 3500, force: false, ipv6_ra: 'auto' };
    const router = { server_id: '192.168.88.1', source_ip: '192.168.88.1', mac: null, offered_ip: '192.168.88.120', subnet_mask: '255.255.255.0', router: '192.168.88.1', lease_seconds: 3600 };
    const fake = renderApp('/services/dhcp', {
      'GET /api/v1/services/dhcp': () => ok(settings),
      'PUT /api/v1/services/dhcp': (body) => ok({ ...settings, ...(body as object) }),
      'GET /api/v1/settings/interfaces': () => ok({ served: 'auto', server_addresses: [], detected_interfaces: [], resolved_addresses: [] }),
      'GET /api/v1/dhcp/guard': () => ok({ interfaces: [{ interface: 'eth0', state: 'blocked', probed_at: '2024-05-01T00:00:00Z', foreign: [router], message: '…' }], sightings: [] }),
    });
    expect(await screen.findByText('Another DHCP server answers on eth0')).toBeTruthy();
    expect(screen.getByText('192.168.88.1 (offers 192.168.88.120/255.255.255.0, router 192.168.88.1)')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Switch eth0 to proxy mode' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/dhcp')[0]?.body).toEqual({ interfaces: [{ name: 'eth0', mode: 'proxy' }, { name: 'eth1', mode: 'proxy' }] }));
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
