// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceStatus } from '../../../src-renderer/src/api/services-api.js';
import { AppStateProvider, createAppState } from '../../../src-renderer/src/app-state.js';
import { ServicesPage } from '../../../src-renderer/src/pages/ServicesPage.js';
import { fail, fakeTransport, ok, type Route } from './fake-transport.js';

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
};
const DNS: ServiceStatus = {
  name: 'dns',
  description: 'DNS server',
  state: 'running',
  auto_start: true,
  protected: false,
  listen: ['udp 0.0.0.0:53'],
  started_at: '2025-01-01T00:00:00.000Z',
  uptime_seconds: 42,
  last_error: null,
};
const TFTP: ServiceStatus = { ...DNS, name: 'tftp', description: 'TFTP server', state: 'failed', listen: [], started_at: null, uptime_seconds: null, last_error: 'port 69 is in use' };

function renderPage(routes: Record<string, Route>) {
  const fake = fakeTransport(routes);
  const state = createAppState(fake.transport);
  render(
    <AppStateProvider value={state}>
      <MemoryRouter>
        <ServicesPage />
      </MemoryRouter>
    </AppStateProvider>,
  );
  return fake;
}

const rowOf = (name: string) => screen.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }).closest('tr')!;

describe('ServicesPage', () => {
  it('shows a loading state, then one row per service with its details', async () => {
    let answer: (value: ReturnType<typeof ok>) => void = () => undefined;
    renderPage({ 'GET /api/v1/services': () => new Promise((resolve) => (answer = resolve)) });
    expect((screen.getByRole('status')).textContent).toContain('Loading services…');
    answer(ok([HTTP, DNS, TFTP]));
    await screen.findByRole('table');
    const tftp = within(rowOf('tftp'));
    expect(tftp.getByText('failed')).toBeTruthy();
    expect(tftp.getByText('port 69 is in use')).toBeTruthy();
    expect(within(rowOf('dns')).getByText('udp 0.0.0.0:53')).toBeTruthy();
    expect(within(rowOf('http')).getByText('1h 02m')).toBeTruthy();
  });

  it('offers no stop (or restart) for the protected http service', async () => {
    renderPage({ 'GET /api/v1/services': () => ok([HTTP, DNS]) });
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: 'Stop http' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Restart http' })).toBeNull();
    expect(within(rowOf('http')).getByText('Always on')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Stop dns' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Start dns' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the empty state', async () => {
    renderPage({ 'GET /api/v1/services': () => ok([]) });
    expect(await screen.findByText('No services are registered.')).toBeTruthy();
  });

  it('shows a load error with a working Retry', async () => {
    let attempts = 0;
    renderPage({ 'GET /api/v1/services': () => (++attempts === 1 ? fail(500, 'INTERNAL', 'store unavailable') : ok([DNS])) });
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load services: store unavailable');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table');
  });

  it('stop calls POST /services/{name}/stop and shows the new state', async () => {
    const fake = renderPage({
      'GET /api/v1/services': () => ok([HTTP, DNS]),
      'POST /api/v1/services/dns/stop': () => ok({ ...DNS, state: 'stopped', listen: [], uptime_seconds: null, started_at: null }),
    });
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Stop dns' }));
    await waitFor(() => expect(within(rowOf('dns')).getByText('stopped')).toBeTruthy());
    expect(fake.calls).toContainEqual({ method: 'POST', path: '/api/v1/services/dns/stop', body: undefined });
    expect((screen.getByRole('button', { name: 'Start dns' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('the auto-start switch calls PUT /services/{name}/auto-start', async () => {
    const fake = renderPage({
      'GET /api/v1/services': () => ok([DNS]),
      'PUT /api/v1/services/dns/auto-start': (body) => ok({ ...DNS, auto_start: (body as { auto_start: boolean }).auto_start }),
    });
    await screen.findByRole('table');
    const toggle = screen.getByRole('switch', { name: 'Auto-start dns' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    fireEvent.click(toggle);
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Auto-start dns' }) as HTMLInputElement).checked).toBe(false));
    expect(fake.calls).toContainEqual({ method: 'PUT', path: '/api/v1/services/dns/auto-start', body: { auto_start: false } });
  });

  it('shows a failed action as an alert that can be dismissed', async () => {
    renderPage({
      'GET /api/v1/services': () => ok([TFTP]),
      'POST /api/v1/services/tftp/restart': () => fail(409, 'INVALID_STATE', 'service tftp is starting; try again when it has settled'),
    });
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Restart tftp' }));
    expect((await screen.findByRole('alert')).textContent).toContain('tftp: service tftp is starting; try again when it has settled');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('follows service events live and closes the stream on unmount', async () => {
    let state: ServiceStatus = DNS;
    const fake = renderPage({ 'GET /api/v1/services': () => ok([state]) });
    await screen.findByRole('table');
    expect(fake.streams).toHaveLength(1);
    expect(fake.streams[0]!.request).toEqual({ stream: 'events', params: { kind: 'service.' } });
    state = { ...DNS, state: 'failed', last_error: 'socket closed' };
    fake.streams[0]!.handlers.onMessage({ id: 9, event: 'service.failed', data: {} });
    expect(await screen.findByText('socket closed')).toBeTruthy();
    cleanup();
    expect(fake.streams[0]!.closed).toBe(true);
  });
});
