import os from 'node:os';
import path from 'node:path';

/**
 * The rules every directory Bootwright serves to the LAN must obey (the TFTP
 * root today; HTTP boot, NFS exports, file roots and the ISO drop folder
 * call the same rules). These rules are fixed: no setting, not even an
 * admin's, relaxes them. They work on real paths (symlinks already resolved)
 * so that `boot/link -> /` is judged as `/`.
 */

/** The path functions of one platform, so Windows rules are testable on Linux. */
export interface PathFlavor {
  path: typeof path.posix;
  /** Windows compares paths case-insensitively. */
  caseInsensitive: boolean;
}

export const POSIX_FLAVOR: PathFlavor = { path: path.posix, caseInsensitive: false };
export const WIN32_FLAVOR: PathFlavor = { path: path.win32, caseInsensitive: true };
export const HOST_FLAVOR: PathFlavor = process.platform === 'win32' ? WIN32_FLAVOR : POSIX_FLAVOR;

/** Folders of the operating system and its users; `/lib*` is matched by prefix below. */
const POSIX_SYSTEM_DIRS = ['/etc', '/root', '/proc', '/sys', '/dev', '/boot', '/bin', '/sbin', '/usr', '/var', '/run', '/home'];
/** macOS keeps its system and home folders elsewhere. */
const DARWIN_SYSTEM_DIRS = ['/System', '/Library', '/Users', '/private/etc', '/private/var'];

/**
 * The system folders of this machine: the fixed list, the running user's home
 * folder (a service account's home may live anywhere), and on Windows the
 * Windows, Program Files, ProgramData and Users folders from the environment.
 */
export function systemDirs(
  flavor: PathFlavor = HOST_FLAVOR,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string[] {
  const dirs: string[] = [];
  if (flavor === WIN32_FLAVOR) {
    const drive = env.SystemDrive ?? 'C:';
    dirs.push(
      env.SystemRoot ?? env.windir ?? `${drive}\\Windows`,
      env.ProgramFiles ?? `${drive}\\Program Files`,
      env['ProgramFiles(x86)'] ?? `${drive}\\Program Files (x86)`,
      env.ProgramW6432 ?? `${drive}\\Program Files`,
      env.ProgramData ?? `${drive}\\ProgramData`,
      `${drive}\\Users`,
    );
  } else {
    dirs.push(...POSIX_SYSTEM_DIRS);
    if (platform === 'darwin') dirs.push(...DARWIN_SYSTEM_DIRS);
  }
  // A home of `/` (some daemon accounts) would make every path "inside a home folder"; the root is refused anyway.
  if (home && flavor.path.isAbsolute(home) && !isFilesystemRoot(home, flavor)) dirs.push(home);
  return [...new Set(dirs.map((dir) => flavor.path.resolve(dir)))];
}

export function isFilesystemRoot(candidate: string, flavor: PathFlavor = HOST_FLAVOR): boolean {
  const resolved = flavor.path.resolve(candidate);
  return flavor.path.parse(resolved).root === resolved || flavor.path.dirname(resolved) === resolved;
}

/** Whether `candidate` is `parent` itself or below it (both absolute, already real). */
export function isWithin(parent: string, candidate: string, flavor: PathFlavor = HOST_FLAVOR): boolean {
  const [a, b] = flavor.caseInsensitive ? [parent.toLowerCase(), candidate.toLowerCase()] : [parent, candidate];
  const relative = flavor.path.relative(a, b);
  // `..foo` is a legal name inside; only `..` itself or `../…` climbs (and another drive is absolute).
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${flavor.path.sep}`) && !flavor.path.isAbsolute(relative));
}

/** A top-level `/lib`, `/lib32`, `/lib64`, `/libx32`, `/libexec` (POSIX only; `/library` is not one). */
function libDirOf(candidate: string, flavor: PathFlavor): string | null {
  if (flavor !== POSIX_FLAVOR) return null;
  const first = candidate.split('/')[1] ?? '';
  return /^lib(\d*|x32|exec)$/.test(first) ? `/${first}` : null;
}

export interface ForbiddenRulesInput {
  /** The real path of the data directory (secrets.key, config.json, auth.json live there). */
  dataDir: string;
  /**
   * Real paths of Bootwright's own served folders inside the data directory
   * (`<data-dir>/boot`, `<data-dir>/images`): a root inside one of them is
   * allowed even when the data directory sits in /var or a home folder.
   */
  ownRoots: readonly string[];
  systemDirs: readonly string[];
  flavor?: PathFlavor;
}

/**
 * Why `real` (an absolute real path) may never be served or allowed, or null.
 * Refused: the filesystem root; the data directory, an ancestor of it, or a
 * folder inside it other than its own served folders; a system folder, a
 * folder inside one or a folder containing one.
 */
export function forbiddenReason(real: string, input: ForbiddenRulesInput): string | null {
  const flavor = input.flavor ?? HOST_FLAVOR;
  const within = (parent: string, child: string) => isWithin(parent, child, flavor);
  if (isFilesystemRoot(real, flavor)) return `${real} is the filesystem root`;
  if (within(real, input.dataDir)) {
    return `${real} ${samePath(real, input.dataDir, flavor) ? 'is' : 'contains'} Bootwright's data directory ${input.dataDir} (secrets.key, config.json)`;
  }
  // Only own roots that really lie in the data directory exempt anything: `boot -> /etc` exempts nothing.
  const ownRoots = input.ownRoots.filter((own) => within(input.dataDir, own) && !samePath(own, input.dataDir, flavor));
  if (ownRoots.some((own) => within(own, real))) return null;
  if (within(input.dataDir, real)) {
    return `${real} lies inside Bootwright's data directory ${input.dataDir}; only its served folders (${input.ownRoots.join(', ')}) may be served`;
  }
  const lib = libDirOf(real, flavor);
  if (lib) return `${real} lies inside the system folder ${lib}`;
  for (const dir of input.systemDirs) {
    if (within(dir, real)) return `${real} ${samePath(dir, real, flavor) ? 'is' : 'lies inside'} the system folder ${dir}`;
    if (within(real, dir)) return `${real} contains the system folder ${dir}`;
  }
  return null;
}

function samePath(a: string, b: string, flavor: PathFlavor): boolean {
  return flavor.path.relative(flavor.caseInsensitive ? a.toLowerCase() : a, flavor.caseInsensitive ? b.toLowerCase() : b) === '';
}

/** The lexical part of a path's check, before the filesystem is asked: why `raw` is not an acceptable path, or null. */
export function pathSyntaxProblem(raw: string, flavor: PathFlavor = HOST_FLAVOR): string | null {
  if (raw.includes('\0')) return 'must not contain NUL';
  if (raw.length === 0 || !flavor.path.isAbsolute(raw)) return 'must be an absolute directory path';
  // `C:foo` and `\foo` are "absolute" to Node on Windows yet depend on the current drive or folder.
  if (flavor === WIN32_FLAVOR && !/^([A-Za-z]:[\\/]|\\\\)/.test(raw)) return 'must be an absolute directory path with a drive letter';
  return null;
}
