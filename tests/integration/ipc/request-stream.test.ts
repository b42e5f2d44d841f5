import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PingReply, PingResult } from '../../../src-main/diagnostics/index.js';
import type { Command } from '../../../src-main/diagnostics/index.js';
import { isAppUrl } from '../../../src-main/desktop/navigation-policy.js';
import { registerElectronIpc } from '../../../src-main/ipc/electron-ipc.js';
import { ApiClient } from '../../../src-renderer/src/api/api-client.js';
import type { ApiError } from '../../../src-renderer/src/api/api-error.js';
import { login } from '../../../src-renderer/src/api/auth-api.js';
import { diagnosticsClient } from '../../../src-renderer/src/api/clients/diagnostics-client.js';
import { createHttpTransport } from '../../../src-renderer/src/api/http-transport.js';
import { createIpcTransport } from '../../../src-renderer/src/api/ipc-transport.js';
import { createUser, sessionCookieFrom } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { createFakeElectronIpc } from '../renderer/fake-electron-ipc.js';
import { loadPreload } from '../renderer/load-preload.js';

/*
 * The diagnostics' POST streams through both renderer transports against a
 * real core: over IPC (the real preload, the real main-side handlers on a
 * fake Electron IPC pair, the IPC bridge injecting into the same route) and
 * over HTTP (fetch reading the event stream on a real socket). The tool is a
 * stand-in run through the area's `wrap` seam: it prints ping's first reply
 * and then waits for a file the test writes, so "a row before done" is
 * ordered by cause, not by timing; stopped instead, it must be killed.
 */

const FAKE_PING = `
import { existsSync, writeFileSync } from 'node:fs';
const dir = process.argv[2];
writeFileSync(dir + '/pid', String(process.pid));
console.log('PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.');
console.log('64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.026 ms');
const deadline = Date.now() + 20000;
const timer = setInterval(() => {
  if (existsSync(dir + '/go')) {
    clearInterval(timer);
    console.log('64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.034 ms');
    console.log('');
    console.log('--- 127.0.0.1 ping statistics ---');
    console.log('2 packets transmitted, 2 received, 0% packet loss, time 1001ms');
    console.log('rtt min/avg/max/mdev = 0.026/0.030/0.034/0.004 ms');
    process.exit(0);
  }
  if (Date.now() > deadline) process.exit(2);
}, 20);
`;

let test: TestCore;
let work: string;
let runDir = '';
const clients: Record<'ipc' | 'http', ApiClient> = {} as never;

/** The stand-in tool, in a fresh folder per run; the command line is still checked to aim at loopback only. */
function fakeTool(command: Command): Command {
  if (command.args.at(-1) !== '127.0.0.1') throw new Error(`this test pings 127.0.0.1 only, not ${command.args.at(-1) ?? '?'}`);
  return { tool: process.execPath, args: [path.join(work, 'fake-ping.mjs'), runDir] };
}

function cookieJarFetch(): typeof fetch {
  let cookie: string | null = null;
  return async (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(input, { ...init, headers });
    const fresh = sessionCookieFrom(response.headers.getSetCookie());
    if (fresh) cookie = fresh;
    return response;
  };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'bootwright-request-stream-'));
  await writeFile(path.join(work, 'fake-ping.mjs'), FAKE_PING);
  test = await createTestCore({ diagnostics: { wrap: fakeTool } });
  await test.core.start();

  const ipc = createFakeElectronIpc();
  registerElectronIpc({
    ipcMain: ipc.ipcMain,
    core: test.core,
    isTrustedSender: (event) => event.senderFrame !== null && event.senderFrame.parent === null && isAppUrl(event.senderFrame.url),
    log: test.core.kernel.log,
  });
  clients.ipc = new ApiClient(createIpcTransport(loadPreload(ipc).api));

  const operator = await createUser(test.core, 'operator');
  clients.http = new ApiClient(createHttpTransport({ baseUrl: test.core.url(), fetch: cookieJarFetch() }));
  await login(clients.http, operator.username, operator.password);
});

