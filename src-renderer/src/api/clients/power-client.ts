import type {
  BatchWakeInput,
  BmcBatchAction,
  BmcBatchResult,
  BmcConfigCreate,
  BmcConfigInput,
  BmcConfigView,
  BmcImportResult,
  BmcProbeInput,
  BmcProbeResult,
  BootDeviceInput,
  PowerOutcome,
  PowerRequest,
  WakeInput,
  WakeResult,
  WolHistoryView,
  WolInterface,
  WolSchedule,
  WolScheduleInput,
  WolScheduleUpdate,
} from '@contracts/power';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/** The single-BMC power actions with a route of their own (POST /bmc/{id}/{action}). */
export type BmcPowerAction = 'power-on' | 'power-off' | 'restart';

/** The power area's API (src-main/power/*-routes.ts), typed by its contract: WOL, schedules, BMC, power by host. */
export function powerClient(client: ApiClient) {
  return {
    wol: {
      interfaces: (): Promise<WolInterface[]> => client.get('/wol/interfaces'),
      history: (params: ListParams = {}): Promise<ListResult<WolHistoryView>> => client.list(withQuery('/wol/history', params)),
      removeHistory: (id: number): Promise<WolHistoryView> => client.delete(`/wol/history/${segment(id)}`),
      clearHistory: (): Promise<{ deleted: number }> => client.delete('/wol/history'),
    },
    schedules: {
      list: (params: ListParams = {}): Promise<ListResult<WolSchedule>> => client.list(withQuery('/wol/schedules', params)),
      create: (input: WolScheduleInput): Promise<WolSchedule> => client.post('/wol/schedule', input),
      /** Omitted fields keep their value; `{ enabled: false }` pauses, `{ enabled: true }` resumes from now. */
      update: (id: number, patch: WolScheduleUpdate): Promise<WolSchedule> => client.put(`/wol/schedule/${segment(id)}`, patch),
      remove: (id: number): Promise<WolSchedule> => client.delete(`/wol/schedule/${segment(id)}`),
    },
    bmc: {
      list: (params: ListParams = {}): Promise<ListResult<BmcConfigView>> => client.list(withQuery('/bmc/configs', params)),
      get: (id: number): Promise<BmcConfigView> => client.get(`/bmc/configs/${segment(id)}`),
      create: (input: BmcConfigCreate): Promise<BmcConfigView> => client.post('/bmc/configs', input),
      update: (id: number, patch: BmcConfigInput): Promise<BmcConfigView> => client.put(`/bmc/configs/${segment(id)}`, patch),
      remove: (id: number): Promise<BmcConfigView> => client.delete(`/bmc/configs/${segment(id)}`),
      importCsv: (csv: string, partial: boolean): Promise<BmcImportResult> => client.post(withQuery('/bmc/configs/import', { partial: partial || undefined }), { csv }),
      probe: (input: BmcProbeInput): Promise<BmcProbeResult> => client.post('/bmc/probe', input),
      status: (id: number): Promise<PowerOutcome> => client.get(`/bmc/${segment(id)}/status`),
      refresh: (id: number): Promise<BmcConfigView> => client.post(`/bmc/${segment(id)}/refresh`),
      power: (id: number, action: BmcPowerAction): Promise<PowerOutcome> => client.post(`/bmc/${segment(id)}/${action}`),
      setBootDevice: (id: number, input: BootDeviceInput): Promise<BmcConfigView> => client.post(`/bmc/${segment(id)}/boot-device`, input),
      batch: (action: BmcBatchAction, ids: number[]): Promise<BmcBatchResult> => client.post(`/bmc/batch/${segment(action)}`, { ids }),
    },
    hosts: {
      wake: (id: number, input: WakeInput = {}): Promise<WakeResult> => client.post(`/hosts/${segment(id)}/wake`, input),
      wakeMany: (input: BatchWakeInput): Promise<WakeResult[]> => client.post('/hosts/batch/wake', input),
      power: (id: number, action: PowerRequest): Promise<PowerOutcome> => client.post(`/hosts/${segment(id)}/power`, { action }),
    },
  };
}
