export { AuditLog, DEFAULT_AUDIT_RETENTION, type AuditRetention } from './audit-log.js';
export { AUDIT_OUTCOMES, AUDIT_TRANSPORTS, type AuditEntry, type AuditInput, type AuditOutcome, type AuditTransport } from './audit-types.js';
export { describeAuditAction, type AuditAction, type CollectionTest } from './audit-action.js';
export { matchesAudit, parseAuditFilter, type AuditFilter, type AuditFilterParams } from './audit-filter.js';
export { AUDITED_METHODS, auditHookPlugin } from './audit-hook.js';
