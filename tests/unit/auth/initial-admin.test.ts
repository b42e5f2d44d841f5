import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INITIAL_ADMIN_PASSWORD_FILE, ensureInitialAdmin } from '../../../src-main/auth/initial-admin.js';
import { SessionStore } from '../../../src-main/auth/session-store.js';
import { UserDirectory } from '../../../src-main/auth/user-directory.js';
import type { LogContext, Logger } from '../../../src-main/core/logger.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

function captureLogger(lines: { level: string; message: string }[]): Logger {
  const make = (level: string) => (message: string, _context?: LogContext) => void lines.push({ level, message });
  const logger: Logger = { error: make('error'), warn: make('warn'), info: make('info'), debug: make('debug'), scope: () => logger };
  return logger;
}

describe('ensureInitialAdmin', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let store: Store;
  let users: UserDirectory;

  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    store = await Store.open({ dataDir: dir });
    users = new UserDirectory(store, new SessionStore(store));
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('generates a password, writes it to a 0600 file and logs it once', async () => {
    const lines: { level: string; message: string }[] = [];
    const admin = await ensureInitialAdmin({ users, dataDir: dir, password: null, log: captureLogger(lines) });
    expect(admin).toMatchObject({ username: 'admin', role: 'admin' });
    const file = path.join(dir, INITIAL_ADMIN_PASSWORD_FILE);
    const password = (await readFile(file, 'utf8')).trim();
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await users.verifyCredentials('admin', password)).not.toBeNull();
    const printed = lines.filter((line) => line.message.includes(password));
    expect(printed).toEqual([expect.objectContaining({ level: 'warn' })]);

    lines.length = 0;
    expect(await ensureInitialAdmin({ users, dataDir: dir, password: null, log: captureLogger(lines) })).toBeNull();
    expect(lines).toEqual([]);
    expect((await readFile(file, 'utf8')).trim()).toBe(password);
  });

  it('uses the configured password and writes no file', async () => {
    const lines: { level: string; message: string }[] = [];
    await ensureInitialAdmin({ users, dataDir: dir, password: 'configured-pass', log: captureLogger(lines) });
    expect(await users.verifyCredentials('admin', 'configured-pass')).not.toBeNull();
    await expect(stat(path.join(dir, INITIAL_ADMIN_PASSWORD_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(lines.some((line) => line.message.includes('configured-pass'))).toBe(false);
  });

  it('refuses a configured password shorter than 8 characters', async () => {
    await expect(ensureInitialAdmin({ users, dataDir: dir, password: 'short', log: captureLogger([]) })).rejects.toThrow(/at least 8/);
    expect(users.size).toBe(0);
  });
});
