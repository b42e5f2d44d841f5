import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeriveKey, DeriveRequest } from '../../../src-main/auth/password-hash.js';
import { bearerHeaders, createUser } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/**
 * Login floods with random usernames: refused before any hashing once a
 * source or the whole server reached its limit, and never more than a few
 * hashes at once. The derivation is replaced by a cheap deterministic one
 * that counts calls (and, where a test says so, holds them until released).
 */
class CountingDerive {
  calls = 0;
  private held: { request: DeriveRequest; release: () => void }[] = [];
  hold = false;

  readonly derive: DeriveKey = (request) => {
    this.calls += 1;
    const key = createHash('sha512').update(request.salt).update(request.password).digest().subarray(0, request.keyLength);
    if (!this.hold) return Promise.resolve(key);
    return new Promise((resolve) => this.held.push({ request, release: () => resolve(key) }));
  };

  get holding(): number {
    return this.held.length;
  }

  releaseAll(): void {
    this.hold = false;
    for (const entry of this.held.splice(0)) entry.release();
  }
}

function randomName(): string {
  return `guess-${randomBytes(6).toString('hex')}`;
}

describe('login flood protection', () => {
  let t: TestCore | undefined;
  let derive: CountingDerive;
  afterEach(async () => {
    derive?.releaseAll();
    await t?.close();
    t = undefined;
  });

  function login(username: string, password: string, remoteAddress: string) {
    return t!.core.http.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password }, remoteAddress });
  }

  it('refuses random-username logins from one source after its limit, without hashing them', async () => {
    derive = new CountingDerive();
    t = await createTestCore({ auth: { hasher: { derive: derive.derive }, throttle: { perSource: { maxFailures: 4 } }, refusalDelay: { delayMs: 0 } } });
    const before = derive.calls;
    for (let i = 0; i < 4; i += 1) expect((await login(randomName(), 'wrong-password', '192.0.2.10')).statusCode).toBe(401);
    expect(derive.calls - before).toBe(4);

    for (let i = 0; i < 20; i += 1) {
      const refused = await login(randomName(), 'wrong-password', '192.0.2.10');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // None of the refused attempts reached the hasher.
    expect(derive.calls - before).toBe(4);

    // IPv6 sources count per /64: a rotating host address does not get fresh tries.
    for (let i = 1; i <= 4; i += 1) expect((await login(randomName(), 'wrong-password', `2001:db8:5:6::${i}`)).statusCode).toBe(401);
    expect((await login(randomName(), 'wrong-password', '2001:db8:5:6::99')).statusCode).toBe(429);

    // Another source still logs in.
    const { username, password } = await createUser(t.core, 'viewer');
    expect((await login(username, password, '192.0.2.11')).statusCode).toBe(200);
  });

  it('applies a global limit across sources, also before hashing', async () => {
    derive = new CountingDerive();
    t = await createTestCore({ auth: { hasher: { derive: derive.derive }, throttle: { global: { maxFailures: 6 } }, refusalDelay: { delayMs: 0 } } });
    const { username, password } = await createUser(t.core, 'viewer');
    // A successful login does not count against the global limit.
    expect((await login(username, password, '192.0.2.200')).statusCode).toBe(200);
    const before = derive.calls;
    for (let i = 1; i <= 6; i += 1) expect((await login(randomName(), 'wrong-password', `192.0.2.${i}`)).statusCode).toBe(401);
    for (let i = 7; i <= 16; i += 1) {
      const refused = await login(randomName(), 'wrong-password', `192.0.2.${i}`);
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ error: string }>().error).toContain('on this server');
    }
    expect(derive.calls - before).toBe(6);
    // While the global limit holds, every login waits, the right password too (docs/auth.md).
    expect((await login(username, password, '192.0.2.201')).statusCode).toBe(429);
  });

  it('bounds concurrent hashes and the logins waiting for one; the rest get 429 at once', async () => {
    derive = new CountingDerive();
    t = await createTestCore({ auth: { hasher: { derive: derive.derive, concurrency: 2, maxQueue: 3 }, refusalDelay: { delayMs: 0 } } });
    const before = derive.calls;
    derive.hold = true;
    // Distinct sources, so only the hasher's bound can refuse.
    const pending = Array.from({ length: 9 }, (_, i) => login(randomName(), 'wrong-password', `198.51.100.${i + 1}`));
    const settled = new Map<number, number>();
    pending.forEach((promise, index) => void promise.then((response) => settled.set(index, response.statusCode)));
    await waitFor(() => settled.size === 4 && derive.holding === 2);
    // 2 hashing, 3 waiting, 4 refused without hashing.
    expect([...settled.values()]).toEqual([429, 429, 429, 429]);
    expect(derive.calls - before).toBe(2);
    expect(t.core.area('auth').hasher.stats).toMatchObject({ running: 2, waiting: 3 });
    const refused = await pending[[...settled.keys()][0]!]!;
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });

    derive.releaseAll();
    const statuses = (await Promise.all(pending)).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(derive.calls - before).toBe(5);
  });

  it('holds refused logins before answering, but never more than its bound at once', async () => {
    derive = new CountingDerive();
    t = await createTestCore({
      auth: { hasher: { derive: derive.derive }, throttle: { perSource: { maxFailures: 1 } }, refusalDelay: { delayMs: 1500, maxHeld: 2 } },
    });
    expect((await login(randomName(), 'wrong-password', '192.0.2.30')).statusCode).toBe(401);
    const refused = Array.from({ length: 5 }, () => login(randomName(), 'wrong-password', '192.0.2.30'));
    const answered: number[] = [];
    refused.forEach((promise, index) => void promise.then(() => answered.push(index)));
    // Three are answered at once; two wait for the delay.
    await waitFor(() => answered.length === 3);
    expect(t.core.area('auth').refusalDelay.held).toBe(2);
    const statuses = (await Promise.all(refused)).map((response) => response.statusCode);
    expect(statuses).toEqual([429, 429, 429, 429, 429]);
    expect(t.core.area('auth').refusalDelay.held).toBe(0);
  });

  it('completes durable writes and admin password work while login hashes are held', async () => {
    derive = new CountingDerive();
    t = await createTestCore({ auth: { hasher: { derive: derive.derive, concurrency: 2, maxQueue: 2 }, refusalDelay: { delayMs: 0 } } });
    const admin = await bearerHeaders(t.core, 'admin');
    derive.hold = true;
    const logins = Array.from({ length: 4 }, (_, i) => login(randomName(), 'wrong-password', `203.0.113.${i + 1}`));
    await waitFor(() => derive.holding === 2 && t!.core.area('auth').hasher.stats.waiting === 2);

    // The store's write path does not wait for the hasher.
    const created = await t.core.http.inject({
      method: 'POST',
      url: '/api/v1/dns/records',
      headers: admin,
      payload: { name: 'during-flood', type: 'A', value: '192.0.2.55' },
    });
    expect(created.statusCode, created.body).toBe(201);

    // An admin creating a user waits for a slot but goes ahead of the waiting logins.
    const user = t.core.http.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: { username: 'made-during-flood', password: 'long-enough-password', role: 'viewer' },
    });
    derive.hold = false;
    derive.releaseAll();
    expect((await user).statusCode).toBe(201);
    expect((await Promise.all(logins)).map((response) => response.statusCode)).toEqual([401, 401, 401, 401]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
