// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { API_FIXTURES } from '../api-fixtures.js';
import { fail, ok, type Route } from '../fake-transport.js';
import { callsTo, renderApp } from '../render-app.js';

afterEach(cleanup);

const PING_RESULT = {
  target: '10.0.0.7',
  replies: [
    { seq: 1, from: '10.0.0.7', ttl: 64, time_ms: 0.42, error: null },
    { seq: 2, from: null, ttl: null, time_ms: null, error: 'Destination Host Unreachable' },
  ],
  transmitted: 2,
  received: 1,
  loss_percent: 50,
  min_ms: 0.42,
  avg_ms: 0.42,
  max_ms: 0.42,
  tool: 'ping',
  exit_code: 1,
  timed_out: false,
  error: null,
  lines: ['PING 10.0.0.7 (10.0.0.7) 56(84) bytes of data.', '64 bytes from 10.0.0.7: icmp_seq=1 ttl=64 time=0.42 ms'],
};

const TRACE_RESULT = {
  target: '10.0.1.2',
  hops: [
    { hop: 1, addresses: ['10.0.0.1'], rtts_ms: [0.1, 0.2, 0.3], notes: [] },
    { hop: 2, addresses: [], rtts_ms: [null, null, null], notes: [] },
    { hop: 3, addresses: ['10.0.1.2'], rtts_ms: [1, 1, 1], notes: [] },
  ],
  reached: true,
  tool: 'traceroute',
  exit_code: 0,
  timed_out: false,
  error: null,
  lines: ['traceroute to 10.0.1.2 (10.0.1.2), 30 hops max, 60 byte packets'],
};

const routes: Record<string, Route> = {
  ...API_FIXTURES,
  'POST /api/v1/network/ping': () => ok(PING_RESULT),
  'POST /api/v1/network/traceroute': () => ok(TRACE_RESULT),
};

describe('Diagnostics page', () => {
  it('pings with the form fields and shows the replies, the summary and the chart', async () => {
    const fake = renderApp('/diagnostics', routes);
    fireEvent.change(await screen.findByLabelText(/^Target/), { target: { value: ' 10.0.0.7 ' } });
    fireEvent.change(screen.getByLabelText('Count'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run ping' }));
    const table = await screen.findByRole('table', { name: 'Results' });
    expect(within(table).getByText('0.42 ms')).toBeTruthy();
    expect(within(table).getByText('Destination Host Unreachable')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Summary' }).textContent).toContain('2 sent, 1 received, 50% loss');
    expect(screen.getByRole('img', { name: /^Latency/ })).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/network/ping')[0]?.body).toEqual({ target: '10.0.0.7', count: 2, timeout_seconds: 2, size: 56 });
  });

  it('traces a route and shows timeouts as *', async () => {
    const fake = renderApp('/diagnostics', routes);
    fireEvent.click(await screen.findByText('Traceroute'));
    fireEvent.change(screen.getByLabelText(/^Target/), { target: { value: '10.0.1.2' } });
    fireEvent.change(screen.getByLabelText('Max hops'), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run traceroute' }));
    const table = await screen.findByRole('table', { name: 'Results' });
    expect(within(table).getByText('* * *')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Summary' }).textContent).toContain('3 hop(s) with traceroute; target reached');
    expect(callsTo(fake.calls, 'POST', '/network/traceroute')[0]?.body).toEqual({ target: '10.0.1.2', max_hops: 5, timeout_seconds: 2 });
  });

  it('shows the server\'s refusal (a bad target, too many runs)', async () => {
    renderApp('/diagnostics', { ...routes, 'POST /api/v1/network/ping': () => fail(429, 'RATE_LIMITED', '4 diagnostics are running already; retry in 5 s', 5) });
    fireEvent.change(await screen.findByLabelText(/^Target/), { target: { value: 'pxe.lan' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run ping' }));
    await waitFor(() => expect(screen.getAllByText(/4 diagnostics are running already/).length).toBeGreaterThan(0));
    expect(screen.queryByRole('table', { name: 'Results' })).toBeNull();
  });
});
