import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRETS_KEY_FILE, SecretBox } from '../../../src-main/core/secret-box.js';
import { tempDir } from '../../helpers/test-core.js';

let dir: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir('bootwright-secrets-');
});
afterEach(async () => dir.remove());

describe('secret box (AES-256-GCM, key in the data dir)', () => {
  it('creates a 0600 key on first use and round-trips secrets', async () => {
    const box = new SecretBox(dir.dir);
    const sealed = await box.encrypt('p4ssw0rd', 'bmc');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('p4ssw0rd');
    const info = await stat(path.join(dir.dir, SECRETS_KEY_FILE));
    expect(info.mode & 0o777).toBe(0o600);
    expect(await box.decrypt(sealed, 'bmc')).toBe('p4ssw0rd');
    // Another instance (a restart) reads the same key.
    expect(await new SecretBox(dir.dir).decrypt(sealed, 'bmc')).toBe('p4ssw0rd');
  });

  it('binds a secret to its purpose and to the key file', async () => {
    const box = new SecretBox(dir.dir);
    const sealed = await box.encrypt('p4ssw0rd', 'bmc');
    await expect(box.decrypt(sealed, 'other')).rejects.toThrow(/cannot be decrypted/);
    await writeFile(path.join(dir.dir, SECRETS_KEY_FILE), `${'ab'.repeat(32)}\n`);
    await expect(new SecretBox(dir.dir).decrypt(sealed, 'bmc')).rejects.toThrow(/key file replaced/);
    await expect(box.decrypt('v2:abc', 'bmc')).rejects.toThrow(/format/);
  });

  it('refuses a malformed key file rather than replacing it', async () => {
    await writeFile(path.join(dir.dir, SECRETS_KEY_FILE), 'short\n');
    await expect(new SecretBox(dir.dir).encrypt('x', 'bmc')).rejects.toThrow(/not a 256-bit hex key/);
    expect(await readFile(path.join(dir.dir, SECRETS_KEY_FILE), 'utf8')).toBe('short\n');
  });
});
