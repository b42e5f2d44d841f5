import type { AuditEntryData } from '@contracts/audit';
import type { ApiClient, ListResult } from '../api-client.js';
import { withQuery, type ListParams } from '../query-string.js';

/** The audit area's API (src-main/audit/audit-routes.ts). */
export function auditClient(client: ApiClient) {
  return {
    /** Paging plus the filters user, action, resource, outcome, authenticated, since, until. */
    list: (params: ListParams = {}): Promise<ListResult<AuditEntryData>> => client.list(withQuery('/audit-logs', params)),
  };
}
