// @vitest-environment jsdom
import './dom-setup.js';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../../src-renderer/src/App.js';
import { API_FIXTURES } from './api-fixtures.js';
import { fail } from './fake-transport.js';
import { ADMIN_SESSION, VIEWER_SESSION, renderApp } from './render-app.js';

vi.mock('../../../src-renderer/src/editor/CodeEditor.js', () => import('./code-editor-stub.js'));

afterEach(cleanup);

/** Each routed page, with an id where the route has one, and the page's heading. */
const PAGES = ROUTES.map((route) => ({ ...route, url: route.path.replace(':id', '1') }));

/** Button labels that change something; a viewer must see none of them. */
const MUTATING = /^(New|Add|Save|Delete|Edit|Start|Stop|Restart|Create|Import|Probe|Wake|Adopt|Prune|Clean up|Remove|Roll back|Restore|Whitelist|Blacklist|Forget|Clear history|Check file|Actions|Selected|Revoke|Discard)/;

describe('every page', () => {
  it.each(PAGES.filter((page) => page.role === 'viewer').map((page) => [page.url]))('%s renders for a viewer without one mutating control', async (url) => {
    const fake = renderApp(url, API_FIXTURES, { session: VIEWER_SESSION });
    const main = await screen.findByRole('main');
    await within(main).findByRole('heading', { level: 1 });
    // Wait until nothing is loading.
    await waitFor(() => expect(within(main).queryAllByRole('status').filter((element) => /Loading/.test(element.textContent ?? ''))).toHaveLength(0));
    const buttons = within(main)
      .queryAllByRole('button')
      .map((button) => button.getAttribute('aria-label') ?? button.textContent ?? '')
      .filter((label) => MUTATING.test(label.trim()));
    expect(buttons).toEqual([]);
    // The only switch a viewer may use changes the view, not the server (the events page's live tail).
    const switches = within(main).queryAllByRole('switch').filter((element) => !(element as HTMLInputElement).disabled);
    expect(switches.map((element) => element.closest('label, .mantine-Switch-root')?.textContent)).toEqual(url === '/events' ? ['Live tail'] : []);
    // Nothing the page asked for was missing from the fixtures (a 404 here means a wrong path).
    const unknown = fake.calls.filter((call) => call.method === 'GET' && !API_FIXTURES[`GET ${call.path.split('?')[0]}`] && !call.path.includes('/auth/'));
    expect(unknown.map((call) => call.path)).toEqual([]);
  });

  it.each(PAGES.map((page) => [page.url]))('%s shows an error with Retry when its data cannot be loaded', async (url) => {
    const failing = Object.fromEntries(Object.keys(API_FIXTURES).map((key) => [key, () => fail(503, 'UNAVAILABLE', 'the store is busy')]));
    renderApp(url, { ...failing }, { session: ADMIN_SESSION });
    const main = await screen.findByRole('main');
    const alerts = await within(main).findAllByRole('alert');
    expect(alerts.some((alert) => /the store is busy/.test(alert.textContent ?? ''))).toBe(true);
    expect(within(main).getAllByRole('button', { name: 'Retry' }).length).toBeGreaterThan(0);
  });
});

describe('dashboard', () => {
  it('shows a live event as it arrives, with its level', async () => {
    const fake = renderApp('/', API_FIXTURES);
    const list = await screen.findByRole('list', { name: 'Latest events' });
    expect(within(list).getByText('dns started')).toBeTruthy();
    const stream = fake.streams.find((entry) => entry.request.stream === 'events' && !entry.closed)!;
    act(() =>
      stream.handlers.onMessage({
        id: 2,
        event: 'dhcp.nak',
        data: { id: 2, kind: 'dhcp.nak', level: 'warn', message: 'NAK to 52:54:00:00:00:05', mac: '52:54:00:00:00:05', ip: null, host_id: null, detail: null, created_at: new Date().toISOString() },
      }),
    );
    const item = (await within(list).findByText('NAK to 52:54:00:00:00:05')).closest('li')!;
    expect(within(item).getByText('warn')).toBeTruthy();
    expect(list.querySelector('li')?.getAttribute('data-event-id')).toBe('2');
  });

  it('warns when no interface is served, linking to the fix', async () => {
    renderApp('/', {
      ...API_FIXTURES,
      'GET /api/v1/settings/interfaces': () => ({ status: 200, body: { success: true, data: { served: [], server_addresses: [], detected_interfaces: [], resolved_addresses: [] } } }),
    });
    const warning = (await screen.findByText('No network interface is served')).closest('[role=alert], .mantine-Alert-root')!;
    expect(within(warning as HTMLElement).getByRole('link', { name: 'Choose the interfaces in Settings' }).getAttribute('href')).toBe('/settings?tab=interfaces');
  });

  it("shows the LAN URLs and what a service waits for (a link)", async () => {
    const waiting = { name: 'dhcp', description: 'DHCP', state: 'running', auto_start: true, protected: false, listen: ['udp 0.0.0.0:67'], started_at: '2024-05-01T00:00:00Z', uptime_seconds: 5, last_error: null, notice: 'br0: no link (cable unplugged?)' };
    const status = { version: '0.1.0', server_name: 'bootwright', started_at: '2024-05-01T00:00:00Z', uptime_seconds: 60, urls: ['http://10.42.0.1:8080', 'http://192.168.1.10:8080'], interface_watch: { mode: 'events', detail: null }, services: { total: 1, by_state: { stopped: 0, starting: 0, running: 1, stopping: 0, failed: 0 }, list: [waiting] }, data_dir: { path: '/data', bytes_used: 1024, usage_truncated: false, fs_free_bytes: 1e9, fs_total_bytes: 2e9 } };
    renderApp('/', { ...API_FIXTURES, 'GET /api/v1/status': () => ({ status: 200, body: { success: true, data: status } }) });
    expect((await screen.findByLabelText('dhcp notice')).textContent).toBe('br0: no link (cable unplugged?)');
    const lan = screen.getByLabelText('Web UI on the LAN');
    expect(within(lan).getByRole('link', { name: 'http://192.168.1.10:8080' }).getAttribute('href')).toBe('http://192.168.1.10:8080');
  });
});
