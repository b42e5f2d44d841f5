import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretDigest } from '../../../src-main/auth/secrets.js';
import { TokenStore } from '../../../src-main/auth/token-store.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';
import { FakeClock, HOUR, SECOND } from './fake-clock.js';

describe('TokenStore', () => {
  let store: Store;
  let remove: () => Promise<void>;
  let clock: FakeClock;
  let tokens: TokenStore;

  beforeEach(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    store = await Store.open({ dataDir: dir.dir });
    clock = new FakeClock();
    tokens = new TokenStore(store, clock.now);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('returns the secret once and stores only its SHA-256', async () => {
    const { token, secret } = await tokens.create({ name: 'ci', role: 'operator' }, 'admin');
    expect(secret).toMatch(/^bwt_[A-Za-z0-9_-]{43}$/);
    expect(token).not.toHaveProperty('digest');
    expect(token).toMatchObject({ name: 'ci', role: 'operator', hint: secret.slice(0, 8), expires_at: null, last_used_at: null, created_by: 'admin' });
    const stored = JSON.stringify(store.file('auth').data);
    expect(stored).not.toContain(secret);
    expect(stored).toContain(secretDigest(secret));
    expect(JSON.stringify(tokens.list({}))).not.toContain(secret);
  });

  it('resolves live tokens only', async () => {
    const { secret } = await tokens.create({ name: 'a', role: 'viewer' }, null);
    expect((await tokens.resolve(secret))?.name).toBe('a');
    expect(await tokens.resolve(secret.replace('bwt_', 'xyz_'))).toBeNull();
    expect(await tokens.resolve(`${secret}0`)).toBeNull();
  });

  it('stops working at expires_at and refuses a past expiry', async () => {
    const expires = new Date(clock.nowMs() + HOUR).toISOString();
    const { secret, token } = await tokens.create({ name: 'short', role: 'viewer', expires_at: expires }, null);
    expect(token.expires_at).toBe(expires);
    clock.advance(HOUR - SECOND);
    expect(await tokens.resolve(secret)).not.toBeNull();
    clock.advance(SECOND);
    expect(await tokens.resolve(secret)).toBeNull();
    await expect(tokens.create({ name: 'past', role: 'viewer', expires_at: new Date(clock.nowMs() - 1).toISOString() }, null)).rejects.toThrow(/future/);
  });

  it('records last use at most once a minute', async () => {
    const { secret } = await tokens.create({ name: 'b', role: 'viewer' }, null);
    const first = (await tokens.resolve(secret))?.last_used_at;
    expect(first).toBe(clock.now().toISOString());
    clock.advance(30 * SECOND);
    expect((await tokens.resolve(secret))?.last_used_at).toBe(first);
    clock.advance(30 * SECOND);
    expect((await tokens.resolve(secret))?.last_used_at).toBe(clock.now().toISOString());
  });

  it('rejects duplicate names (409) and revokes', async () => {
    const { token, secret } = await tokens.create({ name: 'dup', role: 'viewer' }, null);
    await expect(tokens.create({ name: 'DUP', role: 'admin' }, null)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await tokens.revoke(token.id)).id).toBe(token.id);
    expect(await tokens.resolve(secret)).toBeNull();
    await expect(tokens.revoke(token.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
