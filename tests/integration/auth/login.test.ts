import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser, sessionCookieFrom } from '../../helpers/auth.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';

interface Envelope {
  success: boolean;
  data?: Record<string, unknown>;
  error?: string;
  code?: string;
}

function setCookies(response: Response): string[] {
  return response.headers.getSetCookie();
}

function cookieAttributes(header: string): string[] {
  return header.split(';').slice(1).map((part) => part.trim().toLowerCase());
}

describe('login, session and logout over HTTP', () => {
  let t: TestCore | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function started(): Promise<TestCore> {
    t = await createTestCore();
    await t.core.start();
    return t;
  }

  async function post(core: TestCore, url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${core.core.url()}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  it('logs in with a session cookie carrying the right flags', async () => {
    const core = await started();
    const { user, username, password } = await createUser(core.core, 'operator');
    const before = Date.now();
    const response = await post(core, '/api/v1/auth/login', { username: username.toUpperCase(), password });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Envelope;
    expect(body.data).toEqual({ user: { id: user.id, username, role: 'operator' }, expires_at: expect.any(String) });
    const expires = Date.parse(String(body.data?.expires_at));
    expect(expires).toBeGreaterThanOrEqual(before + 12 * 3600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 12 * 3600_000 + 1000);

    const cookies = setCookies(response);
    expect(cookies).toHaveLength(1);
    const attributes = cookieAttributes(cookies[0]!);
    expect(cookies[0]!.startsWith('bootwright_session=')).toBe(true);
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/', `max-age=${7 * 24 * 3600}`]));
    expect(attributes).not.toContain('secure');
    expect(JSON.stringify(body)).not.toContain(sessionCookieFrom(cookies)!.split('=')[1]);
  });

  it('reports the session, then ends it on logout', async () => {
    const core = await started();
    const { user, username, password } = await createUser(core.core, 'viewer');
    const login = await post(core, '/api/v1/auth/login', { username, password });
    const cookie = sessionCookieFrom(setCookies(login))!;

    const session = await fetch(`${core.core.url()}/api/v1/auth/session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as Envelope).data).toEqual({
      authenticated: true,
      user: { id: user.id, username, role: 'viewer' },
      role: 'viewer',
      expires_at: expect.any(String),
      via: 'session',
    });

    const logout = await post(core, '/api/v1/auth/logout', undefined, { cookie });
    expect(logout.status).toBe(200);
    expect(((await logout.json()) as Envelope).data).toEqual({ session_revoked: true });
    const cleared = setCookies(logout)[0] ?? '';
    expect(cleared.startsWith('bootwright_session=;')).toBe(true);
    expect(cookieAttributes(cleared)).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    expect(cookieAttributes(cleared).some((a) => a === 'max-age=0' || a.startsWith('expires=thu, 01 jan 1970'))).toBe(true);

    const after = await fetch(`${core.core.url()}/api/v1/auth/session`, { headers: { cookie } });
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ success: true, data: { authenticated: false } });
    expect((await fetch(`${core.core.url()}/api/v1/services`, { headers: { cookie } })).status).toBe(401);
  });

  it('answers "not authenticated" (200, not a 401 the browser logs as an error) for no session and for a made-up one; other routes still 401', async () => {
    const core = await started();
    for (const headers of [{}, { cookie: 'bootwright_session=not-a-session' }, { authorization: 'Bearer bw_not-a-token' }] as Record<string, string>[]) {
      const response = await fetch(`${core.core.url()}/api/v1/auth/session`, { headers });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, data: { authenticated: false, reason: 'no valid session or API token: log in (POST /api/v1/auth/login)' } });
      expect((await fetch(`${core.core.url()}/api/v1/services`, { headers })).status).toBe(401);
    }
  });

  it('fails alike for an unknown user, a wrong password and a disabled user', async () => {
    const core = await started();
    const { user, username, password } = await createUser(core.core, 'viewer');
    await createUser(core.core, 'admin');
    const attempts = [
      { username: 'no-such-user', password },
      { username, password: 'wrong-password' },
    ];
    for (const attempt of attempts) {
      const response = await post(core, '/api/v1/auth/login', attempt);
      expect(response.status).toBe(401);
      expect(setCookies(response)).toEqual([]);
      expect(await response.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'invalid username or password' });
    }
    await core.core.area('auth').users.update(user.id, { disabled: true });
    const disabled = await post(core, '/api/v1/auth/login', { username, password });
    expect(disabled.status).toBe(401);
    expect(await disabled.json()).toMatchObject({ error: 'invalid username or password' });
  });

  it('validates the login body strictly', async () => {
    const core = await started();
    const response = await post(core, '/api/v1/auth/login', { username: 'admin', password: 'x', remember: true });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'body.remember', message: 'unknown field' }] });
  });

  it('emits auth events without secrets and hands the new principal to later hooks', async () => {
    t = await createTestCore();
    const seen: (string | null)[] = [];
    t.core.http.addHook('onSend', async (request) => {
      if (request.url === '/api/v1/auth/login') seen.push(request.principal?.username ?? null);
    });
    const { username, password } = await createUser(t.core, 'viewer');
    await t.core.http.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password: 'wrong-password' } });
    const login = await t.core.http.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });
    const cookie = sessionCookieFrom(login.headers['set-cookie'])!;
    await t.core.http.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie } });

    expect(seen).toEqual([null, username]);
    const events = t.core.kernel.events.all().filter((event) => event.kind.startsWith('auth.'));
    expect(events.map((event) => [event.kind, event.level])).toEqual([
      ['auth.login_failed', 'warn'],
      ['auth.login', 'info'],
      ['auth.logout', 'info'],
    ]);
    expect(events.every((event) => event.ip === '127.0.0.1')).toBe(true);
    const text = JSON.stringify(events);
    expect(text).toContain(username);
    for (const secret of [password, 'wrong-password', cookie.split('=')[1]!]) expect(text).not.toContain(secret);
  });
});

describe('session cookie over HTTPS', () => {
  let t: TestCore | undefined;
  let removeCerts: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await t?.close();
    await removeCerts?.();
  });

  it('carries the Secure flag when TLS is configured', async () => {
    const certs = await tempDir('bootwright-tls-');
    removeCerts = certs.remove;
    const key = path.join(certs.dir, 'key.pem');
    const cert = path.join(certs.dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    t = await createTestCore({ config: { tlsCert: cert, tlsKey: key } });
    await t.core.start();
    const { username, password } = await createUser(t.core, 'viewer');
    const url = new URL('/api/v1/auth/login', t.core.url());
    expect(url.protocol).toBe('https:');
    const ca = await readFile(cert);
    const setCookie = await new Promise<string[]>((resolve, reject) => {
      const req = httpsRequest(url, { method: 'POST', ca, servername: 'localhost', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(res.headers['set-cookie'] ?? []) : reject(new Error(`status ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ username, password }));
    });
    expect(setCookie).toHaveLength(1);
    expect(cookieAttributes(setCookie[0]!)).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=strict']));
  });
});
