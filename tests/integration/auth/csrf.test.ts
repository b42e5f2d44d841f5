import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearerHeaders, createUser, loginHeaders } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/** Unsafe requests from cookie sessions must be same-origin; others are exempt. */
describe('CSRF protection', () => {
  let t: TestCore;
  let operator: { cookie: string };
  beforeEach(async () => {
    t = await createTestCore();
    operator = await loginHeaders(t.core, 'operator');
  });
  afterEach(async () => t.close());

  // An operator action with a body that validates: a no-op auto-start change.
  function setAutoStart(headers: Record<string, string>) {
    return t.core.http.inject({ method: 'PUT', url: '/api/v1/services/http/auto-start', headers, payload: { auto_start: true } });
  }

  it('refuses a cookie request whose Origin is another site', async () => {
    for (const origin of ['http://evil.example', 'http://localhost:8081', 'https://localhost', 'null']) {
      const response = await setAutoStart({ ...operator, origin });
      expect(response.statusCode, origin).toBe(403);
      expect(response.json()).toMatchObject({ success: false, code: 'CSRF_REJECTED', error: expect.any(String) });
    }
  });

  it('refuses a cookie request marked cross-site or same-site by Sec-Fetch-Site', async () => {
    for (const site of ['cross-site', 'same-site']) {
      expect((await setAutoStart({ ...operator, 'sec-fetch-site': site })).statusCode).toBe(403);
    }
  });

  it('passes same-origin browser requests and requests without either header', async () => {
    expect((await setAutoStart({ ...operator, origin: 'http://localhost' })).statusCode).toBe(200);
    expect((await setAutoStart({ ...operator, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await setAutoStart({ ...operator, 'sec-fetch-site': 'none' })).statusCode).toBe(200);
    expect((await setAutoStart(operator)).statusCode).toBe(200);
  });

  it('compares with the real Host of a socket request', async () => {
    await t.core.start();
    const url = `${t.core.url()}/api/v1/services/http/auto-start`;
    const send = (origin: string) =>
      fetch(url, { method: 'PUT', headers: { ...operator, origin, 'content-type': 'application/json' }, body: '{"auto_start":true}' });
    expect((await send(new URL(t.core.url()).origin)).status).toBe(200);
    expect((await send('http://localhost')).status).toBe(403);
  });

  it('lets safe methods through whatever their origin', async () => {
    const response = await t.core.http.inject({ method: 'GET', url: '/api/v1/services', headers: { ...operator, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(response.statusCode).toBe(200);
  });

  it('exempts bearer tokens and the IPC transport', async () => {
    const bearer = await bearerHeaders(t.core, 'operator');
    expect((await setAutoStart({ ...bearer, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(200);
    const ipc = await t.core.ipc.invoke({ method: 'PUT', path: '/api/v1/services/http/auto-start', body: { auto_start: true } });
    expect(ipc.status).toBe(200);
  });

  it('refuses a cross-site login (login CSRF) and a cross-site logout', async () => {
    const { username, password } = await createUser(t.core, 'viewer');
    const login = await t.core.http.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { origin: 'http://evil.example' }, payload: { username, password } });
    expect(login.statusCode).toBe(403);
    expect(login.headers['set-cookie']).toBeUndefined();
    const logout = await t.core.http.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { ...operator, 'sec-fetch-site': 'cross-site' } });
    expect(logout.statusCode).toBe(403);
    expect((await t.core.http.inject({ method: 'GET', url: '/api/v1/auth/session', headers: operator })).statusCode).toBe(200);
  });
});
