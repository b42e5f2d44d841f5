import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretDigest } from '../../../src-main/auth/secrets.js';
import { SessionStore } from '../../../src-main/auth/session-store.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';
import { DAY, FakeClock, HOUR, MINUTE, SECOND } from './fake-clock.js';

describe('SessionStore', () => {
  let store: Store;
  let remove: () => Promise<void>;
  let clock: FakeClock;
  let sessions: SessionStore;

  beforeEach(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    store = await Store.open({ dataDir: dir.dir });
    clock = new FakeClock();
    sessions = new SessionStore(store, { now: clock.now });
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('stores only the SHA-256 of a 32-byte random session id', async () => {
    const { secret, session } = await sessions.create(7, { ip: '127.0.0.1', userAgent: 'test' });
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(session.digest).toBe(secretDigest(secret));
    expect(JSON.stringify(store.file('auth').data)).not.toContain(secret);
    expect((await sessions.resolve(secret))?.id).toBe(session.id);
    expect(await sessions.resolve(`${secret}x`)).toBeNull();
  });

  it('reports expiry as the idle deadline, capped by the absolute one', async () => {
    const { expiresAt } = await sessions.create(1);
    expect(expiresAt.getTime()).toBe(clock.nowMs() + 12 * HOUR);
  });

  it('ends a session after 12 hours without use and removes it', async () => {
    const { secret, session } = await sessions.create(1);
    clock.advance(12 * HOUR - SECOND);
    expect(await sessions.resolve(secret)).not.toBeNull();
    clock.advance(12 * HOUR);
    expect(await sessions.resolve(secret)).toBeNull();
    expect(sessions.get(session.id)).toBeUndefined();
  });

  it('keeps an active session alive, but never past 7 days', async () => {
    const { secret } = await sessions.create(1);
    for (let elapsed = 0; elapsed < 7 * DAY - 11 * HOUR; elapsed += 11 * HOUR) {
      clock.advance(11 * HOUR);
      expect(await sessions.resolve(secret)).not.toBeNull();
    }
    clock.advance(11 * HOUR);
    expect(await sessions.resolve(secret)).toBeNull();
  });

  it('writes last_seen_at at most once a minute', async () => {
    const { secret, session } = await sessions.create(1);
    const created = session.last_seen_at;
    clock.advance(30 * SECOND);
    expect((await sessions.resolve(secret))?.last_seen_at).toBe(created);
    clock.advance(31 * SECOND);
    const touched = await sessions.resolve(secret);
    expect(touched?.last_seen_at).toBe(clock.now().toISOString());
    expect(sessions.expiresAt(touched!).getTime()).toBe(clock.nowMs() + 12 * HOUR);
    clock.advance(10 * SECOND);
    expect((await sessions.resolve(secret))?.last_seen_at).toBe(touched?.last_seen_at);
  });

  it('prunes expired sessions', async () => {
    await sessions.create(1);
    clock.advance(6 * HOUR);
    const young = await sessions.create(2);
    clock.advance(7 * HOUR);
    expect(await sessions.prune()).toBe(1);
    expect(sessions.get(young.session.id)).toBeDefined();
  });

  it('revokes one session or all of a user except the kept one', async () => {
    const a = await sessions.create(1);
    const b = await sessions.create(1);
    const c = await sessions.create(1);
    const other = await sessions.create(2);
    expect(await sessions.revoke(a.session.id)).toBe(true);
    expect(await sessions.revoke(a.session.id)).toBe(false);
    expect(await sessions.revokeForUser(1, c.session.id)).toBe(1);
    expect(await sessions.resolve(b.secret)).toBeNull();
    expect(await sessions.resolve(c.secret)).not.toBeNull();
    expect(await sessions.resolve(other.secret)).not.toBeNull();
  });

  it('keeps at most maxPerUser sessions per user, dropping the least recently used', async () => {
    const limited = new SessionStore(store, { now: clock.now, limits: { maxPerUser: 3 } });
    const first = await limited.create(5);
    for (let i = 0; i < 3; i += 1) {
      clock.advance(MINUTE);
      await limited.create(5);
    }
    expect(limited.countForUser(5)).toBe(3);
    expect(await limited.resolve(first.secret)).toBeNull();
  });

  it('survives reopening the store', async () => {
    const { secret } = await sessions.create(3);
    const dir = store.dataDir;
    await store.close();
    store = await Store.open({ dataDir: dir });
    sessions = new SessionStore(store, { now: clock.now });
    expect((await sessions.resolve(secret))?.user_id).toBe(3);
  });
});
