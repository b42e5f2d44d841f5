import { Type, type Static } from 'typebox';
import { literalUnion } from '../core/http-kit/common-contract.js';

/*
 * The audit API's contract (/api/v1/audit-logs): schemas and constants,
 * typebox and other contracts only (the renderer imports it: @contracts/audit).
 */

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AUDIT_TRANSPORTS = ['http', 'ipc'] as const;
export type AuditTransport = (typeof AUDIT_TRANSPORTS)[number];

const AuditAggregateSchema = Type.Object(
  {
    window_start: Type.String({ format: 'date-time', description: 'Start of the minute the row counts' }),
    last_at: Type.String({ format: 'date-time', description: 'The last request counted' }),
    breakdown: Type.Array(
      Type.Object({
        method: Type.String(),
        route: Type.String({ description: 'Route pattern, e.g. /api/v1/hosts/:id' }),
        status: Type.Integer(),
        count: Type.Integer(),
      }),
      { description: 'Requests by method, route and status, most frequent first (at most 16 kinds)' },
    ),
    other: Type.Integer({ description: 'Requests of kinds beyond the breakdown' }),
  },
  { description: 'Unauthenticated requests of one source in one minute, folded into this row' },
);

export const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
    user: Type.String({ description: 'Principal username; the attempted username for a login; `anonymous` without one' }),
    via: literalUnion(AUDIT_TRANSPORTS),
    remote_address: Type.Union([Type.String(), Type.Null()], { description: 'Client address over HTTP; null over IPC' }),
    method: Type.String(),
    path: Type.String({ description: 'Request path without the query string' }),
    action: Type.String({ description: 'Dotted action, e.g. services.start, hosts.create (docs/events-and-logs.md)' }),
    resource_type: Type.String({ description: 'e.g. services, dns.records' }),
    resource_id: Type.Union([Type.String(), Type.Null()]),
    outcome: literalUnion(AUDIT_OUTCOMES),
    status: Type.Integer({ description: 'HTTP status of the response' }),
    request_id: Type.String({ description: "X-Request-Id of the request (an aggregate's first request; find its log lines)" }),
    detail: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()]), {
        description: 'What the route added, on a few rows only: e.g. old_root and new_root of a served-root change (PUT /services/tftp)',
      }),
    ),
    authenticated: Type.Boolean({ description: 'Whether the request had valid credentials; unauthenticated rows are kept apart, with their own count limit' }),
    count: Type.Integer({ minimum: 1, description: 'Requests this row stands for: 1, or the size of an aggregate' }),
    aggregate: Type.Union([AuditAggregateSchema, Type.Null()]),
  },
  { $id: 'AuditEntry' },
);

export type AuditEntryData = Static<typeof AuditEntrySchema>;
