import type { AssignedBaseline, AssignedQuery, Baseline, BaselineCreate, BaselineScriptInput, BaselineScriptView, BaselineUpdate } from '@contracts/baselines';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/** The baselines area's API (src-main/baselines/baselines-routes.ts), typed by its contract. */
export function baselinesClient(client: ApiClient) {
  return {
    list: (params: ListParams = {}): Promise<ListResult<Baseline>> => client.list(withQuery('/baselines', params)),
    get: (id: number): Promise<Baseline> => client.get(`/baselines/${segment(id)}`),
    create: (body: BaselineCreate): Promise<Baseline> => client.post('/baselines', body),
    update: (id: number, body: BaselineUpdate): Promise<Baseline> => client.put(`/baselines/${segment(id)}`, body),
    remove: (id: number): Promise<Baseline> => client.delete(`/baselines/${segment(id)}`),
    scripts: {
      get: (id: number): Promise<BaselineScriptView[]> => client.get(`/baselines/${segment(id)}/scripts`),
      /** The whole ordered list replaces the old one. */
      put: (id: number, scripts: BaselineScriptInput[]): Promise<BaselineScriptView[]> => client.put(`/baselines/${segment(id)}/scripts`, { scripts }),
    },
    /** Which baseline applies to a machine (exactly one of mac or host_id), with the rule, the reason and the rendered scripts. */
    assigned: (query: AssignedQuery): Promise<AssignedBaseline> => client.get(withQuery('/baselines/assigned', query)),
  };
}
