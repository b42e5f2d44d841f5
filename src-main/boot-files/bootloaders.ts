import { existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { normalizeBootPath, resolveInsideRoot } from './path-confinement.js';
import { PROJECT_ROOT } from '../core/version.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { inspectBootFile, type BootFileInspection, type BootFileProblem } from './boot-file-check.js';
import type { ArchmapFileRef } from './archmap-refs.js';
import { expectedFor, expectedFromName } from './file-format.js';
import type { BootFileCheck, BootloaderCheckReport, BootloaderFile as BootloaderFileView, CheckArchitectureId, CheckProblem } from './boot-files-contract.js';
import { loadManifest, type BootFileFormat, type BootloaderManifestEntry } from './bootloader-manifest.js';
import { architectureOfCode, architecturesSeen, CHECK_ARCHITECTURES, type CodeSighting, type HostFacts } from './check-architectures.js';
import { allIgnored, anySeen, architectureSummaries, rankFile, rankProblems } from './check-ranking.js';
import { grubChainFiles, grubShadowingConfig, grubUses, type GrubUse } from './grub-usage.js';
import type { BootLoaders } from '../settings/settings-contract.js';
import { GRUB_CHAINS } from '../dhcp/boot-loader-chains.js';

/** The API's shapes (boot-files-contract.ts): a bundled boot loader, one file checked in one root, a whole check. */
export type { BootloaderFile as BootloaderFileView, BootFileCheck, BootloaderCheckReport } from './boot-files-contract.js';
import type { ProfileFileCheck } from './boot-files-contract.js';

/**
 * What the check reads to know what machines will fetch and which
 * architectures boot here: the loader settings (netboot.boot_loaders) and the
 * option 93 codes DHCP saw (leases, DHCP events). Hosts come separately
 * (setHostSource): their area is created after this one.
 */
export interface LoaderUsageSource {
  loaders(): BootLoaders;
  sightings(): { leases: Iterable<CodeSighting>; events: Iterable<CodeSighting> };
}

export const RESTORE_HINT = 'restart the TFTP service (POST /api/v1/services/tftp/restart) or Bootwright: missing bundled boot loaders are copied back at start';

/** Where the bundled boot loaders are: next to a packaged app's resources, else the repository's resources/bootloaders. */
export function defaultBootloaderDir(): string {
  const resourcesPath = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) {
    const packaged = path.join(resourcesPath, 'bootloaders');
    if (existsSync(packaged)) return packaged;
  }
  return path.join(PROJECT_ROOT, 'resources', 'bootloaders');
}

/**
 * The bundled iPXE builds (and the optional Secure Boot chain): their
 * manifest, their installation into the boot roots, and the checks of what
 * clients will fetch.
 */
export class Bootloaders {
  readonly sourceDir: string;
  private readonly entries: BootloaderManifestEntry[];
  private readonly manifestProblem: string | null;
  private readonly roots: (() => string[])[];
  private archmap: (() => ArchmapFileRef[]) | null = null;
  private profileFiles: (() => Promise<ProfileFileCheck[]>) | null = null;
  private usage: LoaderUsageSource | null = null;
  private ignoredSource: () => readonly CheckArchitectureId[] = () => [];
  private hostFacts: (() => readonly HostFacts[]) | null = null;
  private readonly log: Logger;

  private constructor(deps: { sourceDir: string; entries: BootloaderManifestEntry[]; manifestProblem: string | null; roots: () => string[]; log: Logger }) {
    this.sourceDir = deps.sourceDir;
    this.entries = deps.entries;
    this.manifestProblem = deps.manifestProblem;
    this.roots = [deps.roots];
    this.log = deps.log;
  }

  /**
   * Reads the manifest in `sourceDir`. A missing or broken manifest is logged
   * and reported by the checks; the server still runs (the technician may
   * bring their own boot loaders).
   */
  static async open(deps: { sourceDir: string; roots: () => string[]; log: Logger }): Promise<Bootloaders> {
    const log = deps.log.scope('bootloaders');
    try {
      const manifest = await loadManifest(deps.sourceDir);
      return new Bootloaders({ ...deps, log, entries: manifest.files, manifestProblem: null });
    } catch (err) {
      const problem = `bundled boot loaders unavailable: ${errorMessage(err)}`;
      log.error(problem);
      return new Bootloaders({ ...deps, log, entries: [], manifestProblem: problem });
    }
  }

