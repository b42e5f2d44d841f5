import type { Profile, ProfileSaved, ProfileView, ProfileRollback, ProfileWrite, ScriptDiff, ScriptVersionView } from '@contracts/profiles';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/** The profiles area's API (src-main/profiles/profiles-routes.ts), typed by its contract. */
export function profilesClient(client: ApiClient) {
  return {
    list: (params: ListParams = {}): Promise<ListResult<ProfileView>> => client.list(withQuery('/profiles', params)),
    get: (id: number): Promise<ProfileView> => client.get(`/profiles/${segment(id)}`),
    /** The saved profile with `warnings` (files missing from the boot root). */
    create: (body: ProfileWrite): Promise<ProfileSaved> => client.post('/profiles', body),
    update: (id: number, body: ProfileWrite): Promise<ProfileSaved> => client.put(`/profiles/${segment(id)}`, body),
    remove: (id: number): Promise<Profile> => client.delete(`/profiles/${segment(id)}`),
    versions: {
      list: (profileId: number, params: ListParams = {}): Promise<ListResult<ScriptVersionView>> =>
        client.list(withQuery(`/profiles/${segment(profileId)}/script-versions`, params)),
      get: (profileId: number, versionId: number): Promise<ScriptVersionView> => client.get(`/profiles/${segment(profileId)}/script-versions/${segment(versionId)}`),
      /** From a version to the current script, or to version `to` (a version id). */
      diff: (profileId: number, versionId: number, to?: number): Promise<ScriptDiff> =>
        client.get(withQuery(`/profiles/${segment(profileId)}/script-diff/${segment(versionId)}`, { to })),
      rollback: (profileId: number, versionId: number, body: ProfileRollback = {}): Promise<Profile> =>
        client.post(`/profiles/${segment(profileId)}/script-rollback/${segment(versionId)}`, body),
    },
  };
}
