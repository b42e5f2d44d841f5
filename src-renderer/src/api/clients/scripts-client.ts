import type { Script, ScriptCheck, ScriptCreate, ScriptDiff, ScriptKind, ScriptUpdate, ScriptVariables, ScriptVersion } from '@contracts/scripts';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/** The scripts area's API (src-main/scripts/scripts-routes.ts, docs/scripts.md). */
export function scriptsClient(client: ApiClient) {
  return {
    /** Paging plus the filters kind, os_family, q. */
    list: (params: ListParams = {}): Promise<ListResult<Script>> => client.list(withQuery('/scripts', params)),
    get: (id: number): Promise<Script> => client.get(`/scripts/${segment(id)}`),
    create: (body: ScriptCreate): Promise<Script> => client.post('/scripts', body),
    update: (id: number, body: ScriptUpdate): Promise<Script> => client.put(`/scripts/${segment(id)}`, body),
    /** `force` deletes even while baselines use the script. */
    remove: (id: number, options: { force?: boolean } = {}): Promise<Script> => client.delete(withQuery(`/scripts/${segment(id)}`, options.force ? { force: true } : {})),
    /** Checks unsaved content: encoding, Liquid with the variables, the kind's own check; issues with lines. */
    check: (body: { kind: ScriptKind; content: string; variables?: ScriptVariables }): Promise<ScriptCheck> => client.post('/scripts/check', body),
    versions: {
      list: (id: number, params: ListParams = {}): Promise<ListResult<ScriptVersion>> => client.list(withQuery(`/scripts/${segment(id)}/versions`, params)),
      /** One version with `diff_to_current`. */
      get: (id: number, version: number): Promise<ScriptVersion> => client.get(`/scripts/${segment(id)}/versions/${segment(version)}`),
      diff: (id: number, version: number, to?: number): Promise<ScriptDiff> =>
        client.get(withQuery(`/scripts/${segment(id)}/versions/${segment(version)}/diff`, to === undefined ? {} : { to })),
      rollback: (id: number, version: number, comment?: string): Promise<Script> =>
        client.post(`/scripts/${segment(id)}/versions/${segment(version)}/rollback`, comment === undefined ? {} : { comment }),
    },
  };
}
