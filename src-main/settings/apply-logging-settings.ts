import type { LogSink } from '../core/logger.js';
import type { EventLog, EventRetention } from '../events/event-log.js';
import type { LoggingSettings } from './settings-contract.js';
import type { SettingsService } from './settings-service.js';

/**
 * Applies the logging section to the log sink and the event log now (the
 * stored values win over --log-level after a restart) and on every change.
 * The audit log keeps its own count limit; only its age limit is a setting.
 */
export function applyLoggingSettings(
  settings: SettingsService,
  deps: { logs: LogSink; events: EventLog; audit?: { getRetention(): EventRetention; setRetention(retention: EventRetention): void } },
): () => void {
  const apply = (logging: LoggingSettings) => {
    deps.logs.setLevel(logging.level);
    deps.events.setRetention({ maxCount: logging.event_retention_count, maxAgeDays: logging.event_retention_days });
    deps.audit?.setRetention({ ...deps.audit.getRetention(), maxAgeDays: logging.audit_retention_days });
  };
  apply(settings.logging());
  return settings.onChange('logging', apply);
}
