import type { CleanupResult, LogCleanupRequest, LogDiskUsage, LogFileInfo } from '@contracts/logs';
import type { ApiClient } from '../api-client.js';

/** The logs area's API (src-main/logs/logs-routes.ts); the live stream goes through the transport's stream. */
export function logsClient(client: ApiClient) {
  return {
    files: (): Promise<LogFileInfo[]> => client.get('/logs/files'),
    diskUsage: (): Promise<LogDiskUsage> => client.get('/logs/disk-usage'),
    cleanup: (body: LogCleanupRequest): Promise<CleanupResult> => client.post('/logs/cleanup', body),
  };
}
