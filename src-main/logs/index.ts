import type { AreaModule } from '../core/area.js';
import type { LogSink } from '../core/logger.js';
import { logRoutes } from './logs-routes.js';

export { cleanupLogs, listLogFiles, logDiskUsage, type CleanupCriteria, type CleanupResult, type LogDiskUsage, type LogFileInfo } from './log-files.js';
export { logMessage, matchesLog, openLogStream, parseLogFilter, type LogFilter, type LogStreamParams } from './log-stream.js';
export { LogFileSchema, DiskUsageSchema, CleanupResultSchema, type LogCleanupRequest } from './logs-contract.js';
export { logRoutes, type LogRouteDeps } from './logs-routes.js';

/**
 * The logs area (docs/architecture.md, "Area folders"): the facade is the
 * kernel's log sink; the routes are /logs/files, /logs/disk-usage,
 * /logs/cleanup and the SSE /logs/stream.
 */
export function logsArea(): AreaModule<'logs', LogSink, Record<string, never>> {
  return {
    name: 'logs',
    needs: [],
    create(kernel) {
      return { facade: kernel.logs, routes: [logRoutes(kernel)], services: [] };
    },
  };
}
