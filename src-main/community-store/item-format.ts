import { createHash } from 'node:crypto';
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { parse as parseYaml } from 'yaml';
import { AppError, validationError, type FieldError } from '../core/errors.js';
import { STORE_ITEM_ID_PATTERN, STORE_ITEM_TYPES, type StoreItemType } from './community-store-contract.js';
import { literalUnion, nullable } from '../core/http-kit/common-contract.js';
import { foldUnionErrors, schemaErrorMessage } from '../core/http-kit/schema-errors.js';

/*
 * The store's file formats (docs/store.md, "Item format"): an index listing
 * the items with their metadata and payload digest, and one file per item
 * (YAML or JSON) holding the metadata, a description and the payload, the
 * API body an import writes. The same formats serve the shipped catalog,
 * remote feeds and POST /store/import-local.
 */

export const STORE_INDEX_SCHEMA_VERSION = 1;
/** A `<type>/<id>` reference (requires, bundle items, conflict keys). */
export const ITEM_REF_PATTERN = `^(${STORE_ITEM_TYPES.join('|')})/[a-z0-9][a-z0-9.-]{0,63}$`;

const Meta = {
  type: literalUnion(STORE_ITEM_TYPES),
  id: Type.String({ pattern: STORE_ITEM_ID_PATTERN }),
  name: Type.String({ minLength: 1, maxLength: 64 }),
  version: Type.String({ pattern: '^[0-9A-Za-z][0-9A-Za-z.+-]{0,31}$' }),
  summary: Type.String({ maxLength: 200 }),
  tags: Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,31}$' }), { maxItems: 16 }),
  os_family: nullable<string>('string', { maxLength: 32 }),
  author: Type.String({ maxLength: 128 }),
};

/** One item file: metadata, description, requires and the payload. */
export const StoreItemFileSchema = Type.Object(
  {
    ...Meta,
    description: Type.String({ maxLength: 8192 }),
    requires: Type.Optional(Type.Array(Type.String({ pattern: ITEM_REF_PATTERN }), { maxItems: 64, uniqueItems: true })),
    payload: Type.Unknown(),
  },
  { additionalProperties: false },
);

/** One index entry: the metadata, the payload digest and where the item file is (relative to the index). */
export const StoreIndexEntrySchema = Type.Object(
  { ...Meta, sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }), file: Type.String({ minLength: 1, maxLength: 512, pattern: '^(?!/)(?!.*(^|/)\\.\\.(/|$))[A-Za-z0-9._/-]+$' }) },
  { additionalProperties: false },
);

export const StoreIndexSchema = Type.Object(
  { schema_version: Type.Literal(STORE_INDEX_SCHEMA_VERSION), items: Type.Array(StoreIndexEntrySchema, { maxItems: 2000 }) },
  { additionalProperties: false },
);

/** A file of several full items (POST /store/import-local of a bundle exported from elsewhere). */
export const StoreBundleFileSchema = Type.Object(
  { format: Type.Literal('bootwright-store-bundle'), items: Type.Array(StoreItemFileSchema, { minItems: 1, maxItems: 256 }) },
  { additionalProperties: false },
);

/** A bundle item's payload: the items it brings, as `<type>/<id>` of the same source. */
export const BundlePayloadSchema = Type.Object(
  { items: Type.Array(Type.String({ pattern: ITEM_REF_PATTERN }), { minItems: 1, maxItems: 256, uniqueItems: true }) },
  { additionalProperties: false },
);

export type StoreItemFile = Static<typeof StoreItemFileSchema>;
export type StoreIndexEntry = Static<typeof StoreIndexEntrySchema>;
export type StoreIndex = Static<typeof StoreIndexSchema>;
export type StoreBundleFile = Static<typeof StoreBundleFileSchema>;

/** `<type>/<id>`. */
export function itemKey(type: StoreItemType, id: string): string {
  return `${type}/${id}`;
}

