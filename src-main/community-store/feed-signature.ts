import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/*
 * How a feed's index is trusted (docs/store.md, "Feeds"): an Ed25519
 * detached signature over the exact bytes of index.json (index.json.sig), or
 * a SHA-256 of those bytes pinned in the settings. Items are then trusted
 * through the payload digests the index lists.
 */

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): a raw 32-byte key appended makes the SPKI. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The key from a PEM (SPKI) or the base64 of the raw 32 bytes; throws with a reason for anything else. */
export function parseEd25519PublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  if (trimmed.startsWith('-----BEGIN')) {
    key = createPublicKey({ key: trimmed, format: 'pem' });
  } else {
    const raw = Buffer.from(trimmed, 'base64');
    if (raw.length !== 32 || raw.toString('base64').replace(/=+$/, '') !== trimmed.replace(/=+$/, '')) {
      throw new Error('is neither an SPKI PEM nor the base64 of a raw 32-byte Ed25519 key');
    }
    key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`is a ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  return key;
}

/** The signature bytes of a .sig file: 64 raw bytes, or their base64 (one line, whitespace ignored). */
export function decodeSignature(body: Buffer): Buffer | null {
  if (body.length === 64) return body;
  const text = body.toString('latin1').trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  const raw = Buffer.from(text, 'base64');
  return raw.length === 64 ? raw : null;
}

/** Whether `signature` is a valid Ed25519 signature of `data` under `publicKey` (never throws on a bad signature). */
export function verifyEd25519(data: Buffer, signature: Buffer, publicKey: KeyObject): boolean {
  try {
    return verify(null, data, publicKey, signature);
  } catch {
    return false;
  }
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
