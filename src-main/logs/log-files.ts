import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CURRENT_LOG_NAME } from '../core/log-rotation.js';
import type { CleanupResult, LogDiskUsage, LogFileInfo } from './logs-contract.js';

export type { CleanupResult, LogDiskUsage, LogFileInfo };

export interface CleanupCriteria {
  /** Delete archives last written more than this many days ago. */
  olderThanDays?: number;
  /** Then delete the oldest archives until all log files together take at most this many bytes. */
  maxTotalBytes?: number;
}

/** The log files (`*.log`, regular files only), newest first; an absent directory has none. */
export async function listLogFiles(logDir: string): Promise<LogFileInfo[]> {
  let names: string[];
  try {
    names = await fs.readdir(logDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: LogFileInfo[] = [];
  for (const name of names) {
    if (!name.endsWith('.log')) continue;
    // lstat: a symlink planted in the directory is neither listed nor followed.
    const stat = await fs.lstat(path.join(logDir, name)).catch(() => null);
    if (!stat?.isFile()) continue;
    files.push({ name, size: stat.size, modified_at: stat.mtime.toISOString(), current: name === CURRENT_LOG_NAME });
  }
  return files.sort((a, b) => b.modified_at.localeCompare(a.modified_at) || b.name.localeCompare(a.name));
}

export async function logDiskUsage(logDir: string, dataDir: string): Promise<LogDiskUsage> {
  const files = await listLogFiles(logDir);
  const fsStats = await fs.statfs(dataDir);
  return {
    bytes: files.reduce((sum, file) => sum + file.size, 0),
    files: files.length,
    fs_free_bytes: fsStats.bavail * fsStats.bsize,
    fs_total_bytes: fsStats.blocks * fsStats.bsize,
  };
}

/**
 * Deletes archived log files by age and/or total size; the current file
 * counts toward the total but is never deleted.
 */
export async function cleanupLogs(logDir: string, criteria: CleanupCriteria, now: Date = new Date()): Promise<CleanupResult> {
  const files = await listLogFiles(logDir);
  // Oldest first: size-based cleanup removes from the far end of history.
  const archives = files.filter((file) => !file.current).reverse();
  const doomed = new Set<LogFileInfo>();
  if (criteria.olderThanDays !== undefined) {
    const cutoff = new Date(now.getTime() - criteria.olderThanDays * 86_400_000).toISOString();
    for (const file of archives) if (file.modified_at < cutoff) doomed.add(file);
  }
  if (criteria.maxTotalBytes !== undefined) {
    let total = files.reduce((sum, file) => sum + (doomed.has(file) ? 0 : file.size), 0);
    for (const file of archives) {
      if (total <= criteria.maxTotalBytes) break;
      if (doomed.has(file)) continue;
      doomed.add(file);
      total -= file.size;
    }
  }
  const deleted: LogFileInfo[] = [];
  const failed: CleanupResult['failed'] = [];
  for (const file of archives) {
    if (!doomed.has(file)) continue;
    try {
      await fs.unlink(path.join(logDir, file.name));
      deleted.push(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      failed.push({ name: file.name, error: code ?? (err as Error).message });
    }
  }
  const remaining = await listLogFiles(logDir);
  return {
    deleted,
    bytes_freed: deleted.reduce((sum, file) => sum + file.size, 0),
    failed,
    remaining_bytes: remaining.reduce((sum, file) => sum + file.size, 0),
    remaining_files: remaining.length,
  };
}
