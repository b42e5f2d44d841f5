import { errorMessage } from '../../core/errors.js';
import type { TaskBootSource } from '../netboot-contract.js';
import type { LocalBoot, LocalBootSource, ResolvedEntry } from '../netboot-ports.js';
import type { TaskFiles } from './install-task-service.js';
import { servedFileUrl } from './installer-script.js';

/*
 * Where a task's installer comes from (docs/netboot.md, "Installing from an
 * OS image (offline)"): a ready OS image linked to the entry when a local
 * source (the os-images area) has one, else the entry's own files. The
 * same plan feeds the iPXE script, the answer's mirror and the task view, so
 * what the API says is what the machine gets.
 */

/** The files an installer script loads (a subset of ResolvedFile). */
export interface PlannedFile {
  role: 'kernel' | 'initrd';
  name: string;
  served_path: string;
}

export interface TaskBootPlan {
  /** The image boot, or null: the entry's own files and command line. */
  local: LocalBoot | null;
  source: TaskBootSource;
}

/** The local boot sources registered with the netboot facade (os-images adds one). */
export class LocalBootSources {
  private readonly sources: LocalBootSource[] = [];
  /** The image each entry last booted from (this run): when it is gone, the fallback says so instead of passing silently. */
  private readonly lastImage = new Map<string, LocalBoot['image']>();

  add(source: LocalBootSource): void {
    this.sources.push(source);
  }

  /**
   * The first source's boot for the entry; the reasons images were skipped
   * otherwise. A source that throws is a skipped image, never a failed boot:
   * the entry's own files still work.
   */
  async plan(resolved: ResolvedEntry, options: { mount: boolean }): Promise<TaskBootPlan> {
    const query = { distro: resolved.entry.distro, version: resolved.version.version, arch: resolved.arch.arch, family: resolved.entry.family };
    const key = `${query.distro}/${query.version}/${query.arch}`;
    const skipped: string[] = [];
    for (const source of this.sources) {
      try {
        const finding = await source.find(query, options);
        if (finding.boot) {
          this.lastImage.set(key, finding.boot.image);
          return { local: finding.boot, source: imageSource(finding.boot, skipped) };
        }
        if (finding.skipped) skipped.push(finding.skipped);
      } catch (err) {
        skipped.push(`the OS image could not be used: ${errorMessage(err)}`);
      }
    }
    const before = this.lastImage.get(key);
    if (skipped.length === 0 && before) skipped.push(`OS image ${before.id} (${before.name}), which ${key} booted from before, is no longer there or no longer linked to it`);
    return { local: null, source: catalogSource(resolved, skipped) };
  }
}

function imageSource(boot: LocalBoot, skipped: readonly string[]): TaskBootSource {
  const where = `OS image ${boot.image.id} (${boot.image.name}) at /boot/iso/${boot.image.slug}/`;
  const files = boot.files === null ? "kernel and initrd from the catalog entry's files (boot root or download cache)" : `kernel and initrd from ${where}`;
  const packages = boot.repo_path !== null || boot.debian_mirror ? `packages from ${boot.files === null ? where : 'the image'}` : '';
  return {
    kind: 'image',
    image_id: boot.image.id,
    image_name: boot.image.name,
    message: [files, packages].filter((part) => part !== '').join('; '),
    network: boot.network,
    fallback: skipped.length > 0 ? skipped.join('; ') : null,
  };
}

function catalogSource(resolved: ResolvedEntry, skipped: readonly string[]): TaskBootSource {
  const mirror = resolved.mirror;
  return {
    kind: 'catalog',
    image_id: null,
    image_name: null,
    message: mirror === null ? "the entry's local files (boot root)" : `the entry's files from the boot root or the download cache (downloaded from ${mirror} when missing)`,
    network: mirror === null ? '' : `packages from ${mirror}`,
    fallback: skipped.length > 0 ? `${skipped.join('; ')}: using the download cache and the mirror instead` : null,
  };
}

/** `{{ image_url }}` and `{{ iso_url }}` of the image as a machine reaching `bootUrl` fetches them. */
export function imageUrls(boot: Pick<LocalBoot, 'image'>, bootUrl: string): { image_url: string; iso_url: string } {
  return {
    image_url: `${servedFileUrl(bootUrl, `iso/${boot.image.slug}`)}/`,
    iso_url: servedFileUrl(bootUrl, `iso/${boot.image.slug}.iso`),
  };
}

/** Plain substitution (the text comes from the ISO's own menus: it is not a template of ours and is never rendered as one). */
export function substituteImageUrls(text: string, urls: { image_url: string; iso_url: string }): string {
  return text.replace(/\{\{\s*image_url\s*\}\}/g, urls.image_url).replace(/\{\{\s*iso_url\s*\}\}/g, urls.iso_url);
}

/** The package mirror an answer file names (`urls.mirror`): the image's repository URL, else null (the entry's mirror). */
export function localMirrorUrl(boot: LocalBoot, bootUrl: string): string | null {
  if (boot.repo_path !== null) return `${servedFileUrl(bootUrl, boot.repo_path.replace(/\/+$/, ''))}/`;
  if (boot.debian_mirror) return imageUrls(boot, bootUrl).image_url;
  return null;
}

/**
 * Debian's installer with the mounted image as its mirror (docs/os-detection.md,
 * "Debian installer CD/DVD initrd"): kernel arguments, and the variables the
 * shipped preseed preset reads (`variables.mirror`, `variables.mirror_directory`).
 */
export function debianMirror(boot: LocalBoot, bootUrl: string): { args: string; variables: Record<string, string> } | null {
  if (!boot.debian_mirror) return null;
  const url = new URL(imageUrls(boot, bootUrl).image_url);
  const directory = url.pathname.replace(/\/+$/, '');
  return {
    args: `mirror/country=manual mirror/http/hostname=${url.host} mirror/http/directory=${directory} mirror/http/proxy=`,
    variables: { mirror: url.host, mirror_directory: directory },
  };
}

/** The files the script loads: the image's, else the entry's. */
export function plannedFiles(resolved: ResolvedEntry, plan: TaskBootPlan): readonly PlannedFile[] {
  return plan.local?.files ?? resolved.files;
}

/**
 * The files part as the task service sees it: an entry booted from an
 * image's own kernel and initrd has no missing files and nothing to
 * prefetch (nothing is downloaded for a task that installs offline).
 */
export function imageAwareFiles(files: TaskFiles, local: LocalBootSources): TaskFiles {
  const fromImage = async (resolved: ResolvedEntry): Promise<boolean> => {
    const boot = (await local.plan(resolved, { mount: false })).local;
    return boot !== null && boot.files !== null;
  };
  return {
    problem: async (resolved) => ((await fromImage(resolved)) ? null : files.problem(resolved)),
    prefetch: async (resolved) => {
      if (!(await fromImage(resolved))) await files.prefetch(resolved);
    },
  };
}
