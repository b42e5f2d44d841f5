import { foldUnionErrors, schemaErrorMessage } from '../core/http-kit/schema-errors.js';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { validationError, type FieldError } from '../core/errors.js';
import { PRINTABLE_TEXT_MESSAGE, PRINTABLE_TEXT_PATTERN } from '../core/printable-text.js';
import { PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import { RESERVED_VARIABLES } from './check/liquid-check.js';
import {
  KIND_FAMILY,
  ScriptCreateSchema,
  ScriptUpdateSchema,
  type OsFamily,
  type Script,
  type ScriptCreate,
  type ScriptKind,
  type ScriptUpdate,
  type ScriptVariables,
} from './scripts-contract.js';

/*
 * The request bodies of POST and PUT /scripts, shared by the routes (fastify
 * validates with them) and the facade (other areas' writes are checked with
 * the same schemas here), so both refuse the same input with the same fields.
 */

/** The contract's fields with the printable-text rule of the ground layer (the contract imports only typebox). */
const PrintableFields = {
  description: Type.Optional(PrintableString({ maxLength: 1024 })),
  comment: Type.Optional(PrintableString({ maxLength: 500, description: 'Stored with the new version when the content changes' })),
};
export const ScriptCreateBody = StrictObject({ ...ScriptCreateSchema.properties, ...PrintableFields });
export const ScriptUpdateBody = Type.Object({ ...ScriptUpdateSchema.properties, ...PrintableFields }, { additionalProperties: false, minProperties: 1 });

/** What a write would store, before the content check and the checks against other scripts. */
export interface ScriptCandidate {
  name: string;
  kind: ScriptKind;
  os_family: OsFamily;
  description: string;
  content: string;
  variables: ScriptVariables;
}

/** The schema errors of `value` named like the API's (api/error-handler.ts fieldErrors): one per field. */
function schemaErrors(schema: typeof ScriptCreateBody | typeof ScriptUpdateBody, value: unknown): FieldError[] {
  const byField = new Map<string, string>();
  for (const error of foldUnionErrors(Value.Errors(schema, value))) {
    const base = ['body', ...error.instancePath.split('/').filter(Boolean)].join('.');
    const params = error.params as Record<string, unknown>;
    let field = base;
    let message = schemaErrorMessage(error);
    if (error.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
      for (const name of params.additionalProperties) byField.set(`${base}.${String(name)}`, 'unknown field');
      continue;
    }
    if (error.keyword === 'boolean') continue; // The additionalProperties error above names the field.
    if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) {
      for (const name of params.requiredProperties) byField.set(`${base}.${String(name)}`, 'is required');
      continue;
    }
    if (error.keyword === 'pattern' && params.pattern === PRINTABLE_TEXT_PATTERN) message = PRINTABLE_TEXT_MESSAGE;
    if (!byField.has(field)) byField.set(field, message);
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

/** Whether a script of `kind` can target `family` (a shell script never runs on Windows, a batch file never on Linux). */
export function familyFits(kind: ScriptKind, family: OsFamily): boolean {
  const only = KIND_FAMILY[kind];
  return only === 'any' || only === family;
}

/**
 * Checks `input` against the body schema and merges it over `current` (null
 * on create): os_family defaults to the kind's family (and follows a kind
 * change it no longer fits), a contradictory pair and reserved variable
 * names are field errors. Throws one 400 listing every bad field.
 */
export function buildCandidate(current: Script | null, input: ScriptCreate | ScriptUpdate): ScriptCandidate {
  const errors = schemaErrors(current === null ? ScriptCreateBody : ScriptUpdateBody, input);
  if (errors.length > 0) throw validationError(errors);
  const kind = input.kind ?? current?.kind;
  const name = input.name ?? current?.name;
  const content = input.content ?? current?.content;
  if (kind === undefined || name === undefined || content === undefined) {
    // The create schema requires all three; an update has them from `current`.
    throw validationError([{ field: 'body', message: 'name, kind and content are required' }]);
  }
  let family: OsFamily;
  if (input.os_family !== undefined) {
    family = input.os_family;
    if (!familyFits(kind, family)) errors.push({ field: 'body.os_family', message: `a ${kind} script runs on ${KIND_FAMILY[kind]} only` });
  } else {
    family = current && familyFits(kind, current.os_family) ? current.os_family : KIND_FAMILY[kind];
  }
  const variables = input.variables ?? current?.variables ?? {};
  for (const reserved of RESERVED_VARIABLES) {
    if (Object.hasOwn(variables, reserved)) errors.push({ field: `body.variables.${reserved}`, message: `"${reserved}" is reserved: the renderer fills ${reserved}.*` });
  }
  if (errors.length > 0) throw validationError(errors);
  return { name, kind, os_family: family, description: input.description ?? current?.description ?? '', content, variables: { ...variables } };
}