export function parseItemRef(ref: string): { type: StoreItemType; id: string } {
  const slash = ref.indexOf('/');
  const type = ref.slice(0, slash) as StoreItemType;
  if (slash < 0 || !STORE_ITEM_TYPES.includes(type)) throw new AppError('VALIDATION_FAILED', `"${ref}" is not a <type>/<id> store reference`);
  return { type, id: ref.slice(slash + 1) };
}

/**
 * JSON with object keys sorted at every level and no whitespace: the text
 * whose SHA-256 is an item's digest, so YAML and JSON files of the same
 * payload (and any key order) hash alike.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new AppError('VALIDATION_FAILED', 'a payload holds a number JSON cannot represent');
    if (value === undefined) return 'null';
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** SHA-256 (hex) of the payload's canonical JSON. */
export function payloadSha256(payload: unknown): string {
  return createHash('sha256').update(canonicalJson(payload), 'utf8').digest('hex');
}

/** Parses YAML or JSON text (JSON is YAML; the YAML parser's own limits apply: no custom tags, aliases capped). */
export function parseText(text: string, what: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (err) {
    throw new AppError('VALIDATION_FAILED', `${what} is neither JSON nor YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The problems of `value` against `schema`, fields prefixed. */
export function schemaErrors(schema: TSchema, value: unknown, prefix: string): FieldError[] {
  if (Value.Check(schema, value)) return [];
  return foldUnionErrors(Value.Errors(schema, value))
    .slice(0, 20)
    .map((error) => ({
      field: `${prefix}${error.instancePath.replaceAll('/', '.')}`,
      // TypeBox reports an unknown property as its `false` schema failing.
      message: error.message === 'schema is false' ? 'is not a known field' : schemaErrorMessage(error),
    }));
}

/** Checks an item file's shape (and a bundle's payload); throws VALIDATION_FAILED naming the fields. */
export function checkItemFile(value: unknown, prefix = 'item'): StoreItemFile {
  const errors = schemaErrors(StoreItemFileSchema, value, prefix);
  if (errors.length > 0) throw validationError(errors);
  const item = value as StoreItemFile;
  if (item.payload === undefined || item.payload === null || typeof item.payload !== 'object') {
    throw validationError([{ field: `${prefix}.payload`, message: 'must be an object (the API body of the item type)' }]);
  }
  if (item.type === 'bundle') {
    const bundleErrors = schemaErrors(BundlePayloadSchema, item.payload, `${prefix}.payload`);
    if (bundleErrors.length > 0) throw validationError(bundleErrors);
  }
  return item;
}

export function checkIndex(value: unknown, what: string): StoreIndex {
  const errors = schemaErrors(StoreIndexSchema, value, what);
  if (errors.length > 0) throw validationError(errors);
  const index = value as StoreIndex;
  const seen = new Set<string>();
  for (const entry of index.items) {
    const key = itemKey(entry.type, entry.id);
    if (seen.has(key)) throw validationError([{ field: `${what}.items`, message: `${key} is listed twice` }]);
    seen.add(key);
  }
  return index;
}

/** The items a payload of `item` refers to: `requires` plus a bundle's items. */
export function referencesOf(item: StoreItemFile): string[] {
  const refs = [...(item.requires ?? [])];
  if (item.type === 'bundle') refs.push(...(item.payload as Static<typeof BundlePayloadSchema>).items);
  return [...new Set(refs)];
}

/** The checks an item file must pass against its index entry: same identity and version, payload digest as listed. */
export function checkAgainstIndex(item: StoreItemFile, entry: StoreIndexEntry, source: string): void {
  const where = `${source} item ${itemKey(entry.type, entry.id)}`;
  if (item.type !== entry.type || item.id !== entry.id) throw new AppError('UPSTREAM_FAILED', `${where}: the file holds ${itemKey(item.type, item.id)}`);
  if (item.version !== entry.version) throw new AppError('UPSTREAM_FAILED', `${where}: the file has version ${item.version}, the index ${entry.version}`);
  const digest = payloadSha256(item.payload);
  if (digest !== entry.sha256) throw new AppError('UPSTREAM_FAILED', `${where}: payload SHA-256 ${digest} does not match the index (${entry.sha256}); the item was changed or damaged`);
}
