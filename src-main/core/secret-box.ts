import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const SECRETS_KEY_FILE = 'secrets.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

/**
 * Encrypts secrets at rest (BMC passwords) with AES-256-GCM under a random
 * key kept in `<data-dir>/secrets.key` (mode 0600, created on first use).
 * The store file alone then yields no password; the key file is the one
 * thing to protect (and to back up with the data dir).
 *
 * Stored form: `v1:<base64 iv|tag|ciphertext>`. The purpose string is bound
 * as additional authenticated data, so a value cannot be moved between uses.
 */
export class SecretBox {
  private readonly keyPath: string;
  private key: Promise<Buffer> | null = null;

  constructor(dataDir: string) {
    this.keyPath = path.join(dataDir, SECRETS_KEY_FILE);
  }

  async encrypt(plain: string, purpose: string): Promise<string> {
    const key = await this.loadKey();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  /** Throws when the value was not made with this key and purpose (a replaced key file, a tampered store). */
  async decrypt(sealed: string, purpose: string): Promise<string> {
    const [format, data] = sealed.split(':', 2);
    if (format !== FORMAT || data === undefined) throw new Error('unknown secret format');
    const raw = Buffer.from(data, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('secret too short');
    const key = await this.loadKey();
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`the stored secret cannot be decrypted with ${SECRETS_KEY_FILE} (was the key file replaced?)`);
    }
  }

  private loadKey(): Promise<Buffer> {
    this.key ??= this.readOrCreateKey().catch((err: unknown) => {
      this.key = null;
      throw err;
    });
    return this.key;
  }

  private async readOrCreateKey(): Promise<Buffer> {
    try {
      return await this.readKey();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const key = randomBytes(KEY_BYTES);
    try {
      // 'wx': never overwrite a key another process created meanwhile (that would orphan its secrets).
      await fs.writeFile(this.keyPath, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
      return key;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return this.readKey();
      throw err;
    }
  }

  private async readKey(): Promise<Buffer> {
    const text = (await fs.readFile(this.keyPath, 'utf8')).trim();
    if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`${this.keyPath} is not a 256-bit hex key`);
    return Buffer.from(text, 'hex');
  }
}
