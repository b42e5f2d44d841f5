import { Type } from 'typebox';

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
