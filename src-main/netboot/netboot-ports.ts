import type { CatalogAnswer, CatalogArch, CatalogEntryView, CatalogVersion, EntryFilesCheck, Firmware, NetbootArch } from './netboot-contract.js';

/*
 * The seams between the parts of the netboot area (docs/netboot.md): the
 * catalog resolves an entry, the boot-file source makes its files reachable
 * by booting machines, the answer templates render answer files, the install
 * tasks tie them to one machine. Each part depends on these interfaces, not
 * on the others' classes.
 */

/** One file of a resolved entry. */
export interface ResolvedFile {
  role: 'kernel' | 'initrd';
  /** As in the catalog: relative to the mirror base (or, with no mirror, to the local directory), placeholders expanded. */
  path: string;
  /** Its last path segment: the name under the local directory and the initrd name iPXE passes to the kernel. */
  name: string;
  /** The served path under the boot root (TFTP and HTTP /boot/): netbootFilePath(...). */
  served_path: string;
  /** The remote URL, or null when the entry has no mirror. */
  url: string | null;
  /** Expected SHA-256 (hex) when the catalog gives it directly; published checksum files are read by the file source. */
  sha256: string | null;
}

/** A catalog entry narrowed to one version and one architecture, its overlay applied. */
export interface ResolvedEntry {
  entry: CatalogEntryView;
  version: CatalogVersion;
  arch: CatalogArch;
  /** The effective mirror base URL (version override, overlay, entry), null when local only. */
  mirror: string | null;
  files: readonly ResolvedFile[];
  /** The kernel command line template (Liquid), not yet rendered. */
  cmdline: string;
  answer: CatalogAnswer | null;
}

/** The catalog as the other parts see it. */
export interface CatalogReader {
  /**
   * The entry for `distro`, at `version` (default: the version marked default,
   * else the first) and `arch` (default x86_64, else the first listed).
   * Throws AppError NOT_FOUND for an unknown distro/version/arch.
   */
  resolve(distro: string, version?: string, arch?: NetbootArch): ResolvedEntry;
  /** Whether the entry supports that firmware (a BIOS machine cannot boot a UEFI-only entry). */
  supports(resolved: ResolvedEntry, firmware: Firmware): boolean;
}

/** Where a resolved entry's files come from: boot root, OS image, download cache, mirror. */
export interface BootFileSource {
  check(resolved: ResolvedEntry): Promise<EntryFilesCheck>;
  /**
   * Makes every file reachable at its served path (downloads what is only
   * remote, unless offline); throws AppError with what to download or import
   * when it cannot. Resolves once done.
   */
  ensure(resolved: ResolvedEntry): Promise<void>;
}

/** The served path of an entry's file: `netboot/<distro>/<version>/<arch>/<name>`, also its place under the boot root. */
export function netbootFilePath(distro: string, version: string, arch: string, name: string): string {
  return `netboot/${distro}/${version}/${arch}/${name}`;
}

/** What an answer template is rendered with (besides its own variables). */
export interface AnswerContext {
  /** The machine: host fields when it is a known host, else just its MAC. */
  host: { id: number | null; mac: string; hostname: string | null; ip: string | null; group: string | null; arch: string | null };
  /** The task being installed (preview without a task: a placeholder with id 0). */
  task: { id: number; distro: string; version: string; arch: string };
  /** URLs the installer uses: its mirror, the progress callback (with token) and this answer file. */
  urls: { mirror: string | null; callback: string; answer: string };
  /** The server the machine reached: address and HTTP base URL. */
  server: { ip: string; http_url: string; boot_url: string; name: string };
  /** Task variables on top of template variables. */
  variables: Readonly<Record<string, string>>;
  /** The post-install runner of the host's baseline (`{% if baseline %}` in a template), null when none applies. */
  baseline: BaselineRunnerUrls | null;
}

/** The runner URLs an answer file hands the installed system (docs/baselines.md, "Runtime"). */
export interface BaselineRunnerUrls {
  /** Fetched and piped to sh: `wget -qO- <run_sh> | sh`. */
  run_sh: string;
  /** Fetched and run by PowerShell: `iex (irm <run_ps1>)`. */
  run_ps1: string;
}

/** What the baselines area is asked for when an install task's answer is rendered. */
export interface BaselineRunnerRequest {
  host_id: number;
  task_id: number;
  /** The task's token: the runner token is derived from it, so every render names the same URL. */
  task_token: string;
  /** The HTTP base the machine reached. */
  base_url: string;
  /** A preview for an operator: placeholder URLs, nothing minted. */
  preview: boolean;
}

/** Registered by the baselines area (a later area): the runner URLs of a host's baseline, or null when none applies. */
export type BaselineRunnerSource = (request: BaselineRunnerRequest) => Promise<BaselineRunnerUrls | null>;

export interface RenderedAnswer {
  content: string;
  content_type: string;
  /** The template version rendered (null for a preset rendered directly). */
  template_version: number | null;
}

/** The answer templates as the install tasks use them. */
export interface AnswerRenderer {
  /**
   * Renders template `templateId` (null: the built-in preset of `kind`) in the
   * templates sandbox. Secret variables are decrypted here and only here.
   */
  render(templateId: number | null, kind: CatalogAnswer['kind'], context: AnswerContext): Promise<RenderedAnswer>;
  /** Throws AppError NOT_FOUND when the template does not exist. */
  require(templateId: number): { id: number; kind: CatalogAnswer['kind']; version: number };
}

/** What an install task asks a local boot source for: the task's catalog entry, as the catalog names it. */
export interface LocalBootQuery {
  distro: string;
  version: string;
  arch: string;
  /** The entry's family (debian, ubuntu, redhat, suse, alpine, arch, windows, utility). */
  family: string;
}

/**
 * How a task's installer boots from a local OS image instead of the mirror
 * (docs/netboot.md, "Installing from an OS image (offline)"). Paths are
 * relative to the boot root (`iso/<slug>/…`: served at `{{ server.boot_url }}/iso/<slug>/…`).
 */
export interface LocalBoot {
  image: { id: number; name: string; slug: string };
  /** The kernel and initrds inside the mounted image; null: the entry's own files (boot root, download cache). */
  files: { role: 'kernel' | 'initrd'; name: string; served_path: string }[] | null;
  /**
   * The command line that boots `files` (without the answer argument), with
   * the plain placeholders `{{ image_url }}` (the mount, ending in `/`) and
   * `{{ iso_url }}` (the ISO file); null: the entry's own command line.
   */
  cmdline: string | null;
  /** The installer's package source inside the image (`iso/<slug>/`), the answer's `urls.mirror`; null: the entry's mirror. */
  repo_path: string | null;
  /** Debian: the image is the installer's mirror (a Debian archive: dists/ and pool/). */
  debian_mirror: boolean;
  /** What still comes from the network, '' when nothing does. */
  network: string;
}

/** A local source's answer: the boot, or why an image linked to the entry was not used (null: no image is linked). */
export type LocalBootFinding = { boot: LocalBoot; skipped: null } | { boot: null; skipped: string | null };

/** Registered by the os-images area (netboot.addLocalSource): boots an entry from a ready image linked to it. */
export interface LocalBootSource {
  /** `mount`: mount the chosen image now (the machine is about to fetch from it); false for views and previews. */
  find(query: LocalBootQuery, options: { mount: boolean }): Promise<LocalBootFinding>;
}