afterAll(async () => {
  await test?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A live ping whose events the test reads in order. */
function livePing(kind: 'ipc' | 'http', body: Record<string, unknown>) {
  const events: ({ type: 'row'; row: PingReply } | { type: 'done'; result: PingResult } | { type: 'error'; error: ApiError })[] = [];
  const stop = diagnosticsClient(clients[kind]).pingLive(body as never, {
    onRow: (row) => events.push({ type: 'row', row }),
    onDone: (result) => events.push({ type: 'done', result }),
    onError: (error) => events.push({ type: 'error', error }),
  });
  return { events, stop };
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe.each(['ipc', 'http'] as const)('diagnostics POST stream over %s', (kind) => {
  it('delivers a row while the tool still runs, then the result', async () => {
    runDir = await mkdtemp(path.join(work, 'run-'));
    const run = livePing(kind, { target: '127.0.0.1', count: 2, timeout_seconds: 1 });
    // The tool is waiting for the go file: this row came before the run could be done.
    await vi.waitFor(() => expect(run.events).toHaveLength(1), { timeout: 10_000 });
    expect(run.events[0]).toEqual({ type: 'row', row: { seq: 1, from: '127.0.0.1', ttl: 64, time_ms: 0.026, error: null } });
    await writeFile(path.join(runDir, 'go'), '');
    await vi.waitFor(() => expect(run.events.at(-1)?.type).toBe('done'), { timeout: 10_000 });
    expect(run.events.map((event) => event.type)).toEqual(['row', 'row', 'done']);
    expect(run.events[2]).toMatchObject({ type: 'done', result: { transmitted: 2, received: 2, loss_percent: 0, min_ms: 0.026, max_ms: 0.034, exit_code: 0 } });
    expect(test.core.area('diagnostics').active).toBe(0);
  });

  it('stopping the stream kills the tool on the server and frees its slot', async () => {
    runDir = await mkdtemp(path.join(work, 'run-'));
    // A wall-time cap (count + timeout + 5 s = 35 s) and the stand-in's own 20 s both outlast the waits below: only the stop can end it.
    const run = livePing(kind, { target: '127.0.0.1', count: 20, timeout_seconds: 10 });
    await vi.waitFor(() => expect(run.events).toHaveLength(1), { timeout: 10_000 });
    const pid = Number(await readFile(path.join(runDir, 'pid'), 'utf8'));
    expect(gone(pid)).toBe(false);
    expect(test.core.area('diagnostics').active).toBe(1);
    run.stop();
    await vi.waitFor(() => expect(test.core.area('diagnostics').active).toBe(0), { timeout: 10_000 });
    await vi.waitFor(() => expect(gone(pid)).toBe(true), { timeout: 10_000 });
    expect(existsSync(path.join(runDir, 'go'))).toBe(false);
    // Nothing is reported after the caller stopped.
    expect(run.events).toHaveLength(1);
  });

  it('reports a refused body as the route\'s 400 with the field, spawning nothing', async () => {
    const run = livePing(kind, { target: '127.0.0.1', count: 99 });
    await vi.waitFor(() => expect(run.events).toHaveLength(1), { timeout: 10_000 });
    expect(run.events[0]).toMatchObject({ type: 'error', error: { status: 400, code: 'VALIDATION_FAILED', details: [{ field: 'body.count' }] } });
    expect(test.core.area('diagnostics').active).toBe(0);
  });
});

describe('request streams over IPC', () => {
  it('are POST only, and plain invoke still refuses a stream route', async () => {
    const refused = await test.core.ipc.stream({ method: 'GET', path: '/api/v1/events/stream' }, { onText: () => undefined, onEnd: () => undefined });
    expect(refused).toMatchObject({ ok: false, response: { status: 400, body: { code: 'BAD_REQUEST' } } });
    const invoked = await test.core.ipc.invoke({ method: 'POST', path: '/api/v1/network/ping/stream', body: { target: '127.0.0.1' } });
    expect(invoked).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    // The route took a slot (and spawned) before the stream was refused; the refusal stops that run.
    await vi.waitFor(() => expect(test.core.area('diagnostics').active).toBe(0), { timeout: 10_000 });
  });
});
