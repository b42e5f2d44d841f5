import type { AreaModule } from '../core/area.js';
import { httpMetricsPlugin } from '../metrics/http-metrics-plugin.js';
import { metricsRoutes, rootMetricsRoutes } from './metrics-routes.js';
import { statusRoutes } from './status-routes.js';
import { UpdateService } from './update-service.js';
import { versionRoutes } from './version-routes.js';

export { UpdateService, DEFAULT_UPDATE_TIMEOUT_MS, MAX_UPDATE_BYTES, fileNameFor, type UpdateCheck, type UpdateDownload } from './update-service.js';
export { fetchUpdateFeed, parseUpdateFeed, isNewer, MAX_FEED_BYTES, type UpdateFeed } from './update-feed.js';
export { downloadVerified, type DownloadedFile, type DownloadProgress, type VerifiedDownloadOptions } from './verified-download.js';
export * from './system-contract.js';
export { versionRoutes, type VersionRouteDeps } from './version-routes.js';
export { statusRoutes, type StatusRouteDeps } from './status-routes.js';
export { metricsRoutes, rootMetricsRoutes } from './metrics-routes.js';

/** What the system area offers the rest of the core. */
export interface SystemFacade {
  /** Update feed check and verified download (POST /version/check, /version/download). */
  readonly updates: UpdateService;
}

/** Options of the system area the core passes through from its own. */
export interface SystemAreaOptions {
  /** Time limit of update feed requests and download stalls (tests shorten it); default 10 s. */
  updateTimeoutMs?: number;
}

/**
 * The system area (docs/settings-and-status.md): version and update check
 * and download, overall status, and the metrics (GET /api/v1/metrics, and
 * at the root GET /metrics for scrapers plus the HTTP request counters).
 */
export function systemArea(options: SystemAreaOptions = {}): AreaModule<'system', SystemFacade, Record<string, never>> {
  return {
    name: 'system',
    needs: [],
    create(kernel) {
      const updates = new UpdateService({
        settings: kernel.settings,
        events: kernel.events,
        log: kernel.log,
        dataDir: kernel.config.dataDir,
        currentVersion: kernel.build.version,
        ...(options.updateTimeoutMs !== undefined ? { timeoutMs: options.updateTimeoutMs } : {}),
      });
      return {
        facade: { updates },
        routes: [versionRoutes({ build: kernel.build, updates }), statusRoutes(kernel), metricsRoutes(kernel.metrics)],
        rootRoutes: [httpMetricsPlugin(kernel.metrics), rootMetricsRoutes(kernel.metrics)],
        services: [],
      };
    },
  };
}
