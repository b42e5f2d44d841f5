import { LOG_LEVELS, type LogRecord, type LogSink } from '../core/logger.js';
import { parseMinLevel, parseWordList, type ParamValue } from '../events/filter-params.js';
import type { StreamClose, StreamMessage, StreamSend } from '../events/stream-message.js';

/** The filter parameters of GET /logs/stream and the IPC `logs` stream. */
export interface LogStreamParams {
  /** Minimum severity: error, warn (warn and error), info, debug (all). */
  level?: ParamValue;
  /** Logger scope (service or area name); comma-separated list. */
  service?: ParamValue;
}

export interface LogFilter {
  /** Index in LOG_LEVELS of the least severe level kept (LOG_LEVELS runs from most severe). */
  maxLevelIndex: number | null;
  services: ReadonlySet<string> | null;
}

export function parseLogFilter(params: LogStreamParams, fieldPrefix = 'querystring'): LogFilter {
  return {
    maxLevelIndex: parseMinLevel(`${fieldPrefix}.level`, params.level, LOG_LEVELS),
    services: parseWordList(`${fieldPrefix}.service`, params.service),
  };
}

export function matchesLog(filter: LogFilter, record: LogRecord): boolean {
  if (filter.maxLevelIndex !== null && LOG_LEVELS.indexOf(record.level) > filter.maxLevelIndex) return false;
  if (filter.services !== null && !filter.services.has(record.scope)) return false;
  return true;
}

// One message per record, shared by every subscriber.
const messages = new WeakMap<LogRecord, StreamMessage>();

/** The stream message of a log record: event `log`, no id (log lines are not replayed). */
export function logMessage(record: LogRecord): StreamMessage {
  let message = messages.get(record);
  if (!message) {
    message = Object.freeze({ event: 'log', data: record });
    messages.set(record, message);
  }
  return message;
}

/** Delivers log records written from now on that pass the filter. */
export function openLogStream(logs: LogSink, filter: LogFilter, send: StreamSend): StreamClose {
  return logs.subscribe((record) => {
    if (matchesLog(filter, record)) send(logMessage(record));
  });
}
