import { Type, type Static } from 'typebox';
import { matchesAudit, parseAuditFilter } from '../../audit/audit-filter.js';
import { AUDIT_OUTCOMES, AUDIT_TRANSPORTS, auditRowView, type AuditView } from '../../audit/audit-types.js';
import { paginate } from '../../core/http-kit/list-query.js';
import { ListQueryProperties, OkList, StrictObject } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

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
    via: Type.Union(AUDIT_TRANSPORTS.map((via) => Type.Literal(via))),
    remote_address: Type.Union([Type.String(), Type.Null()], { description: 'Client address over HTTP; null over IPC' }),
    method: Type.String(),
    path: Type.String({ description: 'Request path without the query string' }),
    action: Type.String({ description: 'Dotted action, e.g. services.start, hosts.create (docs/events-and-logs.md)' }),
    resource_type: Type.String({ description: 'e.g. services, dns.records' }),
    resource_id: Type.Union([Type.String(), Type.Null()]),
    outcome: Type.Union(AUDIT_OUTCOMES.map((outcome) => Type.Literal(outcome))),
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

const AuditListQuery = StrictObject({
  ...ListQueryProperties,
  user: Type.Optional(Type.String({ maxLength: 256, description: 'Exact username' })),
  action: Type.Optional(Type.String({ maxLength: 1000, description: 'Exact action or prefix (`services.` or `services.*`); comma-separated list' })),
  resource: Type.Optional(Type.String({ maxLength: 128, description: 'resource_type, including its dotted children (`dns` matches `dns.records`)' })),
  outcome: Type.Optional(Type.Enum([...AUDIT_OUTCOMES])),
  authenticated: Type.Optional(Type.Enum(['true', 'false'], { description: 'true: requests with valid credentials; false: unauthenticated ones (failed logins, aggregates)' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; entries at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; entries before this time' })),
});

const SORTABLE = ['id', 'created_at', 'user', 'action', 'resource_type', 'outcome', 'status', 'count'] as const satisfies readonly (keyof AuditView)[];

/** The audit trail of mutating requests (recorded by the audit hook). */
export const auditLogRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get<{ Querystring: Static<typeof AuditListQuery> }>(
    '/audit-logs',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['audit-logs'],
        summary: 'List audit entries of mutating requests (newest first by default); unauthenticated requests are aggregated per source and minute',
        querystring: AuditListQuery,
        response: { 200: OkList(AuditEntrySchema) },
      },
    },
    async (request) => {
      const filter = parseAuditFilter(request.query);
      const rows = ctx.audit.all().filter((entry) => matchesAudit(filter, entry)).map(auditRowView);
      const page = paginate(rows, request.query, {
        sortable: SORTABLE,
        defaultSort: '-id',
        searchText: (entry) => [entry.user, entry.action, entry.path, entry.resource_id],
      });
      return { success: true as const, data: page.data, meta: page.meta };
    },
  );
};
