import { opendir, realpath, stat } from 'node:fs/promises';
import { pathProblem } from '../files/file-paths.js';
import { errnoOf } from '../files/file-walk.js';
import type { ServedRoots } from '../settings/served-roots.js';
import { isWithin } from '../settings/served-root-policy.js';
import type { NfsPathCheck } from './nfs-contract.js';
import type { StoredNfsExport } from './nfs-settings.js';

/*
 * POST /services/nfs/validate-path: whether a folder can be exported, in
 * words an admin can act on. Problems stop the export (PUT would answer 400
 * for the same folder: the served-root policy decides); warnings do not.
 * Judged on the real path, so a symlink leading out of the allowed roots is
 * named with where it really leads.
 */

export interface PathCheckDeps {
  roots: Pick<ServedRoots, 'check'>;
  /** The stored exports (for "already exported as …"). */
  exports: () => readonly StoredNfsExport[];
}

export async function checkExportFolder(raw: string, deps: PathCheckDeps): Promise<NfsPathCheck> {
  const refused = (problem: string, real: string | null = null): NfsPathCheck => ({ path: raw, real_path: real, valid: false, problems: [problem], warnings: [] });
  // '..', NUL, control characters and relative paths are refused before the file system is asked anything.
  const syntax = pathProblem(raw, true);
  if (syntax) return refused(`${JSON.stringify(raw.slice(0, 200))} ${syntax}`);
  let real: string;
  try {
    real = await realpath(raw);
  } catch (error) {
    const code = errnoOf(error);
    return refused(code === 'ENOENT' || code === 'ENOTDIR' ? `${raw} does not exist` : `${raw} cannot be read (${code ?? String(error)})`);
  }
  const info = await stat(real).catch(() => null);
  if (!info?.isDirectory()) return refused(`${raw} is not a directory`, real);
  const problems: string[] = [];
  const warnings: string[] = [];
  // Readable means listable: opendir plus one read, as a client's first READDIR would do.
  try {
    const dir = await opendir(real);
    try {
      if ((await dir.read()) === null) warnings.push(`${real} is empty: clients would mount an empty folder`);
    } finally {
      await dir.close().catch(() => undefined);
    }
  } catch (error) {
    problems.push(`${real} cannot be listed (${errnoOf(error) ?? String(error)}): the server must be able to read it`);
  }
  const verdict = await deps.roots.check(raw);
  if (!verdict.ok) problems.push(verdict.problem);
  for (const entry of deps.exports()) {
    if (entry.folder === null) continue;
    if (entry.folder === real) warnings.push(`already exported as ${entry.path}`);
    else if (isWithin(entry.folder, real)) warnings.push(`inside ${entry.folder}, already exported as ${entry.path}`);
    else if (isWithin(real, entry.folder)) warnings.push(`contains ${entry.folder}, already exported as ${entry.path}`);
  }
  return { path: raw, real_path: real, valid: problems.length === 0, problems, warnings };
}
