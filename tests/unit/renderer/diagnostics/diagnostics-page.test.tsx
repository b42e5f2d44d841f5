// @vitest-environment jsdom
import '../dom-setup.js';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { API_FIXTURES } from '../api-fixtures.js';
import { fail, type Route } from '../fake-transport.js';
import { renderApp } from '../render-app.js';

afterEach(cleanup);

const PING_RESULT = {
  target: '10.0.0.7',
  replies: [
    { seq: 1, from: '10.0.0.7', ttl: 64, time_ms: 0.42, error: null },
    { seq: 2, from: '10.0.0.1', ttl: null, time_ms: null, error: 'Time to live exceeded' },
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
    { hop: 3, addresses: ['10.0.1.1'], rtts_ms: [3064.1, 3064.2, 3064.3], notes: ['!H'] },
  ],
  reached: false,
  tool: 'traceroute',
  exit_code: 0,
  timed_out: false,
  error: null,
  lines: ['traceroute to 10.0.1.2 (10.0.1.2), 30 hops max, 60 byte packets'],
};

const routes: Record<string, Route> = { ...API_FIXTURES };

type Fake = ReturnType<typeof renderApp>;

/** The page's open stream (the last one), to push messages into as the server would. */
function lastStream(fake: Fake) {
  const stream = fake.postStreams.at(-1);
  if (!stream) throw new Error('the page opened no stream');
  return stream;
}

function push(fake: Fake, event: string, data: unknown) {
  act(() => lastStream(fake).handlers.onMessage({ event, data }));
}

async function startPing(target = '10.0.0.7') {
  const fake = renderApp('/diagnostics', routes);
  fireEvent.change(await screen.findByLabelText(/^Target/), { target: { value: ` ${target} ` } });
  fireEvent.change(screen.getByLabelText('Count'), { target: { value: '2' } });
  fireEvent.click(screen.getByRole('button', { name: 'Run ping' }));
  await waitFor(() => expect(fake.postStreams).toHaveLength(1));
  return fake;
}

const tableRows = () => within(screen.getByRole('table', { name: 'Results' })).getAllByRole('row').slice(1);

