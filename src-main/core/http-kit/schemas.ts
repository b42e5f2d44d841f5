import { Type, type TSchema } from 'typebox';
import { PRINTABLE_TEXT_PATTERN } from '../printable-text.js';

/** `details` entry of a field error. */
export const FieldErrorSchema = Type.Object({
  field: Type.String({ description: 'JSON pointer-like path of the offending field, e.g. body.port' }),
  message: Type.String(),
});

/** The error envelope every failure returns. */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'Human-readable description naming the field or cause' }),
    code: Type.String({ description: 'Machine-readable code from the error catalogue (docs/api.md)' }),
    details: Type.Optional(Type.Array(FieldErrorSchema)),
    request_id: Type.Optional(Type.String()),
  },
  { $id: 'ErrorEnvelope' },
);

export const ListMeta = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer({ minimum: 1 }),
  size: Type.Integer({ minimum: 1 }),
});

/** `{"success":true,"data":…}` around `data`. */
export function Ok<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data });
}

/** A list response: `data` is an array and `meta` carries paging. */
export function OkList<T extends TSchema>(item: T) {
  return Type.Object({ success: Type.Literal(true), data: Type.Array(item), meta: ListMeta });
}

/** Paging, search and sort parameters that every list endpoint takes. */
export const ListQueryProperties = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: '1-based page number' })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'Rows per page' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive text filter' })),
  sort: Type.Optional(
    Type.String({ maxLength: 64, pattern: '^-?[a-z_][a-z0-9_]*$', description: '`field` ascending or `-field` descending' }),
  ),
};

export const ListQuery = Type.Object(ListQueryProperties, { additionalProperties: false });

/** A record id in the path: canonical decimal only ("27", never "027", "+27", "27.0"; api/http-app.ts checks the text). */
export const IdParams = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Decimal digits without sign, leading zeros or fraction' }) },
  { additionalProperties: false },
);

export { StrictObject, Timestamp } from './common-contract.js';

/**
 * A user-facing name, label, description or comment: printable text only
 * (core/printable-text.ts: no control characters, bidi overrides or lone
 * surrogates). Every such request field uses it, so the rule is one place.
 */
export function PrintableString(options: { minLength?: number; maxLength?: number; description?: string } = {}) {
  return Type.String({ ...options, pattern: PRINTABLE_TEXT_PATTERN });
}
