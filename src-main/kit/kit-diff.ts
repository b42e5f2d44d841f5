import type { KitFieldChange } from './kit-contract.js';

/*
 * The field-level changes of an update (docs/kit.md, "Dry run"): the fields
 * the file's item sets, compared with the local item. A field the file leaves
 * out is not a change (it keeps its value, as a PUT would). Objects are
 * walked to dotted paths; arrays compare whole. Secret fields show as
 * "(secret)", never their values.
 */

const SECRET = '(secret)';
const MAX_DEPTH = 6;

export function fieldChanges(incoming: unknown, current: unknown, secretFields: readonly string[] = []): KitFieldChange[] {
  const changes: KitFieldChange[] = [];
  walk(incoming, current, '', 0, changes);
  return changes.map((change) => (secretFields.some((field) => change.path === field || change.path.startsWith(`${field}.`)) ? { path: change.path, from: change.from === undefined ? null : SECRET, to: change.to === undefined ? null : SECRET } : change));
}

function walk(incoming: unknown, current: unknown, path: string, depth: number, out: KitFieldChange[]): void {
  if (incoming === undefined) return;
  if (isPlainObject(incoming) && isPlainObject(current) && depth < MAX_DEPTH) {
    for (const [key, value] of Object.entries(incoming)) walk(value, current[key], path ? `${path}.${key}` : key, depth + 1, out);
    return;
  }
  if (!sameJson(incoming, current)) out.push({ path: path || '.', from: current === undefined ? null : current, to: incoming });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Structural equality of JSON values, independent of key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)].filter((key) => left[key] !== undefined || right[key] !== undefined));
  return [...keys].every((key) => sameJson(left[key], right[key]));
}
