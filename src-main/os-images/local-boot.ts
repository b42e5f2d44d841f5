import { errorMessage } from '../core/errors.js';
import type { LocalBoot, LocalBootFinding, LocalBootQuery, LocalBootSource } from '../netboot/netboot-ports.js';
import type { OpenedImage } from './image-ports.js';
import type { Detection, OsImage } from './os-images-contract.js';

/*
 * Install tasks from a local OS image (docs/netboot.md, "Installing from an
 * OS image (offline)"): the netboot tasks ask for their catalog entry; a
 * ready image linked to it (detection's `catalog_entry`) answers with its
 * own network installer — kernel, initrds and command line from the
 * mounted ISO — and its packages where the installer reads a repository
 * over HTTP. Only for families whose ISO kernel/initrd is the network
 * installer (docs/os-detection.md): a Debian CD initrd looks for a CD-ROM,
 * so Debian keeps the catalog's netboot kernel/initrd and uses the image as
 * its mirror when it carries a Debian archive.
 */

/** What the source needs of the images service. */
export interface LocalBootImages {
  list(): OsImage[];
  mount(id: number): Promise<OsImage>;
  openTree(id: number): Promise<OpenedImage>;
}

/** Detection's families (os-images) each catalog family (netboot) boots from. */
const IMAGE_FAMILIES: Readonly<Record<string, readonly Detection['family'][]>> = {
  redhat: ['rhel', 'fedora'],
  suse: ['suse'],
  alpine: ['alpine'],
  arch: ['arch'],
  ubuntu: ['ubuntu'],
  debian: ['debian'],
};

function linkedTo(image: OsImage, query: LocalBootQuery): boolean {
  const entry = image.detection?.catalog_entry;
  return entry !== null && entry !== undefined && entry.distro === query.distro && entry.version === query.version && entry.arch === query.arch;
}

function label(image: OsImage): string {
  return `OS image ${image.id} (${image.name})`;
}

/** The last path segment: the initrd name iPXE hands the kernel. */
function baseName(file: string): string {
  return file.split('/').filter((part) => part !== '').at(-1) ?? file;
}

function imageFiles(image: OsImage, detection: Detection): LocalBoot['files'] {
  if (detection.kernel === null) return null;
  const served = (file: string) => `iso/${image.slug}/${file.replace(/^\/+/, '')}`;
  return [
    { role: 'kernel', name: baseName(detection.kernel), served_path: served(detection.kernel) },
    ...detection.initrds.map((file) => ({ role: 'initrd' as const, name: baseName(file), served_path: served(file) })),
  ];
}

/**
 * How the image boots the entry's installer, or why it cannot (a string).
 * `hasArchive` says whether a Debian image carries dists/ and pool/.
 */
