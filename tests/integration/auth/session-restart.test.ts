import { afterEach, describe, expect, it } from 'vitest';
import { createUser, loginAs } from '../../helpers/auth.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';

describe('sessions across a restart', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps a session valid when the core restarts on the same data dir', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);

    const first: TestCore = await createTestCore({ dataDir: dir });
    await first.core.start();
    const { username, password } = await createUser(first.core, 'operator');
    const { cookie } = await loginAs(first.core, username, password);
    const loggedOut = await loginAs(first.core, username, password);
    await first.core.http.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: loggedOut });
    await first.close();

    const second = await createTestCore({ dataDir: dir });
    cleanups.push(() => second.close());
    await second.core.start();
    const session = await fetch(`${second.core.url()}/api/v1/auth/session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ data: { user: { username }, role: 'operator', via: 'session' } });
    const revoked = await fetch(`${second.core.url()}/api/v1/auth/session`, { headers: loggedOut });
    expect(await revoked.json()).toMatchObject({ data: { authenticated: false } });
  });
});
