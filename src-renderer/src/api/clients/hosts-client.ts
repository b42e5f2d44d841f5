import type { Host, HostInput } from '@contracts/hosts';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/** The hosts area's API (src-main/hosts/hosts-routes.ts), typed by its contract. */
export function hostsClient(client: ApiClient) {
  return {
    list: (params: ListParams = {}): Promise<ListResult<Host>> => client.list(withQuery('/hosts', params)),
    get: (id: number): Promise<Host> => client.get(`/hosts/${segment(id)}`),
    create: (input: HostInput & { mac: string }): Promise<Host> => client.post('/hosts', input),
    update: (id: number, patch: HostInput): Promise<Host> => client.put(`/hosts/${segment(id)}`, patch),
    remove: (id: number): Promise<Host> => client.delete(`/hosts/${segment(id)}`),
  };
}
