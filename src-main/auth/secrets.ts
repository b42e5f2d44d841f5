import { createHash, randomBytes } from 'node:crypto';

/** A random secret of `bytes` bytes, base64url (no padding), safe in cookies and headers. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * SHA-256 (hex) of a high-entropy secret. Session ids and API tokens are
 * stored only as this digest: a leaked store file does not yield usable
 * credentials, and 256 random bits need no salt or slow hash.
 */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
