import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { validationError, type FieldError } from '../core/errors.js';
import type { ExistingRef } from '../core/conflict-plan.js';
import type { KitSection } from './kit-contract.js';
import type { Sealed, SecretCodec } from './kit-file.js';

/*
 * What the kit does per section (docs/kit.md, "Sections"): the item's form in
 * the file (references by name, secrets sealed), the local resource it
 * matches, and validate / create / overwrite / restore / remove through the
 * owning area's facade — so an import writes with exactly the checks (and
 * AppErrors) of that area's API.
 */

/** Who writes and why (versions an import makes carry it as their comment). */
export interface WriteNote {
  author: string;
  comment: string;
}

/** Secrets on the way out: sealed under the passphrase, or dropped (null) with a warning when there is none. */
export interface SecretsOut {
  seal(plain: string, purpose: string): Sealed | null;
}

/** Secrets on the way in: opened with the passphrase (a sealed value without a passphrase is refused earlier). */
export interface SecretsIn {
  open(value: Sealed, purpose: string): string;
}

/**
 * Local ids of referenced items, by section and key: what this import wrote
 * (or skipped for an existing one), else the local item of that key.
 * `id` is undefined for an item the import will create but has not yet.
 */
export interface RefResolver {
  id(section: KitSection, key: string): number | undefined;
  /** Whether the key names an item of the kit or a local one (checked before anything is written). */
  known(section: KitSection, key: string): boolean;
}

export interface KitTarget<P = unknown> {
  section: KitSection;
  /** Whether a taken name can be avoided by another name (a MAC, a settings part: no). */
  canRename: boolean;
  /** Every local item in the kit's form (secrets through `secrets`). */
  exportAll(secrets: SecretsOut): Promise<unknown[]>;
  /** Checks an item's shape and opens its secrets; throws VALIDATION_FAILED naming `field`. */
  parse(raw: unknown, field: string, secrets: SecretsIn | null): P;
  /** The item's identity in its section: what resolutions and references name. */
  keyOf(item: P): string;
  nameOf(item: P): string;
  withName(item: P, name: string): P;
  findExisting(item: P): ExistingRef | undefined;
  /** The local item of a key (what keyOf gives): references from other sections, and the undo of a write a crash cut short. */
  lookup(key: string): ExistingRef | undefined;
  isTaken(name: string): boolean;
  /** Write order inside the section, lowest first (a menu profile after the profiles it lists); default 0. */
  rank?(item: P): number;
  /** What of the file's item the diff compares with `current` (default: the item). */
  compared?(item: P): unknown;
  /** The local item in the kit's form with plain secrets (what the diff compares the file's item with). */
  current(id: number): Promise<unknown>;
  /** The area's own checks (existingId: an overwrite of that one); references not yet written are left out. */
  validate(item: P, existingId: number | undefined, refs: RefResolver): Promise<void>;
  create(item: P, refs: RefResolver, note: WriteNote): Promise<ExistingRef>;
  overwrite(id: number, item: P, refs: RefResolver, note: WriteNote): Promise<ExistingRef>;
  /** The resource as it is now (JSON; no plain secrets), kept to put it back when the import is undone. */
  snapshot(id: number): unknown;
  /** Puts a snapshot back; answers the id it has now (a schedule is re-created). */
  restore(id: number, snapshot: unknown, note: WriteNote): Promise<void>;
  remove(id: number, note: WriteNote): Promise<void>;
  /** Fields shown as "(secret)" in a diff. */
  secretFields: readonly string[];
}

/** A secret field of an item in memory: plain text once opened; undefined when the file dropped it. */
export type PlainSecret = string | undefined;

export function checkShape<P>(schema: TSchema, raw: unknown, field: string): P {
  if (Value.Check(schema, raw)) return structuredClone(raw) as P;
  const errors: FieldError[] = [...Value.Errors(schema, raw)].slice(0, 10).map((error) => ({ field: `${field}${error.instancePath.replaceAll('/', '.')}`, message: error.message }));
  throw validationError(errors);
}

export function byName<T extends { id: number; name: string }>(rows: readonly T[], name: string): ExistingRef | undefined {
  const key = name.toLowerCase();
  const row = rows.find((item) => item.name.toLowerCase() === key);
  return row ? { id: row.id, name: row.name } : undefined;
}

export function refOf(row: { id: number; name: string }): ExistingRef {
  return { id: row.id, name: row.name };
}

/** A reference the validation could not resolve (neither in the kit nor local). */
export function unknownRef(field: string, what: string, key: string): FieldError {
  return { field, message: `${what} "${key}" is neither in the kit nor on this server` };
}

/** Opens a sealed field; undefined (dropped at export) stays undefined. */
export function openSecret(value: Sealed | null | undefined, secrets: SecretsIn | null, purpose: string): PlainSecret {
  if (value === null || value === undefined) return undefined;
  if (!secrets) throw validationError([{ field: 'passphrase', message: 'the kit holds secrets: send its passphrase' }]);
  return secrets.open(value, purpose);
}

export type { SecretCodec };
