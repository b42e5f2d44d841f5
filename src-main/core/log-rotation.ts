import { existsSync, linkSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/** The file electron-log writes to, in `<data-dir>/logs`. */
export const CURRENT_LOG_NAME = 'bootwright.log';

/** Archives are `bootwright-<UTC time>.log`, with `-N` added when two rotations share a millisecond. */
const ARCHIVE_NAME = /^bootwright-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z(-\d+)?\.log$/;

const MAX_NAME_ATTEMPTS = 1000;

export function isArchiveName(name: string): boolean {
  return ARCHIVE_NAME.test(name);
}

/** The archive name for a rotation at `time` (colons become dashes: Windows forbids them in names). */
export function archiveName(time: Date, attempt = 0): string {
  const stamp = time.toISOString().replace(/:/g, '-');
  return attempt === 0 ? `bootwright-${stamp}.log` : `bootwright-${stamp}-${attempt}.log`;
}

/**
 * Moves the full current log aside under a timestamped name and returns the
 * new path; never overwrites an existing archive. A hard link fails with
 * EEXIST atomically, so there is no check-then-rename race; file systems
 * without hard links (FAT) fall back to check-then-rename.
 */
export function archiveLogFile(currentPath: string, now: Date = new Date()): string {
  const dir = path.dirname(currentPath);
  for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt += 1) {
    const target = path.join(dir, archiveName(now, attempt));
    try {
      linkSync(currentPath, target);
      unlinkSync(currentPath);
      return target;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
      if (existsSync(target)) continue;
      renameSync(currentPath, target);
      return target;
    }
  }
  throw new Error(`no free archive name for ${currentPath} after ${MAX_NAME_ATTEMPTS} attempts`);
}
