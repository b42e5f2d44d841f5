import type {
  AnswerPreset,
  AnswerPreview,
  AnswerTemplate,
  AnswerTemplateVersion,
  AnswerTemplateWrite,
  CacheStats,
  CatalogEntryView,
  CatalogGroup,
  CheckFilesQuery,
  EntryFilesCheck,
  InstallTask,
  Overlay,
  OverlayFields,
  PrefetchBody,
  PrefetchJob,
  PreviewBody,
  ProfileFromNetboot,
  TaskCreate,
  TaskUpdate,
  ValidateBody,
  ValidationResult,
} from '@contracts/netboot';
import type { Profile } from '@contracts/profiles';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/**
 * The netboot area's API (src-main/netboot/…-routes.ts), typed by its contract:
 * the catalog and its files, the download cache, overlays, answer templates
 * with versions, install tasks, and POST /profiles/from-netboot (served by
 * the netboot area). Short lists (groups, presets, file checks) are read with
 * `get`, which takes the `data` of a paged answer as well as of a plain one.
 */
export function netbootClient(client: ApiClient) {
  return {
    catalog: {
      /** Paging plus the filters q, group, family, arch. */
      list: (params: ListParams = {}): Promise<ListResult<CatalogEntryView>> => client.list(withQuery('/netboot/catalog', params)),
      get: (distro: string): Promise<CatalogEntryView> => client.get(`/netboot/catalog/${segment(distro)}`),
      groups: (): Promise<CatalogGroup[]> => client.get('/netboot/groups'),
      /** Availability per entry, version and architecture; no filter checks every entry. */
      checkFiles: (query: CheckFilesQuery = {}): Promise<EntryFilesCheck[]> => client.get(withQuery('/netboot/check-files', query)),
    },
    cache: {
      prefetch: (body: PrefetchBody): Promise<PrefetchJob> => client.post('/netboot/prefetch', body),
      job: (id: string): Promise<PrefetchJob> => client.get(`/netboot/prefetch/${segment(id)}`),
      stats: (): Promise<CacheStats> => client.get('/netboot/cache-stats'),
      empty: (): Promise<CacheStats> => client.delete('/netboot/cache'),
    },
    overlays: {
      list: (params: ListParams = {}): Promise<ListResult<Overlay>> => client.list(withQuery('/netboot/overlays', params)),
      get: (distro: string): Promise<Overlay> => client.get(`/netboot/overlays/${segment(distro)}`),
      put: (distro: string, body: OverlayFields): Promise<Overlay> => client.put(`/netboot/overlays/${segment(distro)}`, body),
      /** Restores the shipped entry. */
      remove: (distro: string): Promise<Overlay> => client.delete(`/netboot/overlays/${segment(distro)}`),
    },
    templates: {
      list: (params: ListParams = {}): Promise<ListResult<AnswerTemplate>> => client.list(withQuery('/netboot/answer-templates', params)),
      get: (id: number): Promise<AnswerTemplate> => client.get(`/netboot/answer-templates/${segment(id)}`),
      create: (body: AnswerTemplateWrite): Promise<AnswerTemplate> => client.post('/netboot/answer-templates', body),
      update: (id: number, body: AnswerTemplateWrite): Promise<AnswerTemplate> => client.put(`/netboot/answer-templates/${segment(id)}`, body),
      remove: (id: number): Promise<AnswerTemplate> => client.delete(`/netboot/answer-templates/${segment(id)}`),
      presets: (): Promise<AnswerPreset[]> => client.get('/netboot/answer-templates/presets'),
      /** Checks unsaved content: template syntax and the kind's own rules, with line numbers. */
      validate: (body: ValidateBody): Promise<ValidationResult> => client.post('/netboot/answer-templates/validate', body),
      validateStored: (id: number): Promise<ValidationResult> => client.post(`/netboot/answer-templates/${segment(id)}/validate`),
      preview: (id: number, body: PreviewBody): Promise<AnswerPreview> => client.post(`/netboot/answer-templates/${segment(id)}/preview`, body),
      versions: {
        list: (id: number, params: ListParams = {}): Promise<ListResult<AnswerTemplateVersion>> =>
          client.list(withQuery(`/netboot/answer-templates/${segment(id)}/versions`, params)),
        /** One version with `diff_to_current`. */
        get: (id: number, version: number): Promise<AnswerTemplateVersion> => client.get(`/netboot/answer-templates/${segment(id)}/versions/${segment(version)}`),
        rollback: (id: number, version: number): Promise<AnswerTemplate> => client.post(`/netboot/answer-templates/${segment(id)}/rollback/${segment(version)}`),
      },
    },
    tasks: {
      /** Paging plus the filters state, mac, host_id. */
      list: (params: ListParams = {}): Promise<ListResult<InstallTask>> => client.list(withQuery('/netboot/tasks', params)),
      get: (id: number): Promise<InstallTask> => client.get(`/netboot/tasks/${segment(id)}`),
      create: (body: TaskCreate): Promise<InstallTask> => client.post('/netboot/tasks', body),
      /** `{state: 'cancelled'}` cancels, `{state: 'pending'}` restarts a finished task. */
      update: (id: number, body: TaskUpdate): Promise<InstallTask> => client.put(`/netboot/tasks/${segment(id)}`, body),
      remove: (id: number): Promise<InstallTask> => client.delete(`/netboot/tasks/${segment(id)}`),
    },
    /** POST /profiles/from-netboot: a catalog entry as a normal boot profile. */
    profileFromEntry: (body: ProfileFromNetboot): Promise<Profile> => client.post('/profiles/from-netboot', body),
  };
}