export function bootFromImage(image: OsImage, query: LocalBootQuery, hasArchive: boolean): LocalBoot | string {
  const detection = image.detection;
  if (!detection) return `${label(image)} has not been detected`;
  const families = IMAGE_FAMILIES[query.family] ?? [];
  if (!families.includes(detection.family)) return `${label(image)} is ${detection.family}, not an installer of the ${query.family} family`;
  const base = { image: { id: image.id, name: image.name, slug: image.slug } };
  if (detection.family === 'debian') {
    if (!hasArchive) return `${label(image)} carries no Debian archive (dists/, pool/) to install from, and its CD initrd does not install over the network`;
    return {
      ...base,
      files: null,
      cmdline: null,
      repo_path: null,
      debian_mirror: true,
      network:
        "the netboot kernel and initrd come from the download cache (prefetch them while online; a Debian CD initrd cannot install over the network) and must be of the image's point release, else the installer finds no kernel modules on the image",
    };
  }
  const files = imageFiles(image, detection);
  const cmdline = detection.netboot_cmdline.trim();
  if (detection.boot_method !== 'linux' || files === null || cmdline === '') return `${label(image)} has no network installer kernel detected`;
  switch (detection.family) {
    case 'rhel':
    case 'fedora': {
      if (!/(^|\s)inst\.(repo|stage2)=/.test(cmdline)) return `${label(image)} is not an Anaconda installer medium (a live image)`;
      const packages = /(^|\s)inst\.repo=/.test(cmdline);
      return { ...base, files, cmdline, repo_path: packages ? `iso/${image.slug}/` : null, debian_mirror: false, network: packages ? '' : "packages from the entry's mirror (a boot ISO carries none)" };
    }
    case 'suse':
      return { ...base, files, cmdline, repo_path: `iso/${image.slug}/`, debian_mirror: false, network: '' };
    case 'alpine':
      return { ...base, files, cmdline, repo_path: `iso/${image.slug}/apks/`, debian_mirror: false, network: "packages not on the image from the Alpine mirrors (the ISO's initramfs must know the NIC for ip=dhcp)" };
    case 'arch':
      return { ...base, files, cmdline, repo_path: null, debian_mirror: false, network: 'the packages pacstrap installs, from the Arch mirrors (the image holds the live system only)' };
    case 'ubuntu':
      if (!/(^|\s)url=/.test(cmdline)) return `${label(image)} has no casper url= boot`;
      return { ...base, files, cmdline, repo_path: null, debian_mirror: false, network: "packages the ISO's pool does not hold (updates, extra packages) from the Ubuntu archive" };
    default:
      return `${label(image)} (${detection.family}) is not installed from its image`;
  }
}

/** Ready images first, then mounted ones, then the newest. */
function preference(a: OsImage, b: OsImage): number {
  const ready = Number(b.state === 'ready') - Number(a.state === 'ready');
  if (ready !== 0) return ready;
  const mounted = Number(b.mounted !== null) - Number(a.mounted !== null);
  return mounted !== 0 ? mounted : b.id - a.id;
}

/** The os-images area's LocalBootSource (registered with netboot.addLocalSource). */
export class ImageLocalBoot implements LocalBootSource {
  /** Whether an image holds a Debian archive, per image and version of it (id:sha256:updated_at). */
  private readonly archives = new Map<string, boolean>();

  constructor(private readonly images: LocalBootImages) {}

  async find(query: LocalBootQuery, options: { mount: boolean }): Promise<LocalBootFinding> {
    const linked = this.images
      .list()
      .filter((image) => linkedTo(image, query))
      .sort(preference);
    if (linked.length === 0) return { boot: null, skipped: null };
    const reasons: string[] = [];
    for (const image of linked) {
      if (image.state !== 'ready') {
        reasons.push(`${label(image)} is linked to ${query.distro} ${query.version} ${query.arch} but is ${image.state}${image.error ? ` (${image.error})` : ''}`);
        continue;
      }
      const plan = bootFromImage(image, query, image.detection?.family === 'debian' ? await this.hasArchive(image) : false);
      if (typeof plan === 'string') {
        reasons.push(plan);
        continue;
      }
      if (options.mount && image.mounted === null) {
        try {
          await this.images.mount(image.id);
        } catch (err) {
          reasons.push(`${label(image)} could not be mounted: ${errorMessage(err)}`);
          continue;
        }
      }
      return { boot: plan, skipped: null };
    }
    return { boot: null, skipped: reasons.join('; ') };
  }

  private async hasArchive(image: OsImage): Promise<boolean> {
    const key = `${image.id}:${image.sha256 ?? ''}:${image.updated_at}`;
    const known = this.archives.get(key);
    if (known !== undefined) return known;
    let found = false;
    const tree = await this.images.openTree(image.id);
    try {
      const [dists, pool] = await Promise.all([tree.stat('dists'), tree.stat('pool')]);
      found = dists?.type === 'directory' && pool?.type === 'directory';
    } finally {
      await tree.close().catch(() => undefined);
    }
    this.archives.set(key, found);
    return found;
  }
}
