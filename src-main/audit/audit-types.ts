export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AUDIT_TRANSPORTS = ['http', 'ipc'] as const;
export type AuditTransport = (typeof AUDIT_TRANSPORTS)[number];

/**
 * One audited request: who did what to which resource, and how it ended.
 * Never a body, password, token or BMC secret: only the fields below.
 */
export interface AuditEntry {
  id: number;
  created_at: string;
  updated_at: string;
  /** Principal's username; the attempted username for POST /auth/login; `anonymous` otherwise. */
  user: string;
  via: AuditTransport;
  /** Client address for HTTP (null over IPC). */
  remote_address: string | null;
  method: string;
  /** Request path without the query string. */
  path: string;
  /** Dotted action name, e.g. `services.start`, `hosts.create` (docs/events-and-logs.md). */
  action: string;
  resource_type: string;
  resource_id: string | null;
  outcome: AuditOutcome;
  status: number;
  /** The X-Request-Id of the request, to find its log lines. */
  request_id: string;
  /**
   * What a route chose to add (never from the body wholesale, never a
   * secret): e.g. `old_root` and `new_root` of a served-root change.
   * Absent on most rows.
   */
  detail?: AuditDetail;
}

/** Short text values a route records with its audit row. */
export type AuditDetail = Record<string, string | null>;

export type AuditInput = Omit<AuditEntry, 'id' | 'created_at' | 'updated_at'>;
