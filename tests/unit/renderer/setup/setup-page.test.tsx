// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok, type Route } from '../fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from '../render-app.js';

afterEach(cleanup);

const NICS = [
  { name: 'eth0', mac: '02:00:00:00:00:01', addresses: [{ address: '192.168.50.1', family: 'ipv4', prefix: 24, cidr: '192.168.50.1/24', subnet: '192.168.50.0/24' }], mtu: 1500, up: true, internal: false },
  { name: 'eth1', mac: '02:00:00:00:00:02', addresses: [], mtu: 1500, up: false, internal: false, link: 'down' },
  { name: 'lo', mac: null, addresses: [{ address: '127.0.0.1', family: 'ipv4', prefix: 8, cidr: '127.0.0.1/8', subnet: '127.0.0.0/8' }], mtu: 65536, up: true, internal: true },
];
const DHCP = { interfaces: [], subnets: [], default_lease_time_seconds: 3600, authoritative: true, ping_check: false, decline_quarantine_seconds: 600, access_mode: 'open' };

function routes(extra: Record<string, Route> = {}): Record<string, Route> {
  return {
    'GET /api/v1/system/first-run': () => ok({ completed: false, skipped: false, must_change_password: true }),
    'POST /api/v1/system/first-run': (body) => ok({ completed: (body as { action: string }).action === 'complete', skipped: false, must_change_password: false }),
    'GET /api/v1/network/interfaces': () => okList(NICS),
    'GET /api/v1/services/dhcp': () => ok(DHCP),
    'PUT /api/v1/services/dhcp': (body) => ok({ ...DHCP, ...(body as object) }),
    'GET /api/v1/services': () => ok([]),
    'GET /api/v1/events': () => okList([]),
    ...extra,
  };
}

async function next() {
  fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
}

