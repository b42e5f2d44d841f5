import { AUDIT_OUTCOMES, AUDIT_TRANSPORTS, type AuditOutcome, type AuditTransport } from './audit-contract.js';

export { AUDIT_OUTCOMES, AUDIT_TRANSPORTS, type AuditOutcome, type AuditTransport };

/** One kind of request inside an aggregate row. */
export interface AuditBreakdownItem {
  method: string;
  /** The route pattern (`/api/v1/hosts/:id`), not the literal path: a bounded set. */
  route: string;
  status: number;
  count: number;
}

/**
 * What an aggregate row adds: the unauthenticated requests of one source in
 * one minute, counted by method, route and status (docs/events-and-logs.md).
 */
export interface AuditAggregate {
  /** Start of the minute (RFC 3339, seconds 00). */
  window_start: string;
  /** The last request counted. */
  last_at: string;
  /** At most AGGREGATE_BREAKDOWN_LIMIT kinds, most frequent first once written. */
  breakdown: AuditBreakdownItem[];
  /** Requests of further kinds, beyond the breakdown's limit. */
  other: number;
}

/**
 * One audited request, or one aggregate of unauthenticated requests: who did
 * what to which resource, and how it ended. Never a body, password, token or
 * BMC secret: only the fields below.
 */
export interface AuditEntry {
  id: number;
  created_at: string;
  updated_at: string;
  /** Principal's username; the attempted username for POST /auth/login; `anonymous` otherwise. */
  user: string;
  via: AuditTransport;
  /** Client address for HTTP (null over IPC); an aggregate's source (IPv4 address or IPv6 /64, `*` for overflow). */
  remote_address: string | null;
  method: string;
  /** Request path without the query string; an aggregate's route pattern, or `*` when it holds several. */
  path: string;
  /** Dotted action name, e.g. `services.start`, `hosts.create` (docs/events-and-logs.md). */
  action: string;
  resource_type: string;
  resource_id: string | null;
  outcome: AuditOutcome;
  status: number;
  /** The X-Request-Id of the request (an aggregate's first request), to find its log lines. */
  request_id: string;
  /**
   * What a route chose to add (never from the body wholesale, never a
   * secret): e.g. `old_root` and `new_root` of a served-root change.
   * Absent on most rows.
   */
  detail?: AuditDetail;
  /**
   * Whether the request carried valid credentials (or logged in). The two
   * classes are kept apart: unauthenticated rows have their own count limit,
   * so a flood of them never evicts what signed-in users did. Absent in rows
   * written before this field existed (read through `auditRowView`).
   */
  authenticated?: boolean;
  /** How many requests the row stands for: 1, or an aggregate's count. */
  count?: number;
  aggregate?: AuditAggregate | null;
}

/** Short text values a route records with its audit row. */
export type AuditDetail = Record<string, string | null>;

/** What the API shows: every field present but the optional route detail. */
export type AuditView = Required<Omit<AuditEntry, 'updated_at' | 'detail'>> & Pick<AuditEntry, 'detail'>;

export type AuditInput = Omit<AuditEntry, 'id' | 'created_at' | 'updated_at' | 'count' | 'aggregate'> & { authenticated: boolean };

/** An unauthenticated request as the aggregator needs it: the audit fields plus its route pattern. */
export type UnauthenticatedRequest = Omit<AuditInput, 'authenticated'> & { route: string };

/** Which class a stored row belongs to; rows from before the field existed are classed by who and what. */
export function isAuthenticatedRow(entry: AuditEntry): boolean {
  if (entry.authenticated !== undefined) return entry.authenticated;
  return !(entry.outcome === 'failure' && (entry.user === 'anonymous' || entry.action === 'auth.login'));
}

/** A stored row with every field filled in. */
export function auditRowView(entry: AuditEntry): AuditView {
  const { updated_at: _updated, ...rest } = entry;
  return { ...rest, authenticated: isAuthenticatedRow(entry), count: entry.count ?? 1, aggregate: entry.aggregate ?? null };
}
