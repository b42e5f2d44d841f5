import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INITIAL_ADMIN_PASSWORD_FILE } from '../../../src-main/auth/initial-admin.js';
import { loginAs, loginHeaders } from '../../helpers/auth.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';

describe('/system/first-run', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(options: { dataDir?: string; adminPassword?: string | null } = {}): Promise<TestCore> {
    const t = await createTestCore({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), config: { adminPassword: options.adminPassword ?? null } });
    cleanups.push(() => t.close());
    return t;
  }

  function call(t: TestCore, method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: Record<string, unknown>) {
    return t.core.http.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  }

  it('asks for a new admin password while the generated one is in use, and forgets it once changed', async () => {
    const t = await open();
    const password = (await readFile(path.join(t.dataDir, INITIAL_ADMIN_PASSWORD_FILE), 'utf8')).trim();
    const admin = await loginAs(t.core, 'admin', password);
    const viewer = await loginHeaders(t.core, 'viewer');

    const first = await call(t, 'GET', '/api/v1/system/first-run', viewer);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ completed: false, skipped: false, must_change_password: true });
    // The flag never leaks into the user API.
    const users = await call(t, 'GET', '/api/v1/users', admin);
    expect(users.body).not.toContain('password_generated');

    const changed = await call(t, 'PUT', '/api/v1/users/me/password', admin, { current_password: password, new_password: 'a-chosen-password' });
    expect(changed.statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/v1/system/first-run', admin)).json().data.must_change_password).toBe(false);
  });

  it('counts a password an admin sets for the initial admin as a change', async () => {
    const t = await open();
    const other = await loginHeaders(t.core, 'admin');
    const initial = t.core.area('auth').users.findByUsername('admin');
    expect(initial).toBeDefined();
    expect((await call(t, 'GET', '/api/v1/system/first-run', other)).json().data.must_change_password).toBe(true);
    expect((await call(t, 'PUT', `/api/v1/users/${initial?.id ?? 0}`, other, { password: 'set-by-another-admin' })).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/v1/system/first-run', other)).json().data.must_change_password).toBe(false);
  });

  it('never asks when the admin password was configured', async () => {
    const t = await open({ adminPassword: 'configured-secret' });
    const admin = await loginAs(t.core, 'admin', 'configured-secret');
    expect((await call(t, 'GET', '/api/v1/system/first-run', admin)).json().data.must_change_password).toBe(false);
  });

  it('records complete and skip (admin only), kept across a restart', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const t = await open({ dataDir: dir });
    const admin = await loginHeaders(t.core, 'admin');
    const operator = await loginHeaders(t.core, 'operator');
    expect((await call(t, 'POST', '/api/v1/system/first-run', operator, { action: 'skip' })).statusCode).toBe(403);
    const bad = await call(t, 'POST', '/api/v1/system/first-run', admin, { action: 'finish' });
    expect(bad.statusCode).toBe(400);

    const skipped = await call(t, 'POST', '/api/v1/system/first-run', admin, { action: 'skip' });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json().data).toMatchObject({ completed: false, skipped: true });
    const completed = await call(t, 'POST', '/api/v1/system/first-run', admin, { action: 'complete' });
    expect(completed.json().data).toMatchObject({ completed: true, skipped: true });
    await t.close();

    const again = await open({ dataDir: dir });
    const viewer = await loginHeaders(again.core, 'viewer');
    expect((await call(again, 'GET', '/api/v1/system/first-run', viewer)).json().data).toMatchObject({ completed: true, skipped: true });
  });
});
