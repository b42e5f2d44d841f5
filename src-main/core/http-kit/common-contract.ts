import { Type, type TSchema } from 'typebox';

/*
 * Schema pieces every area's contract shares. A contract may import this (and
 * other contracts), nothing else but typebox: the renderer imports contracts,
 * so everything they reach must be browser-safe TypeBox.
 */

/**
 * `{"type": [T, "null"]}` rather than anyOf: one clear validation error
 * ("must be string,null") instead of one per branch. Range keywords ignore null.
 */
export function nullable<T>(type: 'string' | 'integer' | 'number' | 'boolean', options: Record<string, unknown> = {}) {
  return Type.Unsafe<T | null>({ type: [type, 'null'], ...options });
}

/** An object schema that rejects unknown fields (the API's default for bodies). */
export function StrictObject<P extends Record<string, TSchema>>(properties: P, options: { description?: string } = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

export const Timestamp = Type.String({ format: 'date-time' });

/** Host group names (hosts' `group`, profiles' `default_for_groups`, settings' netboot.boot_loaders.groups): short words people type and filter by. */
export const GROUP_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$';

/** Roles, weakest first: viewer reads, operator also changes, admin also manages users, tokens and security. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Log levels, most severe first (a minimum level keeps itself and the ones before it). */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * One of a constant list of strings, as `anyOf` of `const`s (what the API
 * document has always said for these), typed as the list's union.
 */
export function literalUnion<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>(Type.Union(values.map((value) => Type.Literal(value)), options));
}