  /** Lets the profiles area list the files its profiles name (reported by check() under `profiles`). */
  setProfileFileSource(source: () => Promise<ProfileFileCheck[]>): void {
    this.profileFiles = source;
  }

  /** Lets the DHCP archmap say which files clients are sent to (checked by check()). */
  setArchmapSource(source: () => ArchmapFileRef[]): void {
    this.archmap = source;
  }

  /** Lets the check read the loader settings and the architectures DHCP saw (boot-files index.ts). */
  setLoaderUsage(source: LoaderUsageSource): void {
    this.usage = source;
  }

  /** Where the architectures an operator chose to ignore in the check come from (a stored list). */
  setIgnoredArchitectures(source: () => readonly CheckArchitectureId[]): void {
    this.ignoredSource = source;
  }

  /** Lets the check read the hosts: their architecture as booted, group and boot_loader (the boot scripts area attaches it). */
  setHostSource(source: () => readonly HostFacts[]): void {
    this.hostFacts = source;
  }

  /** Adds roots clients fetch from besides the boot root (the TFTP area adds its own root when it differs). */
  addRoots(source: () => string[]): void {
    this.roots.push(source);
  }

  manifest(): readonly BootloaderManifestEntry[] {
    return this.entries;
  }

  /** The distinct roots clients fetch from (the boot root, and the TFTP root when it differs). */
  servedRoots(): string[] {
    return [...new Set(this.roots.flatMap((source) => source()).map((root) => path.resolve(root)))];
  }

  async files(): Promise<BootloaderFileView[]> {
    const roots = this.servedRoots();
    return Promise.all(
      this.entries.map(async (entry) => ({
        name: entry.name,
        architecture: entry.architecture,
        format: entry.format,
        optional: entry.optional,
        description: entry.description,
        size: entry.size,
        sha256: entry.sha256,
        source: entry.source,
        present: (await Promise.all(roots.map((root) => isPresent(root, entry.name)))).every(Boolean),
      })),
    );
  }

  /**
   * Copies every bundled file missing from each root (to a temporary name,
   * then renamed, so a client never fetches half a file). Files that exist
   * are left alone, even when they differ: the checks report that.
   */
  async installMissing(roots: string[] = this.servedRoots()): Promise<string[]> {
    const installed: string[] = [];
    for (const root of roots) {
      await mkdir(root, { recursive: true });
      for (const entry of this.entries) {
        const target = path.join(root, entry.name);
        if (await isPresent(root, entry.name)) continue;
        const temporary = path.join(root, `.${entry.name}.${process.pid}.tmp`);
        try {
          await copyFile(path.join(this.sourceDir, entry.name), temporary);
          await rename(temporary, target);
          installed.push(target);
        } catch (err) {
          await rm(temporary, { force: true });
          this.log.warn(`could not install ${entry.name} into ${root}: ${errorMessage(err)}`);
        }
      }
    }
    if (installed.length > 0) this.log.info(`installed ${installed.length} bundled boot loader file(s)`, { files: installed });
    return installed;
  }

