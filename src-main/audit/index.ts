import type { AreaModule } from '../core/area.js';
import { auditHookPlugin } from './audit-hook.js';
import type { AuditLog } from './audit-log.js';
import { auditLogRoutes } from './audit-routes.js';

export { AuditLog, DEFAULT_AUDIT_RETENTION, type AuditLogOptions, type AuditRetention } from './audit-log.js';
export {
  AUDIT_OUTCOMES,
  AUDIT_TRANSPORTS,
  auditRowView,
  isAuthenticatedRow,
  type AuditAggregate,
  type AuditBreakdownItem,
  type AuditEntry,
  type AuditInput,
  type AuditOutcome,
  type AuditTransport,
  type AuditView,
  type UnauthenticatedRequest,
} from './audit-types.js';
export { describeAuditAction, type AuditAction, type CollectionTest } from './audit-action.js';
export { matchesAudit, parseAuditFilter, type AuditFilter, type AuditFilterParams } from './audit-filter.js';
export { AUDITED_METHODS, auditHookPlugin } from './audit-hook.js';
export { AGGREGATE_BREAKDOWN_LIMIT, UnauthenticatedAggregator, type AggregatorOptions } from './unauthenticated-aggregator.js';
export { AuditEntrySchema, type AuditEntryData } from './audit-contract.js';
export { auditLogRoutes } from './audit-routes.js';

/**
 * The audit area (docs/architecture.md, "Area folders"): the facade is the
 * kernel's AuditLog; its hook records every mutating request, so it is an
 * AreaParts hook, registered before any area's routes; the route is GET /audit-logs.
 * While running, it prunes entries past their retention age; close() writes the
 * aggregated counts of unauthenticated requests it still holds in memory.
 */
export function auditArea(): AreaModule<'audit', AuditLog, Record<string, never>> {
  return {
    name: 'audit',
    needs: [],
    create(kernel) {
      const { audit, log } = kernel;
      return {
        facade: audit,
        hooks: [auditHookPlugin(kernel)],
        routes: [auditLogRoutes(audit)],
        services: [],
        start: async () => audit.startAgePrune(undefined, (err: unknown) => log.warn(`audit retention prune failed: ${String(err)}`)),
        stop: async () => audit.stopAgePrune(),
        close: () => audit.flush(),
      };
    },
  };
}
