import path from 'node:path';
import type { AuthService } from '../auth/index.js';
import type { AreaModule } from '../core/area.js';
import { httpMetricsPlugin } from '../metrics/http-metrics-plugin.js';
import { FirstRun } from './first-run.js';
import { firstRunRoutes } from './first-run-routes.js';
import { metricsRoutes, rootMetricsRoutes } from './metrics-routes.js';
import { MetricsHistory, type MetricsHistoryOptions } from './metrics-history.js';
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
export { FirstRun, type GeneratedPasswordSource } from './first-run.js';
export { firstRunRoutes } from './first-run-routes.js';

/** What the system area offers the rest of the core. */
export interface SystemFacade {
  /** Update feed check and verified download (POST /version/check, /version/download). */
  readonly updates: UpdateService;
  /** The first-run wizard's state (GET/POST /system/first-run). */
  readonly firstRun: FirstRun;
}

/** Options of the system area the core passes through from its own. */
export interface SystemAreaOptions {
  /** Time limit of update feed requests and download stalls (tests shorten it); default 10 s. */
  updateTimeoutMs?: number;
  /** The metrics history's sampling (tests shorten it). */
  metricsHistory?: MetricsHistoryOptions;
}

/**
 * The system area (docs/settings-and-status.md): version and update check
 * and download, overall status, the metrics (GET /api/v1/metrics, and
 * at the root GET /metrics for scrapers plus the HTTP request counters), and
 * the first-run wizard's state (it reads the auth area's users: whether the
 * generated admin password is still in use).
 */
export function systemArea(options: SystemAreaOptions = {}): AreaModule<'system', SystemFacade, { auth: Pick<AuthService, 'users'> }> {
  return {
    name: 'system',
    needs: ['auth'],
    create(kernel, { auth }) {
      const updates = new UpdateService({
        settings: kernel.settings,
        events: kernel.events,
        log: kernel.log,
        dataDir: kernel.config.dataDir,
        currentVersion: kernel.build.version,
        ...(options.updateTimeoutMs !== undefined ? { timeoutMs: options.updateTimeoutMs } : {}),
      });
      const firstRun = new FirstRun({ store: kernel.store, users: auth.users });
      const history = new MetricsHistory(kernel.metrics, kernel.log, { file: path.join(kernel.config.dataDir, 'metrics-history.json'), ...options.metricsHistory });
      return {
        facade: { updates, firstRun },
        routes: [versionRoutes({ build: kernel.build, updates }), statusRoutes(kernel), metricsRoutes(kernel.metrics, history), firstRunRoutes(firstRun)],
        rootRoutes: [httpMetricsPlugin(kernel.metrics), rootMetricsRoutes(kernel.metrics)],
        services: [],
        start: () => history.start(),
        stop: () => history.stop(),
      };
    },
  };
}
