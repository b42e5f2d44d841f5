import { afterEach, describe, expect, it } from 'vitest';
import { createUser } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

describe('login throttling', () => {
  let t: TestCore | undefined;
  afterEach(async () => t?.close());

  function login(core: TestCore, username: string, password: string, remoteAddress = '192.0.2.10') {
    return core.core.http.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password }, remoteAddress });
  }

  it('answers 429 with Retry-After after five failures for one username and address', async () => {
    t = await createTestCore();
    const { username, password } = await createUser(t.core, 'viewer');
    for (let i = 0; i < 5; i += 1) expect((await login(t, username, 'wrong-password')).statusCode).toBe(401);

    const limited = await login(t, username, 'wrong-password');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, code: 'RATE_LIMITED', error: expect.any(String) });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Even the right password waits, and no cookie is set.
    const right = await login(t, username, password);
    expect(right.statusCode).toBe(429);
    expect(right.headers['set-cookie']).toBeUndefined();

    // Another address, or another username from this address, is not affected.
    expect((await login(t, username, password, '192.0.2.11')).statusCode).toBe(200);
    const other = await createUser(t.core, 'viewer');
    expect((await login(t, other.username, other.password)).statusCode).toBe(200);
  });

  it('throttles unknown usernames the same way', async () => {
    t = await createTestCore();
    for (let i = 0; i < 5; i += 1) expect((await login(t, 'ghost', 'wrong-password')).statusCode).toBe(401);
    expect((await login(t, 'GHOST', 'wrong-password')).statusCode).toBe(429);
  });

  it('resets the count after a successful login', async () => {
    t = await createTestCore();
    const { username, password } = await createUser(t.core, 'viewer');
    for (let i = 0; i < 4; i += 1) await login(t, username, 'wrong-password');
    expect((await login(t, username, password)).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) expect((await login(t, username, 'wrong-password')).statusCode).toBe(401);
    expect((await login(t, username, password)).statusCode).toBe(200);
  });
});
