import { lstat, opendir, statfs } from 'node:fs/promises';
import path from 'node:path';

export interface DirectoryUsage {
  /** Sum of the sizes of the files walked. */
  bytes: number;
  /** True when the walk stopped at the entry limit, so `bytes` is a lower bound. */
  truncated: boolean;
}

export interface FileSystemSpace {
  /** Bytes available to this (unprivileged) process. */
  free: number;
  total: number;
}

/** Enough for any data directory of boot files and images; bounds the cost of one walk. */
export const MAX_WALK_ENTRIES = 100_000;

/**
 * Adds up file sizes under `dir`. Symbolic links are not followed (a link to
 * / would otherwise walk the machine); unreadable entries are skipped.
 */
export async function directoryUsage(dir: string, maxEntries = MAX_WALK_ENTRIES): Promise<DirectoryUsage> {
  let bytes = 0;
  let seen = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let handle;
    try {
      handle = await opendir(current);
    } catch {
      continue;
    }
    for await (const entry of handle) {
      if (++seen > maxEntries) {
        // Leaving the loop early closes the directory handle.
        return { bytes, truncated: true };
      }
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) bytes += await lstat(full).then((stat) => stat.size, () => 0);
    }
  }
  return { bytes, truncated: false };
}

/** Free and total bytes of the file system holding `dir`; null where statfs is unsupported. */
export async function fileSystemSpace(dir: string): Promise<FileSystemSpace | null> {
  try {
    const stats = await statfs(dir);
    return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
  } catch {
    return null;
  }
}