  /**
   * Checks every file machines will fetch first, in every served root: the
   * archmap's files (iPXE; until an archmap is attached: the required bundled
   * files) and, for each UEFI architecture whose machines get GRUB, the
   * chain's shim and GRUB. Problems are ranked by the architectures machines
   * were seen with (check-ranking.ts).
   */
  async check(now: Date = new Date()): Promise<BootloaderCheckReport> {
    const wanted = new Map<string, Wanted>();
    const archmap = this.archmap?.() ?? null;
    if (archmap) {
      for (const ref of archmap) {
        const architectures = ref.codes.map(architectureOfCode);
        const item = wanted.get(ref.file);
        if (item) {
          item.architecture ??= ref.architecture;
          for (const architecture of architectures) item.architectures.add(architecture);
        } else {
          wanted.set(ref.file, { architecture: ref.architecture, expectation: { format: ref.format, machine: ref.machine }, referenced: ['archmap'], architectures: new Set(architectures), grub: null });
        }
      }
    } else {
      for (const entry of this.entries) {
        if (!entry.optional) wanted.set(entry.name, { architecture: entry.architecture, expectation: null, referenced: ['manifest'], architectures: new Set(), grub: null });
      }
    }
    const hosts = this.hostFacts?.() ?? [];
    const loaders = this.usage?.loaders() ?? null;
    const grub = loaders ? grubUses(loaders, hosts) : [];
    for (const use of grub) {
      for (const file of grubChainFiles(use.architecture)) {
        const item = wanted.get(file.name);
        if (item) {
          // An archmap entry may name the shim too: one check, both reasons.
          if (!item.referenced.includes('grub_chain')) item.referenced.push('grub_chain');
          item.architectures.add(use.architecture);
          item.grub ??= use;
        } else {
          const name = CHECK_ARCHITECTURES.find((info) => info.id === use.architecture)?.name ?? use.architecture;
          wanted.set(file.name, { architecture: `${name} (GRUB chain)`, expectation: { format: 'pe', machine: file.machine }, referenced: ['grub_chain'], architectures: new Set([use.architecture]), grub: use });
        }
      }
    }
    const sightings = this.usage?.sightings() ?? { leases: [], events: [] };
    const ignored = new Set(this.ignoredSource());
    const seen = architecturesSeen({ ...sightings, hosts });

    const files: BootFileCheck[] = [];
    for (const root of this.servedRoots()) {
      for (const [name, item] of wanted) {
        const file = await this.checkIn(root, name, item);
        if (item.grub) requireChainFile(file, item.grub);
        file.architectures = [...item.architectures];
        file.seen = anySeen(file.architectures, seen);
        file.ignored = allIgnored(file.architectures, ignored);
        files.push(rankFile(file));
      }
    }
    const problems: CheckProblem[] = files.flatMap((file) => file.problems.map((problem) => ({ ...problem, name: file.name, root: file.root, architectures: file.architectures, seen: file.seen, ignored: file.ignored })));
    for (const use of grub) {
      const shadow = grubShadowingConfig(use.architecture);
      for (const root of this.servedRoots()) {
        if (!(await isPresent(root, shadow))) continue;
        problems.push({
          code: 'shadowed_config',
          severity: 'error',
          name: shadow,
          root,
          message: `${shadow} exists: the signed GRUB reads it instead of Bootwright's ${GRUB_CHAINS[use.architecture].config} (its built-in configuration prefers it), so machines on GRUB do not get their boot configuration`,
          fix: `delete or rename ${path.join(root, shadow)} (it comes from a copy of a Debian netboot tree)`,
          architectures: [use.architecture],
          seen: anySeen([use.architecture], seen),
          ignored: allIgnored([use.architecture], ignored),
        });
      }
    }
    const bootRoot = path.resolve(this.roots[0]?.()[0] ?? '');
    const tftpRoot = this.servedRoots().find((root) => root !== bootRoot) ?? null;
    if (tftpRoot !== null && grub.length > 0) {
      const architectures = grub.map((use) => use.architecture);
      problems.push({
        code: 'root_mismatch',
        severity: 'warning',
        name: 'TFTP root',
        root: tftpRoot,
        message: `the TFTP root (${tftpRoot}) is not the boot root (${bootRoot}): machines on GRUB load their kernels and initrds over TFTP, by paths relative to the boot root`,
        fix: `set the TFTP root back to the boot root (PUT /api/v1/services/tftp), or keep the kernels and initrds the profiles name at the same paths under ${tftpRoot}`,
        architectures,
        seen: anySeen(architectures, seen),
        ignored: allIgnored(architectures, ignored),
      });
    }
    if (this.manifestProblem) {
      problems.unshift({
        code: 'missing',
        severity: 'error',
        name: 'manifest.json',
        root: this.sourceDir,
        message: this.manifestProblem,
        fix: 'reinstall Bootwright, or in a source checkout run node scripts/fetch-bootloaders.mjs',
        architectures: [],
        seen: true,
        ignored: false,
      });
    }
    const profiles = (await this.profileFiles?.()) ?? [];
    for (const file of profiles) {
      if (file.state !== 'missing' && file.state !== 'refused') continue;
      // A warning: the boot loaders are fine, one profile is not (its machines would fail at that file).
      problems.push({
        code: file.state === 'missing' ? 'missing' : 'outside_root',
        severity: 'warning',
        name: file.path,
        root: this.roots[0]?.()[0] ?? '',
        message: `profile "${file.profile_name}" (${file.field}) names ${file.path}, which ${file.state === 'missing' ? 'is not in the boot root' : 'is outside the boot root'}`,
        fix: `copy the file into the boot root at ${file.path}, or change the profile's ${file.field}`,
        architectures: [],
        seen: true,
        ignored: false,
      });
    }
    const ranked = rankProblems(problems);
    return {
      ok: ranked.every((problem) => problem.severity !== 'error'),
      checked_at: now.toISOString(),
      files,
      profiles,
      problems: ranked,
      architectures: architectureSummaries({ seen, loaders, grub, problems: ranked, ignored }),
      ignored_architectures: [...ignored],
      boot_root: bootRoot,
      tftp_root: tftpRoot,
    };
  }

