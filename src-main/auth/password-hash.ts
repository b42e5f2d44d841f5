import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth-contract.js';

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/**
 * scrypt (RFC 7914) with N=2^15, r=8, p=1: 32 MiB and tens of milliseconds
 * per hash, the interactive-login setting. The parameters are stored in each
 * hash, so raising them later keeps old hashes verifiable.
 */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

/** One scrypt derivation; `password` is already NFC-normalised. */
export interface DeriveRequest {
  password: string;
  salt: Buffer;
  params: ScryptParams;
  keyLength: number;
}

/**
 * Runs scrypt. Where it runs is the caller's choice: `deriveOnThreadPool`
 * (libuv's pool, shared with file I/O) or PasswordHasher's worker threads.
 */
export type DeriveKey = (request: DeriveRequest) => Promise<Buffer>;

const SALT_BYTES = 16;
const KEY_BYTES = 64;
const PREFIX = 'scrypt';

/** scrypt needs 128*N*r bytes; allow twice that so Node's 32 MiB default never refuses our own parameters. */
export function scryptMaxmem(params: ScryptParams): number {
  return 256 * params.N * params.r;
}

/** crypto.scrypt on libuv's thread pool. */
export const deriveOnThreadPool: DeriveKey = ({ password, salt, params, keyLength }) => {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: scryptMaxmem(params) };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
};

/** Hashes a password as `scrypt$N$r$p$<salt base64>$<hash base64>`. */
export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
  derive: DeriveKey = deriveOnThreadPool,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive({ password: password.normalize('NFC'), salt, params, keyLength: KEY_BYTES });
  return [PREFIX, params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parseHash(encoded: string): ParsedHash | null {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return null;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0)) return null;
  // Refuse absurd parameters from a tampered store rather than exhaust memory.
  if (N > 2 ** 20 || r > 32 || p > 16) return null;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const key = Buffer.from(parts[5] ?? '', 'base64');
  if (salt.length === 0 || key.length === 0) return null;
  return { params: { N, r, p }, salt, key };
}

/** True when `password` matches `encoded`; a malformed hash never matches. Constant-time comparison. */
export async function verifyPassword(password: string, encoded: string, derive: DeriveKey = deriveOnThreadPool): Promise<boolean> {
  const parsed = parseHash(encoded);
  if (!parsed) return false;
  const key = await derive({ password: password.normalize('NFC'), salt: parsed.salt, params: parsed.params, keyLength: parsed.key.length });
  return timingSafeEqual(key, parsed.key);
}

/**
 * A well-formed hash with the default parameters that no password matches
 * (its key is random, not derived): verifying against it costs exactly what
 * verifying a real password costs, and making it costs nothing.
 */
const DUMMY_HASH = [
  PREFIX,
  DEFAULT_SCRYPT_PARAMS.N,
  DEFAULT_SCRYPT_PARAMS.r,
  DEFAULT_SCRYPT_PARAMS.p,
  randomBytes(SALT_BYTES).toString('base64'),
  randomBytes(KEY_BYTES).toString('base64'),
].join('$');

/**
 * Spends the same work as verifying a real password, for logins with an
 * unknown username, so response time does not reveal which usernames exist.
 */
export async function spendDummyVerification(password: string, derive: DeriveKey = deriveOnThreadPool): Promise<void> {
  await verifyPassword(password, DUMMY_HASH, derive);
}
