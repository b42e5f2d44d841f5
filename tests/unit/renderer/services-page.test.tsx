// @vitest-environment jsdom
import './dom-setup.js';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceStatus } from '@contracts/services';
import { fail, ok, type Route } from './fake-transport.js';
import { VIEWER_SESSION, callsTo, renderApp } from './render-app.js';

afterEach(cleanup);

const HTTP: ServiceStatus = {
  name: 'http',
  description: 'HTTP: REST API, web UI and HTTP boot files',
  state: 'running',
  auto_start: true,
  protected: true,
  listen: ['tcp 0.0.0.0:8080'],
  started_at: '2025-01-01T00:00:00.000Z',
  uptime_seconds: 3725,
  last_error: null,
  notice: null,
};
const DNS: ServiceStatus = { ...HTTP, name: 'dns', description: 'DNS server', protected: false, listen: ['udp 0.0.0.0:53'], uptime_seconds: 42 };
const TFTP: ServiceStatus = { ...DNS, name: 'tftp', description: 'TFTP server', state: 'failed', listen: [], started_at: null, uptime_seconds: null, last_error: 'port 69 is in use' };

const rowOf = (name: string) => screen.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }).closest('tr')!;

function renderServices(routes: Record<string, Route>, session?: unknown) {
  return renderApp('/services', routes, session ? { session } : {});
}

describe('ServicesPage', () => {
  it('shows a loading state, then one row per service with its details', async () => {
    let answer: (value: ReturnType<typeof ok>) => void = () => undefined;
    renderServices({ 'GET /api/v1/services': () => new Promise((resolve) => (answer = resolve)) });
    expect((await screen.findByText('Loading services…')).closest('[role=status]')).toBeTruthy();
    answer(ok([HTTP, DNS, TFTP]));
    await screen.findByRole('table');
    const tftp = within(rowOf('tftp'));
    expect(tftp.getByText('failed')).toBeTruthy();
    expect(tftp.getByText('port 69 is in use')).toBeTruthy();
    expect(within(rowOf('dns')).getByText('udp 0.0.0.0:53')).toBeTruthy();
    expect(within(rowOf('http')).getByText('1h 02m')).toBeTruthy();
    // The configurable services link to their pages.
    expect(within(rowOf('dns')).getByRole('link', { name: 'dns' }).getAttribute('href')).toBe('/services/dns');
  });

  it('offers no stop (or restart) for the protected http service', async () => {
    renderServices({ 'GET /api/v1/services': () => ok([HTTP, DNS]) });
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: 'Stop http' })).toBeNull();
    expect(within(rowOf('http')).getByText('Always on')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Stop dns' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Start dns' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the empty state, and a load error with a working Retry', async () => {
    let attempt = 0;
    renderServices({ 'GET /api/v1/services': () => (++attempt === 1 ? fail(500, 'INTERNAL', 'store unavailable') : ok([])) });
    expect((await screen.findByRole('alert')).textContent).toContain('store unavailable');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No services are registered.')).toBeTruthy();
  });

  it('stops a service and shows the new state', async () => {
    let dns = DNS;
    const fake = renderServices({
      'GET /api/v1/services': () => ok([HTTP, dns]),
      'POST /api/v1/services/dns/stop': () => {
        dns = { ...DNS, state: 'stopped', listen: [], uptime_seconds: null, started_at: null };
        return ok(dns);
      },
    });
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Stop dns' }));
    await waitFor(() => expect(within(rowOf('dns')).getByText('stopped')).toBeTruthy());
    expect(callsTo(fake.calls, 'POST', '/services/dns/stop')).toHaveLength(1);
  });

  it('shows a failed action with the server message', async () => {
    renderServices({
      'GET /api/v1/services': () => ok([HTTP, DNS]),
      'POST /api/v1/services/dns/restart': () => fail(409, 'INVALID_STATE', 'dns is stopping'),
    });
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Restart dns' }));
    expect(await screen.findByText('dns is stopping')).toBeTruthy();
  });

  it('toggles auto-start', async () => {
    const fake = renderServices({ 'GET /api/v1/services': () => ok([HTTP, DNS]), 'PUT /api/v1/services/dns/auto-start': (body) => ok({ ...DNS, ...(body as object) }) });
    fireEvent.click(await screen.findByRole('switch', { name: 'Auto-start dns' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/dns/auto-start')[0]?.body).toEqual({ auto_start: false }));
  });

  it('runs a batch action on the selected services after confirmation', async () => {
    const fake = renderServices({
      'GET /api/v1/services': () => ok([HTTP, DNS, TFTP]),
      'POST /api/v1/services/batch/stop': () => ok([{ name: 'dns', ok: true, service: DNS }, { name: 'tftp', ok: false, error: 'already stopped', code: 'INVALID_STATE' }]),
    });
    await screen.findByRole('table');
    // The protected service cannot be selected.
    expect(within(rowOf('http')).queryByRole('checkbox')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all services' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop selected' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/dns, tftp will be stopped/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/services/batch/stop')[0]?.body).toEqual({ names: ['dns', 'tftp'] }));
    expect(await screen.findByText('tftp: already stopped')).toBeTruthy();
  });

  it('reloads when another user changes a service (live events)', async () => {
    let dns = DNS;
    const fake = renderServices({ 'GET /api/v1/services': () => ok([HTTP, dns]) });
    await screen.findByRole('table');
    const stream = fake.streams.find((entry) => entry.request.stream === 'events' && !entry.closed);
    expect(stream).toBeTruthy();
    dns = { ...DNS, state: 'failed', last_error: 'bind failed' };
    act(() => stream!.handlers.onMessage({ id: 7, event: 'service.failed', data: { id: 7, kind: 'service.failed', level: 'error', message: 'dns failed', mac: null, ip: null, host_id: null, detail: null, created_at: new Date().toISOString() } }));
    expect(await screen.findByText('bind failed')).toBeTruthy();
  });

  it('shows a viewer the states but no switches and no buttons', async () => {
    renderServices({ 'GET /api/v1/services': () => ok([HTTP, DNS]) }, VIEWER_SESSION);
    await screen.findByRole('table');
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Start|Stop|Restart/ })).toBeNull();
    expect(within(rowOf('dns')).getByText('On')).toBeTruthy();
  });
});
