import { afterEach, describe, expect, it } from 'vitest';
import type { Command } from '../../../src-main/diagnostics/index.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { SseClient } from '../events/sse-client.js';
import { as, stubAuthenticator } from '../events/stub-auth.js';

/*
 * The diagnostics through a real core and the real tools, against 127.0.0.1
 * only. The `wrap` seam records every command line that would be spawned
 * (and checks its target is loopback) without changing it.
 */

let t: TestCore | null = null;
const spawned: Command[] = [];

afterEach(async () => {
  await t?.close();
  t = null;
  spawned.length = 0;
});

function recordLoopbackOnly(command: Command): Command {
  const target = command.args.at(-1) ?? '';
  if (target !== '127.0.0.1' && target !== '::1' && target !== 'localhost') throw new Error(`a test tried to reach ${target}: diagnostics tests stay on loopback`);
  spawned.push(command);
  return command;
}

async function startCore(options: { maxConcurrent?: number } = {}): Promise<TestCore> {
  t = await createTestCore({ authenticator: stubAuthenticator, diagnostics: { wrap: recordLoopbackOnly, ...options } });
  await t.core.start();
  return t;
}

const operator = as('operator');

async function post(core: TestCore, path: string, body: unknown, headers: Record<string, string> = operator) {
  const response = await fetch(`${core.core.url()}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { success: boolean; data?: Record<string, unknown>; code?: string; error?: string } };
}

describe('POST /network/ping and /network/traceroute', () => {
  it('pings 127.0.0.1 and returns the parsed replies and statistics', async () => {
    const core = await startCore();
    const { status, body } = await post(core, '/network/ping', { target: '127.0.0.1', count: 2, timeout_seconds: 1 });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ target: '127.0.0.1', tool: 'ping', exit_code: 0, transmitted: 2, received: 2, loss_percent: 0, timed_out: false, error: null });
    const replies = body.data?.replies as { seq: number; ttl: number; time_ms: number }[];
    expect(replies.map((reply) => reply.seq)).toEqual([1, 2]);
    expect(replies.every((reply) => reply.ttl > 0 && reply.time_ms >= 0)).toBe(true);
    expect(typeof body.data?.avg_ms).toBe('number');
    expect(spawned).toEqual([{ tool: 'ping', args: ['-n', '-c', '2', '-W', '1', '-s', '56', '--', '127.0.0.1'] }]);
  });

  it('traces the route to 127.0.0.1: one hop, reached', async () => {
    const core = await startCore();
    const { status, body } = await post(core, '/network/traceroute', { target: '127.0.0.1', max_hops: 3, timeout_seconds: 1 });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ target: '127.0.0.1', reached: true, exit_code: 0 });
    expect(body.data?.hops).toMatchObject([{ hop: 1, addresses: ['127.0.0.1'] }]);
    expect((body.data?.lines as string[]).length).toBeGreaterThan(0);
  });

  it('is for operators: a viewer gets 403', async () => {
    const core = await startCore();
    expect((await post(core, '/network/ping', { target: '127.0.0.1', count: 1 }, as('viewer'))).status).toBe(403);
    expect((await post(core, '/network/traceroute/stream', { target: '127.0.0.1' }, as('viewer'))).status).toBe(403);
    expect(spawned).toEqual([]);
  });

  it.each([
    ['-f'],
    ['--help'],
    ['127.0.0.1; rm -rf /'],
    ['$(id)'],
    ['127.0.0.1\n-f'],
    ['a'.repeat(300)],
    [`${'a'.repeat(64)}.example`],
    [''],
  ])('refuses the target %j with 400 and spawns nothing', async (target) => {
    const core = await startCore();
    for (const path of ['/network/ping', '/network/ping/stream', '/network/traceroute', '/network/traceroute/stream']) {
      const { status, body } = await post(core, path, { target });
      expect(status, path).toBe(400);
      expect(body.code).toBe('VALIDATION_FAILED');
    }
    expect(spawned).toEqual([]);
  });

  it('refuses numbers out of range and unknown fields', async () => {
    const core = await startCore();
    for (const body of [{ target: '127.0.0.1', count: 0 }, { target: '127.0.0.1', count: 21 }, { target: '127.0.0.1', size: 1473 }, { target: '127.0.0.1', timeout_seconds: 11 }, { target: '127.0.0.1', family: 5 }, { target: '127.0.0.1', args: ['-f'] }]) {
      expect((await post(core, '/network/ping', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await post(core, '/network/traceroute', { target: '127.0.0.1', max_hops: 31 })).status).toBe(400);
    expect(spawned).toEqual([]);
  });
});

describe('the /stream variants', () => {
  it('streams one row per reply, then done with the result', async () => {
    const core = await startCore();
    const client = await SseClient.post(`${core.core.url()}/api/v1/network/ping/stream`, { target: '127.0.0.1', count: 2, timeout_seconds: 1 }, operator);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream');
    const events: { event: string | undefined; data: Record<string, unknown> }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const frame = await client.nextEvent();
      events.push({ event: frame.event, data: JSON.parse(frame.data ?? 'null') as Record<string, unknown> });
    }
    expect(events.map((e) => e.event)).toEqual(['row', 'row', 'done']);
    expect(events[0]?.data).toMatchObject({ seq: 1, from: '127.0.0.1' });
    expect(events[2]?.data).toMatchObject({ received: 2, loss_percent: 0 });
    await client.whenClosed();
  });

  it('streams traceroute hops and ends with done', async () => {
    const core = await startCore();
    const client = await SseClient.post(`${core.core.url()}/api/v1/network/traceroute/stream`, { target: '127.0.0.1', max_hops: 2, timeout_seconds: 1 }, operator);
    const first = await client.nextEvent();
    expect(first.event).toBe('row');
    expect(JSON.parse(first.data ?? 'null')).toMatchObject({ hop: 1, addresses: ['127.0.0.1'] });
    const last = await client.nextEvent();
    expect(last.event).toBe('done');
    expect(JSON.parse(last.data ?? 'null')).toMatchObject({ reached: true });
  });

  it('kills the tool when the client disconnects, freeing its slot', async () => {
    const core = await startCore();
    const diagnostics = core.core.area('diagnostics');
    const client = await SseClient.post(`${core.core.url()}/api/v1/network/ping/stream`, { target: '127.0.0.1', count: 20, timeout_seconds: 1 }, operator);
    expect((await client.nextEvent()).event).toBe('row');
    expect(diagnostics.active).toBe(1);
    client.close();
    // Bounded wait for the kill to land (20 pings would take 19 s more).
    for (let i = 0; i < 100 && diagnostics.active > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(diagnostics.active).toBe(0);
  });

  it('refuses a run beyond the limit with 429 and Retry-After', async () => {
    const core = await startCore({ maxConcurrent: 2 });
    const clients = await Promise.all([1, 2].map(() => SseClient.post(`${core.core.url()}/api/v1/network/ping/stream`, { target: '127.0.0.1', count: 20, timeout_seconds: 1 }, operator)));
    for (const client of clients) expect((await client.nextEvent()).event).toBe('row');
    const refused = await post(core, '/network/ping', { target: '127.0.0.1', count: 1 });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toBe('5');
    const streamRefused = await post(core, '/network/traceroute/stream', { target: '127.0.0.1' });
    expect(streamRefused.status).toBe(429);
    expect(spawned).toHaveLength(2);
    for (const client of clients) client.close();
  });

  it('refuses the stream through plain IPC invoke (streams go through IpcBridge.stream, tests/integration/ipc/request-stream.test.ts) and starts nothing lasting', async () => {
    const core = await startCore();
    const answer = await core.core.ipc.invoke({ method: 'POST', path: '/api/v1/network/ping/stream', body: { target: '127.0.0.1', count: 1 } });
    expect(answer.status).toBe(400);
    for (let i = 0; i < 100 && core.core.area('diagnostics').active > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(core.core.area('diagnostics').active).toBe(0);
  });
});

describe('a tool that is not installed', () => {
  it('is 503 on the plain route and an `error` message on the stream', async () => {
    const missing = (command: Command): Command => ({ tool: `/nonexistent/${command.tool}`, args: command.args });
    t = await createTestCore({ authenticator: stubAuthenticator, diagnostics: { wrap: missing } });
    await t.core.start();
    const plain = await post(t, '/network/ping', { target: '127.0.0.1', count: 1 });
    expect(plain.status).toBe(503);
    expect(plain.body).toMatchObject({ code: 'UNAVAILABLE', error: 'ping is not installed on the server' });
    const client = await SseClient.post(`${t.core.url()}/api/v1/network/traceroute/stream`, { target: '127.0.0.1' }, operator);
    const frame = await client.nextEvent();
    expect(frame.event).toBe('error');
    expect(JSON.parse(frame.data ?? 'null')).toEqual({ code: 'UNAVAILABLE', message: 'traceroute is not installed on the server' });
    await client.whenClosed();
    expect(t.core.area('diagnostics').active).toBe(0);
  });
});
