import { randomBytes } from 'node:crypto';
import { chmod, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../core/logger.js';
import { PASSWORD_MIN_LENGTH } from './password-hash.js';
import type { PublicUser, UserDirectory } from './user-directory.js';

export const INITIAL_ADMIN_USERNAME = 'admin';
export const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password';

export interface InitialAdminOptions {
  users: UserDirectory;
  dataDir: string;
  /** From --admin-password / BOOTWRIGHT_ADMIN_PASSWORD; null generates one. */
  password: string | null;
  log: Logger;
}

/**
 * On the first start (no user exists) creates the `admin` user. A generated
 * password is written to `<data-dir>/initial-admin-password` (mode 0600) and
 * printed once in the log; later starts find a user and do nothing.
 */
export async function ensureInitialAdmin(options: InitialAdminOptions): Promise<PublicUser | null> {
  if (options.users.size > 0) return null;
  const configured = options.password;
  if (configured !== null && configured.length < PASSWORD_MIN_LENGTH) {
    throw new Error(`the initial admin password (--admin-password / BOOTWRIGHT_ADMIN_PASSWORD) must be at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  const password = configured ?? randomBytes(18).toString('base64url');
  const file = path.join(options.dataDir, INITIAL_ADMIN_PASSWORD_FILE);
  if (configured === null) {
    // Written before the user exists: if this fails, the next start simply tries again.
    await rm(file, { force: true });
    await writeFile(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600);
  }
  const admin = await options.users.create({ username: INITIAL_ADMIN_USERNAME, password, role: 'admin', generated: configured === null });
  if (configured === null) {
    // The one deliberate secret in the log: the operator needs it to log in the first time.
    options.log.warn(
      `created user "${INITIAL_ADMIN_USERNAME}" with generated password ${password} (also in ${file}); log in and change it, this is shown only once`,
    );
  } else {
    options.log.info(`created user "${INITIAL_ADMIN_USERNAME}" with the configured initial admin password`);
  }
  return admin;
}
