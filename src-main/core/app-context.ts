import type { AuthService } from '../auth/auth-service.js';
import type { AppConfig } from './config.js';
import type { LogSink, Logger } from './logger.js';
import type { BuildInfo } from './version.js';
import type { EventLog } from '../events/event-log.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { SseSettings } from '../api/sse.js';
import type { ServiceManager } from '../services/service-manager.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NetworkService } from '../network/network-service.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { UpdateService } from '../update/update-service.js';
import type { Store } from '../store/store.js';

/**
 * The shared operations every area builds on. Route plugins and IPC handlers
 * receive this and call the same domain modules: one implementation, two transports.
 */
export interface AppContext {
  config: AppConfig;
  build: BuildInfo & { electron: string | null };
  store: Store;
  logs: LogSink;
  log: Logger;
  events: EventLog;
  /** The audit trail of mutating API requests (docs/events-and-logs.md). */
  audit: AuditLog;
  /** Heartbeat and retry timing of the SSE streams. */
  sse: SseSettings;
  services: ServiceManager;
  /** The settings sections with change subscriptions (docs/settings-and-status.md). */
  settings: SettingsService;
  /** Network interfaces, the served ones and our address per subnet. */
  network: NetworkService;
  /** This core's Prometheus registry; servers add their counters here. */
  metrics: Metrics;
  /** Update feed check and verified download. */
  updates: UpdateService;
  /** Users, sessions, API tokens and login throttling (docs/auth.md). */
  auth: AuthService;
  startedAt: Date;
}
