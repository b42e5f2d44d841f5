import type { BootingNow, HostBatchAssign, HostBatchResult, HostGroups, HostImportRow, HostInput, HostSummary, HostTimeline, HostView, ImportMode, ImportReport } from '@contracts/hosts';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/** The hosts area's API (src-main/hosts/hosts-routes.ts), typed by its contract. */
export function hostsClient(client: ApiClient) {
  return {
    list: (params: ListParams = {}): Promise<ListResult<HostView>> => client.list(withQuery('/hosts', params)),
    get: (id: number): Promise<HostView> => client.get(`/hosts/${segment(id)}`),
    create: (input: HostInput & { mac: string }): Promise<HostView> => client.post('/hosts', input),
    update: (id: number, patch: HostInput): Promise<HostView> => client.put(`/hosts/${segment(id)}`, patch),
    remove: (id: number): Promise<HostView> => client.delete(`/hosts/${segment(id)}`),
    /** POST /hosts/import: the CSV text or JSON rows; `dryRun` reports and changes nothing. */
    importHosts: (source: { csv: string } | { hosts: HostImportRow[] }, options: { mode?: ImportMode; dryRun?: boolean } = {}): Promise<ImportReport> =>
      client.post(withQuery('/hosts/import', { mode: options.mode, dry_run: options.dryRun || undefined }), source),
    removeMany: (ids: number[]): Promise<HostBatchResult> => client.post('/hosts/batch/delete', { ids }),
    assignMany: (change: HostBatchAssign): Promise<HostBatchResult> => client.post('/hosts/batch/assign', change),
    /** A host's boots, newest first (GET /hosts/{id}/timeline). */
    timeline: (id: number, limit?: number): Promise<HostTimeline> => client.get(withQuery(`/hosts/${segment(id)}/timeline`, { limit })),
    /** Any MAC's boots, hosts or not (GET /hosts/timeline?mac=). */
    timelineByMac: (mac: string, limit?: number): Promise<HostTimeline> => client.get(withQuery('/hosts/timeline', { mac, limit })),
    /** The boots with a step in the last 10 minutes. */
    bootingNow: (): Promise<ListResult<BootingNow>> => client.list('/hosts/booting-now'),
    /** The dashboard's host numbers: by lifecycle, waiting for adoption, failed boots of the last hour. */
    summary: (): Promise<HostSummary> => client.get('/hosts/summary'),
    /** The groups and tags in use with their host counts (GET /hosts/groups). */
    groups: (): Promise<HostGroups> => client.get('/hosts/groups'),
  };
}
