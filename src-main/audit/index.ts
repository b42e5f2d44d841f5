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
