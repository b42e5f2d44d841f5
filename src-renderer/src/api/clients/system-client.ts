import type { FirstRunAction, FirstRunState, MetricsHistory, StatusData, UpdateCheck, UpdateDownload, VersionInfoData } from '@contracts/system';
import type { ApiClient } from '../api-client.js';
import { withQuery } from '../query-string.js';

/** The system area's API (src-main/system/*-routes.ts): status, version and updates. */
export function systemClient(client: ApiClient) {
  return {
    status: (): Promise<StatusData> => client.get('/status'),
    /** The dashboard's charts: a sample a minute, up to 24 h back. */
    metricsHistory: (minutes = 60): Promise<MetricsHistory> => client.get(withQuery('/metrics/history', { minutes })),
    version: (): Promise<VersionInfoData> => client.get('/version'),
    checkUpdate: (): Promise<UpdateCheck> => client.post('/version/check'),
    downloadUpdate: (): Promise<UpdateDownload> => client.post('/version/download'),
    firstRun: {
      get: (): Promise<FirstRunState> => client.get('/system/first-run'),
      /** Admin: the wizard was completed or skipped. */
      record: (action: FirstRunAction): Promise<FirstRunState> => client.post('/system/first-run', { action }),
    },
  };
}
