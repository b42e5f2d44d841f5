import { encrypt as sha512Crypt } from 'unixcrypt';
import type { SecretBox } from '../../core/secret-box.js';

/** What a preview and a validation show instead of a secret value. */
export const SECRET_MASK = '********';

/** A secret named `<x>_password` also reaches templates as `secrets.<x>_password_hash`: its SHA-512 crypt(3) hash. */
const HASHED_SUFFIX = '_password';

/** One secret at rest: the value and, for `*_password`, its crypt hash, both sealed with the kernel's SecretBox. */
export interface StoredSecret {
  sealed: string;
  hash: string | null;
}

export type StoredSecrets = Record<string, StoredSecret>;

/** The AAD a secret is sealed with: a value cannot move to another template or name. */
function purpose(templateId: number, name: string): string {
  return `netboot.answer-template.${templateId}.${name}`;
}

/**
 * Applies a write's `secrets` (a null value removes one) to the stored
 * ones. The hash of a password is made here, once, with a random salt: the
 * answer file then stays the same from render to render, and a render never
 * pays crypt's 5,000 rounds.
 */
export async function applySecretChanges(
  box: SecretBox,
  templateId: number,
  current: StoredSecrets,
  changes: Readonly<Record<string, string | null>>,
): Promise<StoredSecrets> {
  const next: StoredSecrets = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) {
      delete next[name];
      continue;
    }
    const hash = name.endsWith(HASHED_SUFFIX) ? await box.encrypt(sha512Crypt(value), `${purpose(templateId, name)}#hash`) : null;
    next[name] = { sealed: await box.encrypt(value, purpose(templateId, name)), hash };
  }
  return next;
}

/** The names the API shows (`secret_names`), sorted. */
export function secretNames(stored: StoredSecrets): string[] {
  return Object.keys(stored).sort();
}

/** The names templates see: each secret, and `<name>_hash` for passwords. */
function visibleNames(stored: StoredSecrets): string[] {
  return Object.entries(stored).flatMap(([name, secret]) => (secret.hash === null ? [name] : [name, `${name}_hash`]));
}

/**
 * The plain values for a render (the only place they are decrypted). A
 * secret given explicitly under a `<x>_hash` name wins over a derived hash.
 */
export async function openSecrets(box: SecretBox, templateId: number, stored: StoredSecrets): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, secret] of Object.entries(stored)) {
    if (secret.hash !== null && !(`${name}_hash` in stored)) out[`${name}_hash`] = await box.decrypt(secret.hash, `${purpose(templateId, name)}#hash`);
  }
  for (const [name, secret] of Object.entries(stored)) out[name] = await box.decrypt(secret.sealed, purpose(templateId, name));
  return out;
}

/**
 * Masked values for previews and validation: every stored secret and
 * `extra` (the preset's secret variables, so a template reads them the same
 * way before they are set).
 */
export function maskedSecrets(stored: StoredSecrets, extra: readonly string[] = []): Record<string, string> {
  const names = new Set([...visibleNames(stored), ...extra.flatMap((name) => (name.endsWith(HASHED_SUFFIX) ? [name, `${name}_hash`] : [name]))]);
  return Object.fromEntries([...names].map((name) => [name, SECRET_MASK]));
}

/** Replaces any secret value in `text` (an error message) by the mask. */
export function scrubSecrets(text: string, plain: Readonly<Record<string, string>>): string {
  let out = text;
  for (const value of Object.values(plain)) if (value.length >= 3) out = out.split(value).join(SECRET_MASK);
  return out;
}
