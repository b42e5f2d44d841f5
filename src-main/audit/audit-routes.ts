import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import { paginate } from '../core/http-kit/list-query.js';
import { ListQueryProperties, OkList, StrictObject } from '../core/http-kit/schemas.js';
import { AUDIT_OUTCOMES, AuditEntrySchema } from './audit-contract.js';
import { matchesAudit, parseAuditFilter } from './audit-filter.js';
import type { AuditLog } from './audit-log.js';
import { auditRowView, type AuditView } from './audit-types.js';

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
export const auditLogRoutes = (audit: AuditLog): FastifyPluginAsync => async (app) => {
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
      const rows = audit.all().filter((entry) => matchesAudit(filter, entry)).map(auditRowView);
      const page = paginate(rows, request.query, {
        sortable: SORTABLE,
        defaultSort: '-id',
        searchText: (entry) => [entry.user, entry.action, entry.path, entry.resource_id],
      });
      return { success: true as const, data: page.data, meta: page.meta };
    },
  );
};
