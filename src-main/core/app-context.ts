import type { AppConfig } from './config.js';
import type { LogSink, Logger } from './logger.js';
import type { BuildInfo } from './version.js';
import type { EventLog } from '../events/event-log.js';
import type { ServiceManager } from '../services/service-manager.js';
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
  services: ServiceManager;
  startedAt: Date;
}
