import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BootwrightApi } from '../../../src-preload/preload.cjs';
import { ApiClient } from '../../../src-renderer/src/api/api-client.js';
import { ApiError } from '../../../src-renderer/src/api/api-error.js';
import { login } from '../../../src-renderer/src/api/auth-api.js';
import { createHttpTransport } from '../../../src-renderer/src/api/http-transport.js';
import { createIpcTransport } from '../../../src-renderer/src/api/ipc-transport.js';
import type { StreamMessage, StreamRequest } from '../../../src-renderer/src/api/transport.js';
import { isAppError } from '../../../src-main/core/errors.js';
import { isAppUrl } from '../../../src-main/desktop/navigation-policy.js';
import { registerElectronIpc } from '../../../src-main/ipc/electron-ipc.js';
import { createUser, sessionCookieFrom } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { createFakeElectronIpc } from './fake-electron-ipc.js';
import { loadPreload } from './load-preload.js';

/*
 * One contract, three ways to reach the core: HTTP (fetch against a real
 * socket, logged in with a real session cookie), IPC through a fake
 * window.bootwright that calls the core directly, and IPC through the real
 * preload and the real main-side handlers over a fake Electron IPC pair.
 * Every call must come out the same on all three.
 */

/** A fetch that keeps the session cookie, as a browser would. */
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

/** window.bootwright as the brief's simplest fake: straight into the core's IPC bridge and stream hub. */
function directBridge(test: TestCore): BootwrightApi {
  return {
    invoke: (method, path, body) => test.core.ipc.invoke(body === undefined ? { method, path } : { method, path, body }),
    subscribe(stream, params, onMessage, onError) {
      try {
        return test.core.streams.subscribe({ stream, params }, (message) => onMessage(structuredClone(message)));
      } catch (err) {
        if (!isAppError(err)) throw err;
        onError?.({ status: err.status, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) });
        return () => undefined;
      }
    },
    requestStream(path, body, onText, onEnd, onRefused) {
      let stop: (() => void) | null = null;
      let stopped = false;
      void test.core.ipc.stream({ method: 'POST', path, body }, { onText, onEnd }).then((opened) => {
        if (!opened.ok) onRefused(opened.response);
        else if (stopped) opened.close();
        else stop = opened.close;
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
    platform: { os: 'linux', electron: 'test', chrome: 'test' },
  };
}

type Outcome = { ok: true; value: unknown } | { ok: false; status: number; code: string; message: string; details: unknown };

/** The result of a call with what changes by the second removed (uptime counts on between calls). */
async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    const value = JSON.parse(JSON.stringify(await run()), (key, v: unknown) => (key === 'uptime_seconds' ? undefined : v)) as unknown;
    return { ok: true, value };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { ok: false, status: err.status, code: err.code, message: err.message, details: err.details };
  }
}

const CALLS: { name: string; run: (client: ApiClient) => Promise<unknown> }[] = [
  { name: 'GET /services (success)', run: (client) => client.get('/services') },
  { name: 'GET /events (list with meta)', run: (client) => client.list('/events?kind=contract.seed&size=2&sort=id') },
  { name: 'PUT auto-start (success)', run: (client) => client.put('/services/http/auto-start', { auto_start: true }) },
  { name: 'unknown service (404 NOT_FOUND)', run: (client) => client.post('/services/no-such/start') },
  { name: 'unknown route (404 ROUTE_NOT_FOUND)', run: (client) => client.get('/no-such-resource') },
  { name: 'wrong type (400 VALIDATION_FAILED)', run: (client) => client.put('/services/http/auto-start', { auto_start: 'yes' }) },
  { name: 'unknown field (400 VALIDATION_FAILED)', run: (client) => client.put('/services/http/auto-start', { auto_start: true, extra: 1 }) },
  { name: 'protected service (409 INVALID_STATE)', run: (client) => client.post('/services/http/stop') },
  { name: 'wrong method (405)', run: (client) => client.delete('/services') },
];

let test: TestCore;
const clients: Record<'http' | 'ipc-direct' | 'ipc-preload', ApiClient> = {} as never;
let seedIds: number[] = [];

beforeAll(async () => {
  test = await createTestCore();
  await test.core.start();
  seedIds = [1, 2, 3].map((n) => test.core.kernel.events.emit({ kind: 'contract.seed', message: `seed ${n}` }).id);

  const admin = await createUser(test.core, 'admin');
  clients.http = new ApiClient(createHttpTransport({ baseUrl: test.core.url(), fetch: cookieJarFetch() }));
  await login(clients.http, admin.username, admin.password);

  clients['ipc-direct'] = new ApiClient(createIpcTransport(directBridge(test)));

  const ipc = createFakeElectronIpc();
  registerElectronIpc({
    ipcMain: ipc.ipcMain,
    core: test.core,
    isTrustedSender: (event) => event.senderFrame !== null && event.senderFrame.parent === null && isAppUrl(event.senderFrame.url),
    log: test.core.kernel.log,
  });
  clients['ipc-preload'] = new ApiClient(createIpcTransport(loadPreload(ipc).api));
});

