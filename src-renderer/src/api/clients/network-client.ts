import type { Nic } from '@contracts/network';
import type { ApiClient, ListResult } from '../api-client.js';
import { withQuery, type ListParams } from '../query-string.js';

/** The network area's API (src-main/network/network-routes.ts). */
export function networkClient(client: ApiClient) {
  return {
    interfaces: (params: ListParams = {}): Promise<ListResult<Nic>> => client.list(withQuery('/network/interfaces', params)),
  };
}