describe('first-run wizard', () => {
  it('walks the five steps: password, interface with link, probe not available (404), suggested subnet saved, finish', async () => {
    const fake = renderApp('/setup', routes());
    expect(await screen.findByRole('heading', { name: 'First-run setup' })).toBeTruthy();
    // Step 1: the generated password, also asked for by the banner on every page.
    const main = screen.getByRole('main');
    await waitFor(() => expect(within(main).getAllByRole('button', { name: 'Change the admin password' })).toHaveLength(2));

    // Step 2: non-loopback interfaces, each with its link; a missing `link` field reads "unknown".
    await next();
    const eth0 = await screen.findByRole('radio', { name: /eth0/ });
    expect(eth0.closest('label, .mantine-Radio-root')?.textContent ?? '').toContain('link unknown');
    expect(screen.getByRole('radio', { name: /eth1/ }).closest('.mantine-Radio-root')?.textContent).toContain('no link (cable unplugged?)');
    expect(screen.queryByRole('radio', { name: /^lo/ })).toBeNull();
    expect((eth0 as HTMLInputElement).checked).toBe(true);

    // Step 3: the probe does not exist on this server (404): said plainly, the mode stays the technician's choice.
    await next();
    fireEvent.click(await screen.findByRole('button', { name: 'Probe eth0 for other DHCP servers' }));
    expect(await screen.findByText('Probe not available on this server: choose the mode yourself.')).toBeTruthy();
    expect((screen.getByRole('radio', { name: /^Server/ }) as HTMLInputElement).checked).toBe(true);

    // Step 4: the subnet from eth0's address, saved through PUT /services/dhcp with the interface in server mode.
    await next();
    expect(await screen.findByText('192.168.50.0/24')).toBeTruthy();
    expect((screen.getByLabelText('Range start') as HTMLInputElement).value).toBe('192.168.50.100');
    expect((screen.getByLabelText('Range end') as HTMLInputElement).value).toBe('192.168.50.199');
    fireEvent.click(screen.getByRole('button', { name: 'Save the subnet and serve eth0' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/dhcp')).toHaveLength(1));
    expect(callsTo(fake.calls, 'PUT', '/services/dhcp')[0]?.body).toMatchObject({
      interfaces: [{ name: 'eth0', mode: 'server' }],
      subnets: [{ subnet: '192.168.50.0/24', ranges: [{ start: '192.168.50.100', end: '192.168.50.199' }], router: '192.168.50.1' }],
    });

    // Step 5 (reached by the save), then finish.
    fireEvent.click(await screen.findByRole('button', { name: 'Finish setup' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/system/first-run').map((call) => call.body)).toEqual([{ action: 'complete' }]));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });

  it('recommends proxy mode when another DHCP server answers, and saves no subnet then', async () => {
    const foreign = { server_id: '192.168.50.254', source_ip: '192.168.50.254', mac: '02:aa:bb:cc:dd:ee', offered_ip: '192.168.50.23', subnet_mask: '255.255.255.0', router: '192.168.50.254', lease_seconds: 600 };
    const fake = renderApp('/setup', routes({ 'POST /api/v1/dhcp/probe': () => ok({ interface: 'eth0', probed_at: '2024-05-01T00:00:00Z', foreign: [foreign] }) }));
    await screen.findByRole('heading', { name: 'First-run setup' });
    await next();
    await screen.findByRole('radio', { name: /eth0/ });
    await next();
    fireEvent.click(await screen.findByRole('button', { name: 'Probe eth0 for other DHCP servers' }));
    expect(await screen.findByText('Another DHCP server answers on this network')).toBeTruthy();
    expect(screen.getByText(/192\.168\.50\.254 \(02:aa:bb:cc:dd:ee\) offered 192\.168\.50\.23/)).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('radio', { name: /^Proxy/ }) as HTMLInputElement).checked).toBe(true));
    expect(callsTo(fake.calls, 'POST', '/dhcp/probe')[0]?.body).toEqual({ interface: 'eth0' });
    await next();
    fireEvent.click(await screen.findByRole('button', { name: 'Serve eth0 in proxy mode' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/dhcp')).toHaveLength(1));
    expect(callsTo(fake.calls, 'PUT', '/services/dhcp')[0]?.body).toEqual({ interfaces: [{ name: 'eth0', mode: 'proxy' }], subnets: [] });
  });

  it('creates a first profile, makes it the default and says what to do next', async () => {
    const profile = { id: 5, name: 'Local disk', description: '', boot_type: 'local', script: '', linux: null, chain: null, sanboot: null, menu: null, variables: {}, default_for_groups: [], script_version: 1, created_at: '', updated_at: '', warnings: [] };
    const fake = renderApp(
      '/setup',
      routes({
        'GET /api/v1/bootloader/check': () => ok({ ok: true, checked_at: '2024-05-01T00:00:00Z', files: [], profiles: [], problems: [] }),
        'POST /api/v1/profiles': () => ({ status: 201, body: { success: true, data: profile } }),
        'PUT /api/v1/settings/netboot': (body) => ok(body),
      }),
    );
    await screen.findByRole('heading', { name: 'First-run setup' });
    fireEvent.click(await screen.findByRole('button', { name: /Boot something/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Check the boot files' }));
    expect(await screen.findByText('Boot loaders: no errors.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create a local-disk profile' }));
    expect(await screen.findByText('Ready to boot')).toBeTruthy();
    expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[0]?.body).toEqual({ default_profile_id: 5 });
    expect(screen.getByText(/Power on a machine cabled to eth0/)).toBeTruthy();
  });

  it('is offered on the dashboard to admins until skipped, never to viewers', async () => {
    const fake = renderApp('/', routes({ 'GET /api/v1/system/first-run': () => ok({ completed: false, skipped: false, must_change_password: false }) }));
    expect((await screen.findByRole('link', { name: 'Start setup' })).getAttribute('href')).toBe('/setup');
    fireEvent.click(screen.getByRole('button', { name: 'Skip setup' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/system/first-run').map((call) => call.body)).toEqual([{ action: 'skip' }]));
    cleanup();

    const viewer = renderApp('/', routes(), { session: VIEWER_SESSION });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Start setup' })).toBeNull();
    expect(screen.queryByText('The admin account still has its generated password')).toBeNull();
    expect(callsTo(viewer.calls, 'GET', '/system/first-run')).toEqual([]);
  });

  it('shows the setup state\'s load error with Retry', async () => {
    renderApp('/setup', routes({ 'GET /api/v1/system/first-run': () => fail(503, 'UNAVAILABLE', 'the store is busy') }));
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
