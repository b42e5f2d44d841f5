import path from 'node:path';
import { randomUUID } from 'node:crypto';
import electronLog from 'electron-log/node.js';
import { archiveLogFile, CURRENT_LOG_NAME } from './log-rotation.js';

import { LOG_LEVELS, type LogLevel } from './http-kit/common-contract.js';

export { LOG_LEVELS, type LogLevel };

export type LogContext = Record<string, unknown>;

/** One structured log line as the stream and the tests see it. */
export interface LogRecord {
  time: string;
  level: LogLevel;
  scope: string;
  message: string;
  context?: LogContext;
}

export interface Logger {
  error(message: string, context?: LogContext): void;
  warn(message: string, context?: LogContext): void;
  info(message: string, context?: LogContext): void;
  debug(message: string, context?: LogContext): void;
  /** A logger whose lines carry `scope` (a service or area name). */
  scope(scope: string): Logger;
}

export interface LogSinkOptions {
  /** Directory of the rotating log files; null writes no files (tests). */
  logDir: string | null;
  level: LogLevel;
  console: boolean;
  /** Rotate the current file past this size. */
  maxFileBytes?: number;
}

/** Keys whose values never reach a log line (secrets are never logged). */
const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|key$/i;

export function redact(context: LogContext): LogContext {
  const out: LogContext = {};
  for (const [key, value] of Object.entries(context)) {
    if (SECRET_KEY.test(key)) out[key] = '[redacted]';
    else if (value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Error)) {
      out[key] = redact(value as LogContext);
    } else if (value instanceof Error) out[key] = { message: value.message, stack: value.stack };
    else out[key] = value;
  }
  return out;
}

type ElectronLogger = typeof electronLog;

/**
 * The log sink: electron-log (its Node entry, so it works headless) writing to
 * rotating files in `<data-dir>/logs` and to stdout, plus in-process listeners
 * for the live log stream.
 */
export class LogSink {
  readonly logDir: string | null;
  private readonly backend: ElectronLogger;
  private readonly listeners = new Set<(record: LogRecord) => void>();
  private level: LogLevel;

  constructor(options: LogSinkOptions) {
    this.logDir = options.logDir;
    this.level = options.level;
    // A logger of our own (not the package's global one), so several cores can live in one process.
    this.backend = electronLog.create({ logId: `bootwright-${randomUUID()}` }) as ElectronLogger;
    const file = this.backend.transports.file;
    // electron-log looks for the app name in the nearest package.json of the working directory and writes no file
    // when it finds none (a systemd unit's WorkingDirectory=/var/lib/bootwright): say it, the path is ours anyway.
    file.setAppName('bootwright');
    if (options.logDir) {
      const logDir = options.logDir;
      file.resolvePathFn = () => path.join(logDir, CURRENT_LOG_NAME);
      const maxSize = options.maxFileBytes ?? 10 * 1024 * 1024;
      file.maxSize = maxSize;
      // electron-log's own rotation keeps one `.old` file and overwrites it; keep
      // every archive under a timestamped name instead (POST /logs/cleanup prunes them).
      file.archiveLogFn = (oldFile) => {
        try {
          archiveLogFile(oldFile.path);
        } catch {
          // Could not move it (a reader holds it open on Windows): rotation is
          // retried on the next line; past 4x the limit, start over rather than fill the disk.
          if (oldFile.size > maxSize * 4) oldFile.clear();
        }
      };
      file.level = options.level;
      file.format = '[{iso}] [{level}] {text}';
    } else {
      file.level = false;
    }
    this.backend.transports.console.level = options.console ? options.level : false;
    this.backend.transports.console.format = '[{iso}] [{level}] {text}';
    const extra = this.backend.transports as unknown as Record<string, { level: false } | undefined>;
    if (extra.ipc) extra.ipc.level = false;
    if (extra.remote) extra.remote.level = false;
  }

  setLevel(level: LogLevel): void {
    this.level = level;
    const file = this.backend.transports.file;
    if (this.logDir) file.level = level;
    if (this.backend.transports.console.level !== false) this.backend.transports.console.level = level;
  }

  getLevel(): LogLevel {
    return this.level;
  }

  /** Live subscription to log records (for /logs/stream); returns the unsubscribe function. */
  subscribe(listener: (record: LogRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether a line of `level` is written at the current level. */
  enabled(level: LogLevel): boolean {
    return LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(this.level);
  }

  write(record: LogRecord): void {
    if (!this.enabled(record.level)) return;
    const suffix = record.context && Object.keys(record.context).length > 0 ? ` ${safeJson(record.context)}` : '';
    this.backend[record.level](`[${record.scope}] ${record.message}${suffix}`);
    for (const listener of this.listeners) {
      try {
        listener(record);
      } catch {
        // A failing stream subscriber must not break logging or the other subscribers.
      }
    }
  }

  logger(scope = 'core'): Logger {
    const make = (level: LogLevel) => (message: string, context?: LogContext) => {
      // Checked before the record is built: a debug line on a hot path (every RPC call) costs nothing at level info.
      if (!this.enabled(level)) return;
      const record: LogRecord = { time: new Date().toISOString(), level, scope, message };
      if (context) record.context = redact(context);
      this.write(record);
    };
    return {
      error: make('error'),
      warn: make('warn'),
      info: make('info'),
      debug: make('debug'),
      scope: (child: string) => this.logger(child),
    };
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '[unserialisable]';
  }
}
