import { invalid } from '../core/errors.js';

/**
 * Parsing of the filter parameters the list and stream endpoints share, for
 * both transports: query strings over HTTP, `params` over IPC. Each parser
 * names the offending field in its 400.
 */

/** Text of a filter parameter as either transport hands it over. */
export type ParamValue = string | number | undefined;

/** RFC 3339 §5.6 date-time (the `T` may be a space or lowercase, §5.6 NOTE). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 timestamp, returned as the store's UTC form so it compares as text. */
export function parseTimestamp(field: string, value: ParamValue): string | null {
  if (value === undefined || value === '') return null;
  const text = String(value);
  const time = RFC3339.test(text) ? Date.parse(text.replace(' ', 'T')) : Number.NaN;
  if (Number.isNaN(time)) throw invalid(field, `"${text}" is not an RFC 3339 timestamp such as 2024-05-01T12:00:00Z`);
  return new Date(time).toISOString();
}

/** A non-negative integer id (after_id, Last-Event-ID). */
export function parseId(field: string, value: ParamValue): number | null {
  if (value === undefined || value === '') return null;
  const text = String(value).trim();
  if (!/^\d{1,15}$/.test(text)) throw invalid(field, `"${String(value)}" is not a non-negative integer`);
  return Number(text);
}

/** One of `levels`, as a minimum: the result is the index of the lowest level kept. */
export function parseMinLevel<L extends string>(field: string, value: ParamValue, levels: readonly L[]): number | null {
  if (value === undefined || value === '') return null;
  const index = (levels as readonly string[]).indexOf(String(value));
  if (index < 0) throw invalid(field, `must be one of ${levels.join(', ')}`);
  return index;
}

/** Matches dotted names (event kinds, audit actions): exact, or a prefix. */
export type NameMatcher = (name: string) => boolean;

const NAME_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.|\.\*|\*)?$/;
const MAX_PATTERNS = 32;

/**
 * A comma-separated list of dotted names; an entry ending in `.` or `*` is a
 * prefix (`service.` and `service.*` match `service.started`; `*` matches all).
 */
export function parseNamePatterns(field: string, value: ParamValue): NameMatcher | null {
  if (value === undefined || value === '') return null;
  const entries = String(value)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return null;
  if (entries.length > MAX_PATTERNS) throw invalid(field, `at most ${MAX_PATTERNS} comma-separated entries`);
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const entry of entries) {
    if (entry === '*') return () => true;
    if (!NAME_PATTERN.test(entry)) {
      throw invalid(field, `"${entry}" is not a dotted name (e.g. service.started) or prefix (service. or service.*)`);
    }
    if (entry.endsWith('*')) prefixes.push(entry.slice(0, -1));
    else if (entry.endsWith('.')) prefixes.push(entry);
    else exact.add(entry);
  }
  return (name) => exact.has(name) || prefixes.some((prefix) => name.startsWith(prefix));
}

/** A comma-separated list of plain words (log scopes); exact matches. */
export function parseWordList(field: string, value: ParamValue): ReadonlySet<string> | null {
  if (value === undefined || value === '') return null;
  const words = String(value)
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  if (words.length === 0) return null;
  if (words.length > MAX_PATTERNS) throw invalid(field, `at most ${MAX_PATTERNS} comma-separated entries`);
  for (const word of words) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(word)) throw invalid(field, `"${word}" is not a name (letters, digits, _ . -)`);
  }
  return new Set(words);
}