  /** Checks one named file in every served root. */
  async checkFile(name: string): Promise<BootFileCheck[]> {
    const ref = this.archmap?.().find((candidate) => candidate.file === name);
    const item: Wanted = ref
      ? { architecture: ref.architecture, expectation: { format: ref.format, machine: ref.machine }, referenced: ['archmap', 'request'], architectures: new Set(ref.codes.map(architectureOfCode)), grub: null }
      : { architecture: null, expectation: null, referenced: ['request'], architectures: new Set(), grub: null };
    const results: BootFileCheck[] = [];
    for (const root of this.servedRoots()) results.push(await this.checkIn(root, name, item));
    return results;
  }

  private async checkIn(root: string, name: string, item: Wanted): Promise<BootFileCheck> {
    const entry = this.entries.find((candidate) => candidate.name === name);
    const architecture = item.architecture ?? entry?.architecture ?? null;
    const base = {
      name,
      root,
      architecture,
      bundled: entry !== undefined,
      optional: entry?.optional ?? false,
      referenced_by: item.referenced,
      architectures: [...item.architectures],
      seen: true,
      ignored: false,
    };
    const expectation =
      item.expectation ?? (entry ? expectedFor(entry.architecture) : null) ?? expectedFromName(name) ?? { format: null, machine: null };
    const normalized = normalizeBootPath(name);
    if (!normalized.ok) {
      const problem: BootFileProblem = { code: 'outside_root', severity: 'error', message: `${name} is not a path inside the boot root (${normalized.message})`, fix: 'use a path relative to the boot root, with forward slashes and no ".."' };
      return { ...base, ...emptyInspection(), problems: [problem], ok: false };
    }
    const confined = await resolveInsideRoot(root, normalized.path);
    if (!confined.ok && confined.reason === 'forbidden') {
      const problem: BootFileProblem = { code: 'outside_root', severity: 'error', message: `${name} resolves outside ${root} (a symlink that leaves the root)`, fix: 'replace the symlink with the file itself: clients are refused files outside the root' };
      return { ...base, ...emptyInspection(), present: true, problems: [problem], ok: false };
    }
    const absolute = confined.ok ? confined.absolute : path.join(root, normalized.path);
    const inspection = await inspectBootFile(
      absolute,
      name,
      {
        format: expectation.format,
        machine: expectation.machine,
        sha256: entry?.sha256 ?? null,
        bundledFrom: entry ? `${entry.source.package} ${entry.source.version}` : null,
      },
      RESTORE_HINT,
    );
    // Asked about by name, a missing file is an error whether or not Bootwright ships it.
    if (item.referenced.includes('request')) for (const problem of inspection.problems) problem.severity = 'error';
    return { ...base, ...inspection, ok: inspection.problems.every((problem) => problem.severity !== 'error') };
  }
}

interface Wanted {
  architecture: string | null;
  expectation: { format: BootFileFormat | null; machine: string | null } | null;
  referenced: BootFileCheck['referenced_by'];
  /** The client architectures fetching it (ranking). */
  architectures: Set<CheckArchitectureId>;
  /** Set when machines on GRUB fetch it as their chain's shim or GRUB. */
  grub: GrubUse | null;
}

/**
 * A chain file machines on GRUB fetch is required, bundled or not: without
 * it they cannot boot (the archmap's unbundled files are only warnings).
 */
function requireChainFile(file: BootFileCheck, use: GrubUse): void {
  const why = use.reasons.join('; ');
  for (const problem of file.problems) {
    if (problem.code === 'missing') {
      problem.message = `${file.name} does not exist: machines on GRUB (${why}) cannot boot`;
      if (!file.bundled) {
        problem.fix = `run node scripts/fetch-bootloaders.mjs (it bundles the signed chain) and restart Bootwright, put the signed file there yourself, or set settings netboot.boot_loaders.${use.architecture} to ipxe`;
      }
    }
    problem.severity = 'error';
  }
}

function emptyInspection(): BootFileInspection {
  return { present: false, readable: false, size: null, format: null, sha256: null, checksum: 'unknown', problems: [] };
}

async function isPresent(root: string, name: string): Promise<boolean> {
  try {
    await lstat(path.join(root, name));
    return true;
  } catch {
    return false;
  }
}