afterAll(async () => {
  await test?.close();
});

describe.each(['http', 'ipc-direct', 'ipc-preload'] as const)('API client contract over %s', (kind) => {
  const client = () => clients[kind];

  it('unwraps a success envelope to its data', async () => {
    const services = await client().get<{ name: string; state: string; protected: boolean }[]>('/services');
    expect(services.find((service) => service.name === 'http')).toMatchObject({ state: 'running', protected: true });
  });

  it('returns list data with meta', async () => {
    const page = await client().list<{ id: number; kind: string }>('/events?kind=contract.seed&size=2&sort=id');
    expect(page.meta).toEqual({ total: 3, page: 1, size: 2 });
    expect(page.data.map((event) => event.id)).toEqual(seedIds.slice(0, 2));
  });

  it('turns a 404 into an ApiError with the server code', async () => {
    const error = await client().post('/services/no-such/start').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('turns a validation failure into an ApiError naming the field', async () => {
    const error = await client().put('/services/http/auto-start', { auto_start: 'yes' }).catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((error as ApiError).details).toContainEqual(expect.objectContaining({ field: 'body.auto_start' }));
  });

  it('delivers live stream messages with replay from last_event_id', async () => {
    const first = test.core.kernel.events.emit({ kind: 'contract.live', message: `first for ${kind}` });
    const received: StreamMessage[] = [];
    const errors: ApiError[] = [];
    const request: StreamRequest = { stream: 'events', params: { kind: 'contract.live' }, last_event_id: first.id - 1 };
    const close = client().subscribe(request, { onMessage: (message) => received.push(message), onError: (error) => errors.push(error) });
    try {
      await vi.waitFor(() => expect(received.map((message) => message.id)).toContain(first.id));
      const second = test.core.kernel.events.emit({ kind: 'contract.live', message: `second for ${kind}` });
      await vi.waitFor(() => expect(received.map((message) => message.id)).toContain(second.id));
      expect(received.find((message) => message.id === second.id)).toMatchObject({
        event: 'contract.live',
        data: { id: second.id, kind: 'contract.live', message: `second for ${kind}` },
      });
      expect(errors).toEqual([]);
    } finally {
      close();
    }
  });

  it('reports a refused stream through onError with the server code', async () => {
    const errors: ApiError[] = [];
    const close = client().subscribe({ stream: 'events', params: { no_such_filter: 'x' } }, { onMessage: () => undefined, onError: (error) => errors.push(error) });
    try {
      await vi.waitFor(() => expect(errors).toHaveLength(1));
      expect(errors[0]).toBeInstanceOf(ApiError);
      expect(errors[0]).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    } finally {
      close();
    }
  });

  it('reports a refused POST stream (a diagnostics target the grammar refuses) as the same ApiError', async () => {
    const errors: ApiError[] = [];
    const stop = client().postStream('/network/ping/stream', { target: '-f' }, { onMessage: () => undefined, onEnd: () => undefined, onError: (error) => errors.push(error) });
    try {
      await vi.waitFor(() => expect(errors).toHaveLength(1));
      expect(errors[0]).toBeInstanceOf(ApiError);
      expect(errors[0]).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', details: [{ field: 'body.target' }] });
    } finally {
      stop();
    }
  });
});

describe('the transports agree', () => {
  it.each(CALLS)('$name gives the same result over HTTP and both IPC paths', async ({ run }) => {
    const http = await outcome(() => run(clients.http));
    const direct = await outcome(() => run(clients['ipc-direct']));
    const preload = await outcome(() => run(clients['ipc-preload']));
    expect(direct).toEqual(http);
    expect(preload).toEqual(http);
  });

  it('the same live event arrives identically on every transport', async () => {
    const event = test.core.kernel.events.emit({ kind: 'contract.same', message: 'one event, three transports', detail: { n: 1 } });
    const got = await Promise.all(
      Object.values(clients).map(
        (client) =>
          new Promise<StreamMessage>((resolve) => {
            const close = client.subscribe(
              { stream: 'events', params: { kind: 'contract.same' }, last_event_id: event.id - 1 },
              {
                onMessage: (message) => {
                  // Replay may arrive synchronously, before subscribe() has returned.
                  queueMicrotask(() => close());
                  resolve(message);
                },
              },
            );
          }),
      ),
    );
    expect(got[0]).toMatchObject({ id: event.id, event: 'contract.same' });
    expect(got[1]).toEqual(got[0]);
    expect(got[2]).toEqual(got[0]);
  });
});

describe('HTTP transport specifics', () => {
  it('reports 401 without a session and tells the client the session ended', async () => {
    const ended = vi.fn();
    const anonymous = new ApiClient(createHttpTransport({ baseUrl: test.core.url() }), { onUnauthenticated: ended });
    await expect(anonymous.get('/services')).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('reports an unreachable server as NETWORK_ERROR', async () => {
    const offline = new ApiClient(createHttpTransport({ baseUrl: 'http://127.0.0.1:9' }));
    await expect(offline.get('/services')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});
