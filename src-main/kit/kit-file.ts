import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { AppError } from '../core/errors.js';
import { checkKdfParams, deriveKey, newKdfParams, open, seal, type KdfParams } from './kit-crypto.js';
import { KIT_FORMAT, KIT_SECTIONS, KIT_VERSION, type KitSection } from './kit-contract.js';

/*
 * The kit file (docs/kit.md, "The file"): YAML with a format name and a
 * version (a file of another version is refused, never guessed at), the
 * passphrase's scrypt parameters when secrets are sealed, and the sections.
 * With encrypt_whole the file is a header plus one sealed payload holding
 * that same document as JSON.
 */

const KdfSchema = Type.Object({
  kdf: Type.Literal('scrypt'),
  N: Type.Integer(),
  r: Type.Integer(),
  p: Type.Integer(),
  salt: Type.String({ maxLength: 128 }),
  cipher: Type.Literal('aes-256-gcm'),
});

/** A sealed secret in a section: base64 of iv | tag | ciphertext under the passphrase's key. */
export const SealedSchema = Type.Object({ sealed: Type.String({ maxLength: 64 * 1024 }) }, { additionalProperties: false });
export type Sealed = Static<typeof SealedSchema>;

const HeaderSchema = Type.Object({ format: Type.Literal(KIT_FORMAT), version: Type.Integer() });

const WholeSchema = Type.Object({
  format: Type.Literal(KIT_FORMAT),
  version: Type.Literal(KIT_VERSION),
  encrypted: KdfSchema,
  payload: Type.String(),
});

const DocumentSchema = Type.Object({
  format: Type.Literal(KIT_FORMAT),
  version: Type.Literal(KIT_VERSION),
  exported_at: Type.String(),
  exported_by: Type.String(),
  source: Type.Object({ server_name: Type.String(), version: Type.String() }),
  /** What the export left out and why (secrets without a passphrase). */
  warnings: Type.Array(Type.String()),
  /** The passphrase's parameters when the sections hold sealed secrets; null when they hold none. */
  secrets: Type.Union([KdfSchema, Type.Null()]),
  sections: Type.Record(Type.String(), Type.Unknown()),
});
export type KitDocument = Static<typeof DocumentSchema>;

const WHOLE_PURPOSE = 'bootwright-kit:whole';
const WRONG_PASSPHRASE = 'the kit cannot be decrypted: wrong passphrase, or the file was changed after export';

/** Seals and opens a kit's secrets under one passphrase-derived key. */
export interface SecretCodec {
  seal(plain: string, purpose: string): Sealed;
  open(value: Sealed, purpose: string): string;
}

export function codecOf(key: Buffer): SecretCodec {
  return {
    seal: (plain, purpose) => ({ sealed: seal(key, plain, `bootwright-kit:${purpose}`) }),
    open: (value, purpose) => open(key, value.sealed, `bootwright-kit:${purpose}`, WRONG_PASSPHRASE),
  };
}

/** A fresh key for an export; null without a passphrase. */
export async function exportKey(passphrase: string | undefined): Promise<{ params: KdfParams; codec: SecretCodec; key: Buffer } | null> {
  if (passphrase === undefined) return null;
  const params = newKdfParams();
  const key = await deriveKey(passphrase, params);
  return { params, key, codec: codecOf(key) };
}

/** The file's text: YAML (readable and diffable), or the sealed whole. */
export function writeKit(document: KitDocument, whole: { params: KdfParams; key: Buffer } | null): string {
  if (!whole) return stringifyYaml(document, { lineWidth: 0 });
  const payload = seal(whole.key, JSON.stringify(document), WHOLE_PURPOSE);
  return stringifyYaml({ format: KIT_FORMAT, version: KIT_VERSION, encrypted: whole.params, payload }, { lineWidth: 0 });
}

export interface OpenedKit {
  document: KitDocument;
  /** The secrets' codec (null when the kit has no sealed secrets). */
  secrets: SecretCodec | null;
}

/**
 * Parses and (when sealed) decrypts a kit. Refuses another format or
 * version, a sealed kit without a passphrase, and a wrong passphrase or a
 * tampered file (GCM's tag) — all before any section is looked at.
 */
export async function readKit(text: string, passphrase: string | undefined): Promise<OpenedKit> {
  const raw = parseText(text);
  if (!Value.Check(HeaderSchema, raw)) throw new AppError('VALIDATION_FAILED', `not a Bootwright kit: the file needs "format: ${KIT_FORMAT}" and a version`, { details: [{ field: 'content', message: 'no kit header' }] });
  if (raw.version !== KIT_VERSION) {
    throw new AppError('VALIDATION_FAILED', `kit format version ${raw.version} is not supported by this build (it reads version ${KIT_VERSION})`, { details: [{ field: 'content.version', message: `must be ${KIT_VERSION}` }] });
  }
  const keys = new Map<string, Buffer>();
  const keyFor = async (params: KdfParams, field: string): Promise<Buffer> => {
    if (passphrase === undefined) throw new AppError('VALIDATION_FAILED', 'the kit is encrypted: send its passphrase', { details: [{ field: 'passphrase', message: 'required for this kit' }] });
    checkKdfParams(params, field);
    const id = JSON.stringify(params);
    const known = keys.get(id);
    if (known) return known;
    const key = await deriveKey(passphrase, params);
    keys.set(id, key);
    return key;
  };
  let document: unknown = raw;
  if ('encrypted' in (raw as object)) {
    if (!Value.Check(WholeSchema, raw)) throw new AppError('VALIDATION_FAILED', 'the encrypted kit header is malformed', { details: [{ field: 'content.encrypted', message: 'scrypt parameters and payload expected' }] });
    const key = await keyFor(raw.encrypted, 'content.encrypted');
    document = parseJson(open(key, raw.payload, WHOLE_PURPOSE, WRONG_PASSPHRASE));
  }
  if (!Value.Check(DocumentSchema, document)) {
    const first = [...Value.Errors(DocumentSchema, document)][0];
    throw new AppError('VALIDATION_FAILED', `the kit is malformed${first ? `: ${first.instancePath || '/'} ${first.message}` : ''}`, { details: [{ field: `content${first?.instancePath.replaceAll('/', '.') ?? ''}`, message: first?.message ?? 'malformed' }] });
  }
  for (const name of Object.keys(document.sections)) {
    if (!(KIT_SECTIONS as readonly string[]).includes(name)) throw new AppError('VALIDATION_FAILED', `the kit has an unknown section "${name}"`, { details: [{ field: `content.sections.${name}`, message: `one of ${KIT_SECTIONS.join(', ')}` }] });
  }
  const secrets = document.secrets === null ? null : codecOf(await keyFor(document.secrets, 'content.secrets'));
  return { document, secrets };
}

export function sectionOf(document: KitDocument, section: KitSection): unknown {
  return document.sections[section];
}

function parseText(text: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (err) {
    throw new AppError('VALIDATION_FAILED', `the kit is neither JSON nor YAML: ${err instanceof Error ? err.message : String(err)}`, { details: [{ field: 'content', message: 'unparsable' }] });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('VALIDATION_FAILED', 'the decrypted kit is not JSON');
  }
}
