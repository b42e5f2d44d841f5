import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INITIAL_ADMIN_PASSWORD_FILE } from '../../../src-main/auth/initial-admin.js';
import { loginAs } from '../../helpers/auth.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';

describe('first-start admin', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(dataDir: string, adminPassword: string | null = null): Promise<TestCore> {
    const t = await createTestCore({ dataDir, config: { adminPassword } });
    cleanups.push(() => t.close());
    return t;
  }

  it('writes a generated password to a 0600 file once and never regenerates it', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const file = path.join(dir, INITIAL_ADMIN_PASSWORD_FILE);

    const first = await open(dir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const password = (await readFile(file, 'utf8')).trim();
    await loginAs(first.core, 'admin', password);
    await first.close();

    const second = await open(dir);
    expect((await readFile(file, 'utf8')).trim()).toBe(password);
    await rm(file);
    await second.close();

    const third = await open(dir);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(third.core.area('auth').users.size).toBe(1);
    await loginAs(third.core, 'admin', password);
  });

  it('uses the configured admin password and writes no file', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const t = await open(dir, 'configured-secret');
    await expect(stat(path.join(dir, INITIAL_ADMIN_PASSWORD_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    const session = await loginAs(t.core, 'admin', 'configured-secret');
    const me = await t.core.http.inject({ method: 'GET', url: '/api/v1/auth/session', headers: session });
    expect(me.json().data).toMatchObject({ user: { username: 'admin' }, role: 'admin' });
  });
});
