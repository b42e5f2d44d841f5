import { execFileSync } from 'node:child_process';
import { constants, openSync, closeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../src-main/auth/password-hash.js';
import { PasswordHasher } from '../../../src-main/auth/password-hasher.js';
import { tempDir } from '../../helpers/test-core.js';

const hashers: PasswordHasher[] = [];
afterEach(async () => {
  for (const hasher of hashers.splice(0)) await hasher.close();
});

function hasher(): PasswordHasher {
  const made = new PasswordHasher({ concurrency: 2 });
  hashers.push(made);
  return made;
}

/**
 * Occupies every thread of libuv's pool: each opens a FIFO for reading,
 * which blocks until a writer opens it. Returns the function that lets them go.
 */
async function occupyThreadPool(dir: string): Promise<() => Promise<void>> {
  const size = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  const fifos = Array.from({ length: size }, (_, i) => path.join(dir, `fifo-${i}`));
  execFileSync('mkfifo', fifos);
  const readers = fifos.map((fifo) => open(fifo, constants.O_RDONLY));
  // Give every open a moment to reach its pool thread.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return async () => {
    for (const fifo of fifos) closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    for (const handle of await Promise.all(readers)) await handle.close();
  };
}

describe('PasswordHasher (scrypt in worker threads)', () => {
  it('reads and writes the stored hash format of password-hash.ts', async () => {
    const h = hasher();
    const old = await hashPassword('stored-before-password');
    expect(await h.verify('stored-before-password', old, 'login')).toBe(true);
    expect(await h.verify('wrong-password', old, 'login')).toBe(false);
    const made = await h.hash('made-by-the-workers');
    expect(made.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(await verifyPassword('made-by-the-workers', made)).toBe(true);
    await expect(h.spendDummy('anything-at-all', 'login')).resolves.toBeUndefined();
    expect(h.stats).toMatchObject({ running: 0, waiting: 0, started: 4 });
  });

  it('hashes while every thread of libuv pool is taken, so file writes never queue behind hashes', async () => {
    const dir = await tempDir();
    const release = await occupyThreadPool(dir.dir);
    try {
      const h = hasher();
      const hashed = await h.hash('hashed-with-the-pool-blocked');
      expect(await h.verify('hashed-with-the-pool-blocked', hashed, 'trusted')).toBe(true);
    } finally {
      await release();
      await dir.remove();
    }
  });
});
