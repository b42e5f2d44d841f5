import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearerHeaders, loginHeaders } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

describe('API tokens', () => {
  let t: TestCore;
  let admin: { cookie: string };
  beforeEach(async () => {
    t = await createTestCore();
    admin = await loginHeaders(t.core, 'admin');
  });
  afterEach(async () => t.close());

  async function createToken(body: Record<string, unknown>) {
    return t.core.http.inject({ method: 'POST', url: '/api/v1/tokens', headers: admin, payload: body });
  }

  it('shows the secret once, lists without it, authenticates with it and revokes it', async () => {
    const created = await createToken({ name: 'ci-runner', role: 'operator' });
    expect(created.statusCode).toBe(201);
    const data = created.json().data as Record<string, unknown>;
    const secret = String(data.token);
    expect(secret).toMatch(/^bwt_/);
    expect(data).toMatchObject({ name: 'ci-runner', role: 'operator', expires_at: null, last_used_at: null, hint: secret.slice(0, 8) });
    expect(data).not.toHaveProperty('digest');

    const list = await t.core.http.inject({ method: 'GET', url: '/api/v1/tokens?q=ci', headers: admin });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain('digest');
    expect(list.json()).toMatchObject({ data: [{ id: data.id, name: 'ci-runner' }], meta: { total: 1, page: 1, size: 50 } });

    const bearer = { authorization: `Bearer ${secret}` };
    const session = await t.core.http.inject({ method: 'GET', url: '/api/v1/auth/session', headers: bearer });
    expect(session.json()).toMatchObject({ data: { user: { id: null, username: 'token:ci-runner' }, role: 'operator', via: 'token', expires_at: null } });
    expect((await t.core.http.inject({ method: 'GET', url: '/api/v1/services', headers: bearer })).statusCode).toBe(200);
    // operator, not admin
    expect((await t.core.http.inject({ method: 'GET', url: '/api/v1/tokens', headers: bearer })).statusCode).toBe(403);

    const used = await t.core.http.inject({ method: 'GET', url: '/api/v1/tokens', headers: admin });
    expect(used.json().data[0].last_used_at).toEqual(expect.any(String));

    const revoke = await t.core.http.inject({ method: 'DELETE', url: `/api/v1/tokens/${String(data.id)}`, headers: admin });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.body).not.toContain(secret);
    const after = await t.core.http.inject({ method: 'GET', url: '/api/v1/services', headers: bearer });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    expect((await t.core.http.inject({ method: 'DELETE', url: `/api/v1/tokens/${String(data.id)}`, headers: admin })).statusCode).toBe(404);
  });

  it('validates names, roles and expiry', async () => {
    await createToken({ name: 'dup', role: 'viewer' });
    expect((await createToken({ name: 'DUP', role: 'viewer' })).statusCode).toBe(409);
    expect((await createToken({ name: 'x', role: 'root' })).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await createToken({ name: '', role: 'viewer' })).statusCode).toBe(400);
    expect((await createToken({ name: 'x', role: 'viewer', secret: 'y' })).statusCode).toBe(400);
    const past = await createToken({ name: 'old', role: 'viewer', expires_at: '2001-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ details: [{ field: 'body.expires_at' }] });
    const future = new Date(Date.now() + 3600_000).toISOString();
    const ok = await createToken({ name: 'soon', role: 'viewer', expires_at: future });
    expect(ok.json().data.expires_at).toBe(future);
    const session = await t.core.http.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { authorization: `Bearer ${String(ok.json().data.token)}` } });
    expect(session.json().data.expires_at).toBe(future);
  });

  it('ignores the cookie when an Authorization header is sent, and rejects malformed ones', async () => {
    for (const authorization of ['Bearer bwt_nope', 'Basic YWRtaW46YWRtaW4=', 'Bearer', `Token ${'x'.repeat(10)}`]) {
      const response = await t.core.http.inject({ method: 'GET', url: '/api/v1/services', headers: { ...admin, authorization } });
      expect(response.statusCode, authorization).toBe(401);
    }
  });

  it('is admin-only for cookie users too', async () => {
    const operator = await loginHeaders(t.core, 'operator');
    expect((await t.core.http.inject({ method: 'GET', url: '/api/v1/tokens', headers: operator })).statusCode).toBe(403);
    const viewerToken = await bearerHeaders(t.core, 'viewer');
    expect((await t.core.http.inject({ method: 'POST', url: '/api/v1/tokens', headers: viewerToken, payload: { name: 'n', role: 'admin' } })).statusCode).toBe(403);
  });
});