describe('Diagnostics page (live)', () => {
  it('opens the ping stream with the form fields and fills the table row by row, the summary when done', async () => {
    const fake = await startPing();
    expect(lastStream(fake)).toMatchObject({ path: '/api/v1/network/ping/stream', body: { target: '10.0.0.7', count: 2, timeout_seconds: 2, size: 56 } });
    expect(fake.calls.filter((call) => call.path.startsWith('/api/v1/network/'))).toEqual([]);

    push(fake, 'row', PING_RESULT.replies[0]);
    expect(tableRows()).toHaveLength(1);
    expect(within(tableRows()[0]!).getByText('0.42 ms')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Progress' }).textContent).toContain('1 reply line so far');
    expect(screen.queryByRole('status', { name: 'Summary' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Stop' }).hasAttribute('disabled')).toBe(false);

    push(fake, 'row', PING_RESULT.replies[1]);
    expect(tableRows()).toHaveLength(2);
    expect(within(tableRows()[1]!).getByText('Time to live exceeded')).toBeTruthy();
    expect(within(tableRows()[1]!).getByText('10.0.0.1')).toBeTruthy();
    // Sub-millisecond times are charted in µs (on a ms scale the bars would be flat).
    expect(screen.getByRole('img', { name: 'Latency: 420 µs in all' })).toBeTruthy();

    push(fake, 'done', PING_RESULT);
    expect(screen.getByRole('status', { name: 'Summary' }).textContent).toContain('2 sent, 1 received, 50% loss · min/avg/max 0.42/0.42/0.42 ms');
    expect(screen.queryByRole('status', { name: 'Progress' })).toBeNull();
    expect(screen.getByLabelText('Raw output').textContent).toContain('icmp_seq=1');
    expect(screen.getByRole('button', { name: 'Stop' }).hasAttribute('disabled')).toBe(true);
  });

  it('traces a route hop by hop, showing timeouts as * * * and annotations', async () => {
    const fake = renderApp('/diagnostics', routes);
    fireEvent.click(await screen.findByText('Traceroute'));
    fireEvent.change(screen.getByLabelText(/^Target/), { target: { value: '10.0.1.2' } });
    fireEvent.change(screen.getByLabelText('Max hops'), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run traceroute' }));
    await waitFor(() => expect(fake.postStreams).toHaveLength(1));
    expect(lastStream(fake)).toMatchObject({ path: '/api/v1/network/traceroute/stream', body: { target: '10.0.1.2', max_hops: 5, timeout_seconds: 2 } });
    push(fake, 'row', TRACE_RESULT.hops[0]);
    push(fake, 'row', TRACE_RESULT.hops[1]);
    expect(tableRows()).toHaveLength(2);
    expect(within(tableRows()[1]!).getByText('* * *')).toBeTruthy();
    push(fake, 'row', TRACE_RESULT.hops[2]);
    expect(within(tableRows()[2]!).getByText('!H')).toBeTruthy();
    push(fake, 'done', TRACE_RESULT);
    expect(screen.getByRole('status', { name: 'Summary' }).textContent).toContain('3 hop(s) with traceroute; target not reached');
    // Averages per hop (0.2 and 3064.2 ms; the lost hop 0) in ms.
    expect(screen.getByRole('img', { name: /^Latency: 3064\.\d+ ms in all$/ })).toBeTruthy();
  });

  it('Stop closes the stream and keeps the rows so far', async () => {
    const fake = await startPing();
    push(fake, 'row', PING_RESULT.replies[0]);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(lastStream(fake).closed).toBe(true);
    expect(screen.getByRole('status', { name: 'Progress' }).textContent).toContain('Stopped after 1 reply line');
    expect(tableRows()).toHaveLength(1);
    // A late message of the stopped run changes nothing.
    push(fake, 'row', PING_RESULT.replies[1]);
    expect(tableRows()).toHaveLength(1);
  });

  it('leaving the page closes the stream (the server then stops the tool)', async () => {
    const fake = await startPing();
    push(fake, 'row', PING_RESULT.replies[0]);
    fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(lastStream(fake).closed).toBe(true));
  });

  it('shows the server\'s message for a refusal, an `error` event, and a bad target by field', async () => {
    const fake = await startPing();
    act(() => lastStream(fake).handlers.onRefused(fail(429, 'RATE_LIMITED', '4 diagnostics are running already; retry in 5 s', 5)));
    expect(screen.getByRole('alert').textContent).toContain('4 diagnostics are running already');
    expect(screen.queryByRole('table', { name: 'Results' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Run ping' }));
    await waitFor(() => expect(fake.postStreams).toHaveLength(2));
    push(fake, 'error', { code: 'UNAVAILABLE', message: 'ping is not installed on the server' });
    expect(screen.getByRole('alert').textContent).toContain('ping is not installed on the server');

    fireEvent.click(screen.getByRole('button', { name: 'Run ping' }));
    await waitFor(() => expect(fake.postStreams).toHaveLength(3));
    act(() =>
      lastStream(fake).handlers.onRefused({
        status: 400,
        body: { success: false, error: 'body.target: must not start with "-"', code: 'VALIDATION_FAILED', details: [{ field: 'body.target', message: 'must not start with "-"' }] },
      }),
    );
    expect(screen.getByText('must not start with "-"')).toBeTruthy();
  });

  it('checks the fields against the contract before opening anything', async () => {
    const fake = renderApp('/diagnostics', routes);
    fireEvent.change(await screen.findByLabelText(/^Target/), { target: { value: '10.0.0.7' } });
    fireEvent.change(screen.getByLabelText('Count'), { target: { value: '99' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run ping' }));
    expect(await screen.findByText('A whole number 1–20')).toBeTruthy();
    expect(fake.postStreams).toHaveLength(0);
  });
});
