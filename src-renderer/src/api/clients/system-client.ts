import type { FirstRunAction, FirstRunState, StatusData, UpdateCheck, UpdateDownload, VersionInfoData } from '@contracts/system';
import type { ApiClient } from '../api-client.js';

/** The system area's API (src-main/system/*-routes.ts): status, version and updates. */
export function systemClient(client: ApiClient) {
  return {
    status: (): Promise<StatusData> => client.get('/status'),
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
