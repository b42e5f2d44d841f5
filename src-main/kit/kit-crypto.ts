import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { AppError } from '../core/errors.js';

/*
 * The kit's passphrase encryption (docs/kit.md, "Encryption"): a key derived
 * with scrypt (parameters and salt in the file's header, so a later build can
 * raise them and still read old kits), then AES-256-GCM per value with a
 * fresh IV. GCM's tag makes a wrong passphrase and a tampered value fail the
 * same way, before anything is written.
 */

export interface KdfParams {
  kdf: 'scrypt';
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
  /** base64, 16 bytes. */
  salt: string;
  cipher: 'aes-256-gcm';
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What we write: ~64 MiB·s class work on a laptop is too slow for a UI round trip; 2^15·8 costs ~0.1 s. */
const DEFAULT_N = 2 ** 15;
/** What we accept from a file: bounded so a hostile header cannot make the server burn memory or minutes. */
const MAX_N = 2 ** 20;
const MAX_R = 16;
const MAX_P = 4;

export function newKdfParams(): KdfParams {
  return { kdf: 'scrypt', N: DEFAULT_N, r: 8, p: 1, salt: randomBytes(16).toString('base64'), cipher: 'aes-256-gcm' };
}

/** Checks a header's parameters against our bounds; throws VALIDATION_FAILED naming `field`. */
export function checkKdfParams(value: KdfParams, field: string): void {
  const powerOfTwo = Number.isInteger(value.N) && value.N >= 2 ** 10 && value.N <= MAX_N && (value.N & (value.N - 1)) === 0;
  const salt = Buffer.from(value.salt, 'base64');
  if (value.kdf !== 'scrypt' || value.cipher !== 'aes-256-gcm') throw new AppError('VALIDATION_FAILED', `${field}: only scrypt with aes-256-gcm is known`);
  if (!powerOfTwo || !Number.isInteger(value.r) || value.r < 1 || value.r > MAX_R || !Number.isInteger(value.p) || value.p < 1 || value.p > MAX_P || salt.length < 16) {
    throw new AppError('VALIDATION_FAILED', `${field}: scrypt parameters out of bounds (N a power of two ≤ 2^20, r ≤ ${MAX_R}, p ≤ ${MAX_P}, salt ≥ 16 bytes)`);
  }
}

/** The 32-byte key of a passphrase under `params` (scrypt runs on libuv's thread pool, off the event loop). */
export function deriveKey(passphrase: string, params: KdfParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFC'), Buffer.from(params.salt, 'base64'), KEY_BYTES, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 }, (err, key) => {
      if (err) reject(err);
      else resolve(key);
    });
  });
}

/** base64 of iv | tag | ciphertext; `purpose` is bound as additional data (a value cannot be moved to another field). */
export function seal(key: Buffer, plain: string, purpose: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** Opens what seal made; a wrong key or any changed byte throws `failure` (one message: the two cannot be told apart). */
export function open(key: Buffer, sealed: string, purpose: string, failure: string): string {
  const raw = Buffer.from(sealed, 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new AppError('VALIDATION_FAILED', failure);
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(purpose, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new AppError('VALIDATION_FAILED', failure);
  }
}
