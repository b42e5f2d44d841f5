import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser, loginAs, loginHeaders } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

describe('/users', () => {
  let t: TestCore;
  let admin: { cookie: string };
  beforeEach(async () => {
    t = await createTestCore();
    admin = await loginHeaders(t.core, 'admin');
  });
  afterEach(async () => t.close());

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = admin) {
    return t.core.http.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  }

  it('creates, gets, lists, updates and deletes users without ever returning a hash', async () => {
    const created = await call('POST', '/api/v1/users', { username: 'Frank', password: 'frank-password', role: 'viewer' });
    expect(created.statusCode).toBe(201);
    const frank = created.json().data as { id: number };
    expect(created.json().data).toMatchObject({ username: 'Frank', role: 'viewer', disabled: false, last_login_at: null });

    expect((await call('GET', `/api/v1/users/${frank.id}`)).json().data.username).toBe('Frank');
    const list = await call('GET', '/api/v1/users?q=fra&sort=-id');
    expect(list.json()).toMatchObject({ data: [{ id: frank.id }], meta: { total: 1 } });
    expect((await call('GET', '/api/v1/users?sort=password_hash')).statusCode).toBe(400);

    const updated = await call('PUT', `/api/v1/users/${frank.id}`, { role: 'operator', password: 'frank-new-password' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data.role).toBe('operator');
    await loginAs(t.core, 'frank', 'frank-new-password');
    // The users list says when each one last logged in.
    const lastLogin = (await call('GET', `/api/v1/users/${frank.id}`)).json().data.last_login_at as string;
    expect(Date.now() - Date.parse(lastLogin)).toBeLessThan(60_000);

    const removed = await call('DELETE', `/api/v1/users/${frank.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', `/api/v1/users/${frank.id}`)).statusCode).toBe(404);

    for (const response of [created, list, updated, removed]) {
      for (const secret of ['password_hash', 'scrypt$', 'frank-password', 'frank-new-password']) expect(response.body).not.toContain(secret);
    }
  });

  it('rejects bad input with 400 and duplicates with 409', async () => {
    const cases: [unknown, string][] = [
      [{ username: 'bad name', password: 'long-enough', role: 'viewer' }, 'body.username'],
      [{ username: 'ok', password: 'short', role: 'viewer' }, 'body.password'],
      [{ username: 'ok', password: 'long-enough', role: 'root' }, 'body.role'],
      [{ username: 'ok', password: 'long-enough', role: 'viewer', password_hash: 'x' }, 'body.password_hash'],
      [{ username: 'ok', role: 'viewer' }, 'body.password'],
    ];
    for (const [body, field] of cases) {
      const response = await call('POST', '/api/v1/users', body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    await call('POST', '/api/v1/users', { username: 'gina', password: 'long-enough', role: 'viewer' });
    const dup = await call('POST', '/api/v1/users', { username: 'GINA', password: 'long-enough', role: 'viewer' });
    expect(dup.statusCode).toBe(409);
    expect((await call('PUT', '/api/v1/users/1', {})).statusCode).toBe(400);
    expect((await call('PUT', '/api/v1/users/999', { role: 'viewer' })).statusCode).toBe(404);
  });

  it('refuses to delete, demote or disable the last enabled admin (409)', async () => {
    const admins = t.core.area('auth').users.list({ q: 'admin' }).data.filter((u) => u.role === 'admin');
    // The first-start admin and the helper's admin: disable one, then the other is the last.
    const [first, second] = admins;
    expect((await call('PUT', `/api/v1/users/${first!.id}`, { disabled: true })).statusCode).toBe(200);
    for (const [method, body] of [['DELETE', undefined], ['PUT', { role: 'operator' }], ['PUT', { disabled: true }]] as const) {
      const response = await call(method, `/api/v1/users/${second!.id}`, body);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ success: false, code: 'INVALID_STATE', error: expect.stringContaining('last enabled admin') });
    }
  });

  it('ends a user\'s sessions when disabled', async () => {
    const { user, username, password } = await createUser(t.core, 'viewer');
    const session = await loginAs(t.core, username, password);
    await call('PUT', `/api/v1/users/${user.id}`, { disabled: true });
    expect((await call('GET', '/api/v1/auth/session', undefined, session)).json()).toMatchObject({ data: { authenticated: false } });
  });

  it('keeps the admin\'s own session when an admin sets their own password', async () => {
    const { user, username, password } = await createUser(t.core, 'admin');
    const mine = await loginAs(t.core, username, password);
    const other = await loginAs(t.core, username, password);
    expect((await call('PUT', `/api/v1/users/${user.id}`, { password: 'admin-new-password' }, mine)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/auth/session', undefined, mine)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/auth/session', undefined, other)).json()).toMatchObject({ data: { authenticated: false } });
  });

  it('is admin-only', async () => {
    const operator = await loginHeaders(t.core, 'operator');
    expect((await call('GET', '/api/v1/users', undefined, operator)).statusCode).toBe(403);
    expect((await call('POST', '/api/v1/users', { username: 'x', password: 'long-enough', role: 'admin' }, operator)).statusCode).toBe(403);
  });

  describe('PUT /users/me/password', () => {
    it('changes the own password and ends the other sessions only', async () => {
      const { username, password } = await createUser(t.core, 'viewer');
      const current = await loginAs(t.core, username, password);
      const other = await loginAs(t.core, username, password);
      const wrong = await call('PUT', '/api/v1/users/me/password', { current_password: 'nope-nope', new_password: 'brand-new-pass' }, current);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().details[0].field).toBe('body.current_password');
      const short = await call('PUT', '/api/v1/users/me/password', { current_password: password, new_password: 'short' }, current);
      expect(short.statusCode).toBe(400);

      const changed = await call('PUT', '/api/v1/users/me/password', { current_password: password, new_password: 'brand-new-pass' }, current);
      expect(changed.statusCode).toBe(200);
      expect(changed.body).not.toContain('password_hash');
      expect((await call('GET', '/api/v1/auth/session', undefined, current)).statusCode).toBe(200);
      expect((await call('GET', '/api/v1/auth/session', undefined, other)).json()).toMatchObject({ data: { authenticated: false } });
      await loginAs(t.core, username, 'brand-new-pass');
    });

    it('refuses the desktop (IPC) user and API tokens with a clear message', async () => {
      const viaIpc = await t.core.ipc.invoke({ method: 'PUT', path: '/api/v1/users/me/password', body: { current_password: 'whatever', new_password: 'brand-new-pass' } });
      expect(viaIpc.status).toBe(400);
      expect(viaIpc.body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('desktop (IPC) user has no password') });
      const token = await t.core.area('auth').tokens.create({ name: 't', role: 'admin' }, null);
      const viaToken = await call('PUT', '/api/v1/users/me/password', { current_password: 'whatever', new_password: 'brand-new-pass' }, { authorization: `Bearer ${token.secret}` });
      expect(viaToken.statusCode).toBe(400);
      expect(viaToken.json().error).toContain('API token');
    });

    it('needs authentication', async () => {
      expect((await call('PUT', '/api/v1/users/me/password', { current_password: 'a', new_password: 'brand-new-pass' }, {})).statusCode).toBe(401);
    });
  });
});
