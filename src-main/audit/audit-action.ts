import { normalizeMac } from '../core/mac.js';

/**
 * Names an audited request from its route pattern and params. The scheme
 * (docs/events-and-logs.md, "Action names"):
 *
 * - words: the pattern's static segments, with the `:action` param replaced
 *   by its value (`/services/:name/:action` + start → services, start);
 * - verb: DELETE adds `delete`, PUT/PATCH add `update`; POST adds `create`
 *   when it targets a collection (a route `<pattern>/:param` or `GET <pattern>`
 *   exists, or the pattern is one word), else its last word is the verb
 *   (`auth.login`, `leases.prune`, `hosts.wake`);
 * - action: words and verb joined by dots (`services.start`, `hosts.create`,
 *   `dns.records.update`, `services.auto-start.update`);
 * - resource_type: the words before the first other param (`/dns/records/:id`
 *   → `dns.records`); without such a param, the action minus its verb;
 * - resource_id: the value of the first other param (MACs canonical).
 */
export interface AuditAction {
  action: string;
  resource_type: string;
  resource_id: string | null;
}

/** Tells whether POST to `pattern` creates in a collection (see the scheme above). */
export type CollectionTest = (pattern: string) => boolean;

const WORD = /^[a-z][a-z0-9-]{0,31}$/;
const MAX_ID_LENGTH = 128;

export function describeAuditAction(
  method: string,
  pattern: string,
  params: Readonly<Record<string, unknown>>,
  isCollection: CollectionTest,
): AuditAction {
  const segments = pattern.split('/').filter((segment) => segment !== '');
  const words: string[] = [];
  let resourceWords: string[] | null = null;
  let resourceId: string | null = null;
  for (const segment of segments) {
    if (!segment.startsWith(':')) {
      words.push(segment);
      continue;
    }
    const name = segment.slice(1);
    if (name === 'action') {
      const value = params.action;
      // The value is client text (maybe rejected later by the schema): only a plain word becomes part of a name.
      words.push(typeof value === 'string' && WORD.test(value) ? value : 'unknown');
      continue;
    }
    if (resourceWords === null) {
      resourceWords = [...words];
      resourceId = paramText(name, params[name]);
    }
  }
  const verb = verbOf(method, pattern, words, isCollection);
  const actionWords = verb === null ? words : [...words, verb];
  const typeWords = resourceWords ?? (verb === null && words.length > 1 ? words.slice(0, -1) : words);
  return {
    action: actionWords.join('.') || 'api',
    resource_type: typeWords.join('.') || 'api',
    resource_id: resourceId,
  };
}

function verbOf(method: string, pattern: string, words: readonly string[], isCollection: CollectionTest): string | null {
  switch (method) {
    case 'DELETE':
      return 'delete';
    case 'PUT':
    case 'PATCH':
      return 'update';
    default:
      return words.length <= 1 || isCollection(pattern) ? 'create' : null;
  }
}

function paramText(name: string, value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value);
  if (name === 'mac') return normalizeMac(text) ?? text.slice(0, MAX_ID_LENGTH);
  return text.slice(0, MAX_ID_LENGTH);
}
