export { cleanupLogs, listLogFiles, logDiskUsage, type CleanupCriteria, type CleanupResult, type LogDiskUsage, type LogFileInfo } from './log-files.js';
export { logMessage, matchesLog, openLogStream, parseLogFilter, type LogFilter, type LogStreamParams } from './log-stream.js';
