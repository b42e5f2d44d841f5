import { afterEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { createUser } from '../../helpers/auth.js';

describe('smoke', () => {
  let t: TestCore;
  afterEach(async () => t?.close());
  it('logs in', async () => {
    t = await createTestCore();
    const { username, password } = await createUser(t.core, 'viewer');
    const r = await t.core.http.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });
    console.log(r.statusCode, r.headers['set-cookie'], r.body);
    const cookie = String(r.headers['set-cookie']).split(';')[0];
    const s = await t.core.http.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    console.log(s.statusCode, s.body);
    const u = await t.core.http.inject({ method: 'GET', url: '/api/v1/services', headers: { cookie } });
    console.log(u.statusCode, u.body.slice(0, 100));
    expect(r.statusCode).toBe(200);
  });
});
