import type { StatusData, UpdateCheck, UpdateDownload, VersionInfoData } from '@contracts/system';
import type { ApiClient } from '../api-client.js';

/** The system area's API (src-main/system/*-routes.ts): status, version and updates. */
export function systemClient(client: ApiClient) {
  return {
    status: (): Promise<StatusData> => client.get('/status'),
    version: (): Promise<VersionInfoData> => client.get('/version'),
    checkUpdate: (): Promise<UpdateCheck> => client.post('/version/check'),
    downloadUpdate: (): Promise<UpdateDownload> => client.post('/version/download'),
  };
}
