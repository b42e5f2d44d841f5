import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../src-main/auth/session-store.js';
import { UserDirectory } from '../../../src-main/auth/user-directory.js';
import { AppError } from '../../../src-main/core/errors.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe('UserDirectory', () => {
  let store: Store;
  let remove: () => Promise<void>;
  let sessions: SessionStore;
  let users: UserDirectory;

  beforeEach(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    store = await Store.open({ dataDir: dir.dir });
    sessions = new SessionStore(store);
    users = new UserDirectory(store, sessions);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('creates users without exposing the hash and verifies their credentials', async () => {
    const alice = await users.create({ username: 'Alice', password: 'alice-password', role: 'operator' });
    expect(alice).not.toHaveProperty('password_hash');
    expect(alice).toMatchObject({ username: 'Alice', role: 'operator', disabled: false });
    expect(alice.password_changed_at).toBe(alice.created_at);
    expect((await users.verifyCredentials('alice', 'alice-password'))?.id).toBe(alice.id);
    expect(await users.verifyCredentials('alice', 'wrong-password')).toBeNull();
    expect(await users.verifyCredentials('nobody', 'alice-password')).toBeNull();
    expect(JSON.stringify(store.file('auth').data)).not.toContain('alice-password');
  });

  it('keeps usernames unique regardless of case (409) and validates them', async () => {
    await users.create({ username: 'bob', password: 'bob-password', role: 'viewer' });
    const dup = await failure(users.create({ username: 'BOB', password: 'bob-password', role: 'viewer' }));
    expect(dup.code).toBe('CONFLICT');
    expect((await failure(users.create({ username: 'bad name', password: 'bob-password', role: 'viewer' }))).code).toBe('VALIDATION_FAILED');
    expect((await failure(users.create({ username: 'x'.repeat(65), password: 'bob-password', role: 'viewer' }))).code).toBe('VALIDATION_FAILED');
    expect((await failure(users.create({ username: 'carol', password: 'short', role: 'viewer' }))).details?.[0]?.field).toBe('body.password');
  });

  it('never leaves zero enabled admins (409)', async () => {
    const root = await users.create({ username: 'root', password: 'root-password', role: 'admin' });
    for (const attempt of [users.remove(root.id), users.update(root.id, { role: 'operator' }), users.update(root.id, { disabled: true })]) {
      expect((await failure(attempt)).code).toBe('INVALID_STATE');
    }
    const second = await users.create({ username: 'second', password: 'second-password', role: 'admin' });
    await users.update(root.id, { role: 'viewer' });
    expect((await failure(users.update(second.id, { disabled: true }))).code).toBe('INVALID_STATE');
    await users.update(root.id, { role: 'admin', disabled: false });
    await users.update(second.id, { disabled: true });
    expect((await failure(users.remove(root.id))).code).toBe('INVALID_STATE');
    // A disabled admin is not the last enabled one: it may go.
    expect((await users.remove(second.id)).id).toBe(second.id);
  });

  it('ends sessions when a user is disabled, deleted or given a new password', async () => {
    await users.create({ username: 'root', password: 'root-password', role: 'admin' });
    const dave = await users.create({ username: 'dave', password: 'dave-password', role: 'viewer' });
    await sessions.create(dave.id);
    await users.update(dave.id, { role: 'operator' });
    expect(sessions.countForUser(dave.id)).toBe(1);
    await users.update(dave.id, { password: 'dave-new-password' });
    expect(sessions.countForUser(dave.id)).toBe(0);
    expect(await users.verifyCredentials('dave', 'dave-new-password')).not.toBeNull();
    await sessions.create(dave.id);
    await users.update(dave.id, { disabled: true });
    expect(sessions.countForUser(dave.id)).toBe(0);
    expect(await users.verifyCredentials('dave', 'dave-new-password')).toBeNull();
    await users.update(dave.id, { disabled: false });
    await sessions.create(dave.id);
    await users.remove(dave.id);
    expect(sessions.countForUser(dave.id)).toBe(0);
  });

  it('changes its own password only with the current one and keeps the calling session', async () => {
    const erin = await users.create({ username: 'erin', password: 'erin-password', role: 'viewer' });
    const mine = await sessions.create(erin.id);
    const other = await sessions.create(erin.id);
    const wrong = await failure(users.changeOwnPassword(erin.id, 'not-it', 'erin-new-password', mine.session.id));
    expect(wrong.details?.[0]?.field).toBe('body.current_password');
    const changed = await users.changeOwnPassword(erin.id, 'erin-password', 'erin-new-password', mine.session.id);
    expect(changed).not.toHaveProperty('password_hash');
    expect(await sessions.resolve(mine.secret)).not.toBeNull();
    expect(await sessions.resolve(other.secret)).toBeNull();
    expect(await users.verifyCredentials('erin', 'erin-password')).toBeNull();
  });

  it('lists with paging, search and sort', async () => {
    for (const name of ['zed', 'amy', 'Mia']) await users.create({ username: name, password: 'some-password', role: name === 'amy' ? 'admin' : 'viewer' });
    const page = users.list({ sort: '-username', size: 2 });
    expect(page.data.map((u) => u.username)).toEqual(['zed', 'Mia']);
    expect(page.meta).toEqual({ total: 3, page: 1, size: 2 });
    expect(users.list({ q: 'ADMIN' }).data.map((u) => u.username)).toEqual(['amy']);
    expect(() => users.list({ sort: 'password_hash' })).toThrow(/unknown field/);
  });
});
