import type { BaselineRun, BaselineToken, BaselineTokenCreated, HostInventory } from '@contracts/baselines';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/**
 * The baselines runtime's API (src-main/baselines/runtime/runtime-routes.ts):
 * the runs machines reported and the per-host runtime tokens. The baselines
 * themselves are in baselines-client.ts.
 */
export function baselineRunsClient(client: ApiClient) {
  return {
    runs: {
      list: (params: ListParams & { host_id?: number; task_id?: number } = {}): Promise<ListResult<BaselineRun>> => client.list(withQuery('/baselines/runs', params)),
      get: (id: number): Promise<BaselineRun> => client.get(`/baselines/runs/${segment(id)}`),
    },
    /** The host's last hardware inventory (null when it never reported one). */
    inventory: (hostId: number): Promise<HostInventory | null> => client.get(`/hosts/${segment(hostId)}/inventory`),
    tokens: {
      list: (params: ListParams & { host_id?: number; task_id?: number } = {}): Promise<ListResult<BaselineToken>> => client.list(withQuery('/baselines/tokens', params)),
      /** The secret and runner URLs are in this answer only. */
      create: (input: { host_id: number; task_id?: number; ttl_minutes?: number }): Promise<BaselineTokenCreated> => client.post('/baselines/tokens', input),
      revoke: (id: number): Promise<BaselineToken> => client.delete(`/baselines/tokens/${segment(id)}`),
    },
  };
}
