import { createHash, timingSafeEqual } from 'node:crypto';
import { randomSecret } from '../../auth/secrets.js';
import type { SecretBox } from '../../core/secret-box.js';

/*
 * The per-task token of the runtime URLs (answer file, cloud-init seed,
 * progress callback). It is the answer URL's only credential, so it is random
 * (256 bits), compared in constant time, kept encrypted at rest (the store
 * file alone yields no usable URL) and never written to an event, a log line
 * or an audit row.
 */

/** AAD of the sealed token: a sealed value cannot be moved to another use or task. */
export function tokenPurpose(taskId: number): string {
  return `netboot-task-token:${taskId}`;
}

/** The shape of a token in a path or query: base64url, what randomSecret makes. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export function newTaskToken(): string {
  return randomSecret(32);
}

/**
 * Constant-time comparison. Both sides are hashed first so the comparison
 * takes the same time whatever the lengths (timingSafeEqual needs equal
 * lengths, and an early length check would tell an attacker the length).
 */
export function tokensEqual(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export function sealToken(secrets: Pick<SecretBox, 'encrypt'>, taskId: number, token: string): Promise<string> {
  return secrets.encrypt(token, tokenPurpose(taskId));
}

export function openToken(secrets: Pick<SecretBox, 'decrypt'>, taskId: number, sealed: string): Promise<string> {
  return secrets.decrypt(sealed, tokenPurpose(taskId));
}
