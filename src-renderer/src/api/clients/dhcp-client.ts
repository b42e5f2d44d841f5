import type {
  AccessEntryView,
  AccessListName,
  ArchmapEntry,
  ArchmapView,
  DhcpReservation,
  DhcpSettings,
  DhcpSettingsPatch,
  ImportMode,
  ImportReport,
  LeaseBatchResult,
  LeaseStats,
  LeaseView,
  MoveBody,
  MoveResult,
  ReservationImportRow,
  ReservationInput,
  ReservationPatch,
  UnauthorizedDeviceView,
} from '@contracts/dhcp';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/**
 * POST /dhcp/probe's answer (docs/dhcp.md, "Rogue-DHCP guard"; issue 17's
 * agreed shape). Written out here until @contracts/dhcp exports it: then
 * these two become re-exports of the contract's types.
 */
export interface ForeignDhcpServer {
  server_id: string;
  source_ip: string;
  mac: string | null;
  offered_ip: string | null;
  subnet_mask: string | null;
  router: string | null;
  lease_seconds: number | null;
}
export interface ProbeResult {
  interface: string;
  probed_at: string;
  foreign: ForeignDhcpServer[];
}

/** The DHCP area's API (src-main/dhcp/*-routes.ts), typed by its contract. */
export function dhcpClient(client: ApiClient) {
  return {
    settings: {
      get: (): Promise<DhcpSettings> => client.get('/services/dhcp'),
      update: (patch: DhcpSettingsPatch): Promise<DhcpSettings> => client.put('/services/dhcp', patch),
    },
    /** POST /dhcp/probe: a DISCOVER from `interface`, listening for other DHCP servers (operator). */
    probe: (body: { interface: string; timeout_ms?: number }): Promise<ProbeResult> => client.post('/dhcp/probe', body),
    archmap: {
      get: (): Promise<ArchmapView> => client.get('/services/archmap'),
      defaults: (): Promise<ArchmapView> => client.get('/services/archmap/defaults'),
      replace: (entries: ArchmapEntry[]): Promise<ArchmapView> => client.put('/services/archmap', { entries }),
    },
    leases: {
      list: (params: ListParams = {}): Promise<ListResult<LeaseView>> => client.list(withQuery('/leases', params)),
      stats: (): Promise<LeaseStats> => client.get('/leases/stats'),
      remove: (mac: string): Promise<LeaseView> => client.delete(`/leases/${segment(mac)}`),
      removeMany: (macs: string[]): Promise<LeaseBatchResult[]> => client.post('/leases/batch-delete', { macs }),
      prune: (): Promise<{ removed: number }> => client.post('/leases/prune'),
    },
    reservations: {
      list: (params: ListParams = {}): Promise<ListResult<DhcpReservation>> => client.list(withQuery('/dhcp/reservations', params)),
      get: (id: number): Promise<DhcpReservation> => client.get(`/dhcp/reservations/${segment(id)}`),
      create: (input: ReservationInput): Promise<DhcpReservation> => client.post('/dhcp/reservations', input),
      update: (id: number, patch: ReservationPatch): Promise<DhcpReservation> => client.put(`/dhcp/reservations/${segment(id)}`, patch),
      remove: (id: number): Promise<DhcpReservation> => client.delete(`/dhcp/reservations/${segment(id)}`),
      /** POST /dhcp/reservations/import: the CSV text or JSON rows; `dryRun` reports and changes nothing. */
      importMany: (source: { csv: string } | { reservations: ReservationImportRow[] }, options: { mode?: ImportMode; dryRun?: boolean } = {}): Promise<ImportReport> =>
        client.post(withQuery('/dhcp/reservations/import', { mode: options.mode, dry_run: options.dryRun || undefined }), source),
    },
    access: {
      list: (list: AccessListName, params: ListParams = {}): Promise<ListResult<AccessEntryView>> => client.list(withQuery(`/access/${list}`, params)),
      add: (list: AccessListName, input: { mac: string; comment?: string }): Promise<AccessEntryView> => client.post(`/access/${list}`, input),
      remove: (list: AccessListName, id: number): Promise<AccessEntryView> => client.delete(`/access/${list}/${segment(id)}`),
      unauthorized: {
        list: (params: ListParams = {}): Promise<ListResult<UnauthorizedDeviceView>> => client.list(withQuery('/access/unauthorized', params)),
        moveTo: (list: AccessListName, body: MoveBody): Promise<MoveResult[]> => client.post(`/access/unauthorized/add-to-${list}`, body),
        remove: (id: number): Promise<UnauthorizedDeviceView> => client.delete(`/access/unauthorized/${segment(id)}`),
      },
    },
  };
}
