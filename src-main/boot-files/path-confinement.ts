import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Path confinement shared by TFTP and HTTP boot: a client names a file
 * relative to a root and must never reach outside it.
 */

/** Why a requested path is refused: `forbidden` maps to TFTP "access violation" / HTTP 403, `not-found` to "file not found" / 404. */
export type RefusalReason = 'forbidden' | 'not-found';

export type NormalizedPath = { ok: true; path: string } | { ok: false; reason: RefusalReason; message: string };

/** Longest path a client may ask for; a TFTP request is one datagram anyway. */
export const MAX_BOOT_PATH_LENGTH = 1024;

/**
 * Lexical check of a client's path: refuses NUL, backslashes, absolute
 * paths (leading `/`, drive letters), `..` segments and control characters;
 * drops empty and `.` segments. Returns the path relative to the root with
 * forward slashes, e.g. `ipxe/entry.ipxe`.
 */
export function normalizeBootPath(requested: string): NormalizedPath {
  if (requested.length === 0) return { ok: false, reason: 'not-found', message: 'empty file name' };
  if (requested.length > MAX_BOOT_PATH_LENGTH) return { ok: false, reason: 'forbidden', message: 'file name too long' };
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(requested)) return { ok: false, reason: 'forbidden', message: 'control character in file name' };
  // Backslashes are refused rather than translated: on Windows they are separators, so `..\\x` would climb.
  if (requested.includes('\\')) return { ok: false, reason: 'forbidden', message: 'backslash in file name' };
  if (requested.startsWith('/')) return { ok: false, reason: 'forbidden', message: 'absolute path' };
  if (/^[A-Za-z]:/.test(requested)) return { ok: false, reason: 'forbidden', message: 'drive-letter path' };
  const segments: string[] = [];
  for (const segment of requested.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return { ok: false, reason: 'forbidden', message: '".." in file name' };
    segments.push(segment);
  }
  if (segments.length === 0) return { ok: false, reason: 'not-found', message: 'no file name' };
  return { ok: true, path: segments.join('/') };
}

export type ConfinedPath = { ok: true; absolute: string } | { ok: false; reason: RefusalReason; message: string };

export interface ConfineOptions {
  /**
   * `root` is the real path the served-root policy accepted: refuse every
   * file when it no longer resolves to itself (the folder, or one above it,
   * was swapped for a symlink since the check, e.g. to `/`).
   */
  pinned?: boolean;
}

/**
 * Resolves a normalised relative path inside `root`, following symlinks, and
 * refuses it when the real path leaves the real root (a symlink pointing
 * outside). The caller opens `absolute`, the fully resolved path, so a link
 * swapped in after this check is not followed.
 */
export async function resolveInsideRoot(root: string, relative: string, options: ConfineOptions = {}): Promise<ConfinedPath> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, reason: 'not-found', message: 'boot root does not exist' };
  }
  if (options.pinned && realRoot !== path.resolve(root)) {
    return { ok: false, reason: 'forbidden', message: `the served root ${root} now resolves to ${realRoot}; restart the service to check it again` };
  }
  let real: string;
  try {
    real = await realpath(path.join(realRoot, relative));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return { ok: false, reason: 'forbidden', message: 'permission denied' };
    return { ok: false, reason: 'not-found', message: 'file not found' };
  }
  if (!isInside(realRoot, real)) return { ok: false, reason: 'forbidden', message: 'path leaves the boot root' };
  return { ok: true, absolute: real };
}

/** Whether `candidate` is `root` itself or below it (both already real, absolute paths). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // `..foo` is a legal name inside the root; only `..` itself or `../…` climbs.
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
