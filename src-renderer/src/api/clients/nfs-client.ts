import type { NfsBrowseResult, NfsPathCheck, NfsSettingsUpdate, NfsSettingsView, NfsStatus } from '@contracts/nfs';
import type { ApiClient } from '../api-client.js';
import { withQuery } from '../query-string.js';

/** The NFS area's API (src-main/nfs/nfs-routes.ts, docs/nfs.md), typed by its contract. */
export function nfsClient(client: ApiClient) {
  return {
    settings: {
      get: (): Promise<NfsSettingsView> => client.get('/services/nfs'),
      /** Only the fields sent change; `exports` replaces the whole list (changing exports or ports needs admin). */
      update: (patch: NfsSettingsUpdate): Promise<NfsSettingsView> => client.put('/services/nfs', patch),
    },
    status: (): Promise<NfsStatus> => client.get('/services/nfs/status'),
    /** Admin: whether a folder could be exported, and what to know about it. */
    validatePath: (path: string): Promise<NfsPathCheck> => client.post('/services/nfs/validate-path', { path }),
    /** Admin: folders under the allowed roots; no path: the roots themselves. */
    browsePath: (path: string | null): Promise<NfsBrowseResult> => client.get(withQuery('/services/nfs/browse-path', { path })),
  };
}
