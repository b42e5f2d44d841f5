import { invalid } from '../core/errors.js';
import { parseNamePatterns, parseTimestamp, type NameMatcher, type ParamValue } from '../events/filter-params.js';
import { AUDIT_OUTCOMES, isAuthenticatedRow, type AuditEntry, type AuditOutcome } from './audit-types.js';

/** The filter parameters of GET /audit-logs. */
export interface AuditFilterParams {
  user?: ParamValue;
  /** Exact action or prefix (`services.`, `services.*`); comma-separated list. */
  action?: ParamValue;
  /** resource_type, matching itself and its dotted children (`dns` matches `dns.records`). */
  resource?: ParamValue;
  outcome?: ParamValue;
  /** true: rows of requests with valid credentials; false: unauthenticated rows and aggregates. */
  authenticated?: ParamValue;
  since?: ParamValue;
  until?: ParamValue;
}

export interface AuditFilter {
  user: string | null;
  action: NameMatcher | null;
  resource: string | null;
  outcome: AuditOutcome | null;
  authenticated: boolean | null;
  since: string | null;
  until: string | null;
}

export function parseAuditFilter(params: AuditFilterParams, fieldPrefix = 'querystring'): AuditFilter {
  const field = (name: string) => `${fieldPrefix}.${name}`;
  const outcome = params.outcome === undefined || params.outcome === '' ? null : String(params.outcome);
  if (outcome !== null && !(AUDIT_OUTCOMES as readonly string[]).includes(outcome)) {
    throw invalid(field('outcome'), `must be one of ${AUDIT_OUTCOMES.join(', ')}`);
  }
  const text = (value: ParamValue) => (value === undefined || value === '' ? null : String(value));
  const authenticated = text(params.authenticated);
  if (authenticated !== null && authenticated !== 'true' && authenticated !== 'false') throw invalid(field('authenticated'), 'must be true or false');
  return {
    user: text(params.user),
    action: parseNamePatterns(field('action'), params.action),
    resource: text(params.resource),
    outcome: outcome as AuditOutcome | null,
    authenticated: authenticated === null ? null : authenticated === 'true',
    since: parseTimestamp(field('since'), params.since),
    until: parseTimestamp(field('until'), params.until),
  };
}

export function matchesAudit(filter: AuditFilter, entry: AuditEntry): boolean {
  if (filter.user !== null && entry.user !== filter.user) return false;
  if (filter.outcome !== null && entry.outcome !== filter.outcome) return false;
  if (filter.authenticated !== null && isAuthenticatedRow(entry) !== filter.authenticated) return false;
  if (filter.resource !== null && entry.resource_type !== filter.resource && !entry.resource_type.startsWith(`${filter.resource}.`)) {
    return false;
  }
  if (filter.since !== null && entry.created_at < filter.since) return false;
  if (filter.until !== null && entry.created_at >= filter.until) return false;
  if (filter.action !== null && !filter.action(entry.action)) return false;
  return true;
}
