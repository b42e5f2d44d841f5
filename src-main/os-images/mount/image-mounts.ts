import { stat } from 'node:fs/promises';
import type { BootClient, VirtualFile, VirtualFileProvider } from '../../boot-files/virtual-files.js';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { normaliseTreePath, resolveTreePath, TreeError, type ReadOnlyTree } from '../../core/read-only-tree.js';
import type { ImageMountPort, MountedImage } from '../image-ports.js';
import { directoryIndex } from './directory-index.js';

/** The first segment of every mounted path under the boot root: /boot/iso/… over HTTP, iso/… over TFTP. */
export const MOUNT_PREFIX = 'iso';

/** Where a mounted image is served, as the API shows it (Mount.url_path) and profiles name its files. */
export function mountUrlPath(slug: string): string {
  return `/boot/${MOUNT_PREFIX}/${slug}/`;
}

/** The ISO file itself, relative to the boot root (sanboot, ISO-in-RAM installers). */
export function isoFilePath(slug: string): string {
  return `${MOUNT_PREFIX}/${slug}.iso`;
}

/** The registration ImageMounts needs: the boot-files facade's `files` (BootFiles.addVirtualProvider). */
export interface VirtualFileRegistration {
  addVirtualProvider(provider: VirtualFileProvider): () => void;
}

interface Mounted {
  readonly image: MountedImage;
}

/**
 * Serves mounted images straight from their ISO files: one boot-files
 * provider answers `iso/<slug>/<path>` with the file's extents in the ISO
 * (HTTP sends them with sendfile at their offsets, TFTP reads them through
 * its chunk cache) and `iso/<slug>.iso` with the whole ISO. Nothing is
 * copied and nothing needs root: no loop device, no kernel mount.
 *
 * Paths are looked up through the image's tree: symlinks inside the image
 * are followed, a symlink leading out of it or looping is not served (404).
 * A directory is an HTML index over HTTP (directory-index.ts) and "file not
 * found" over TFTP.
 *
 * Unmounting removes the slug's paths at once: the next request for them is
 * a 404. Transfers already under way finish: they read from descriptors of
 * the ISO file they opened themselves, not through the tree, so closing the
 * tree afterwards (the service does) does not cut them either.
 */
export class ImageMounts implements ImageMountPort {
  private readonly bySlug = new Map<string, Mounted>();
  private readonly byId = new Map<number, Mounted>();
  private readonly removeProvider: () => void;
  private readonly log: Logger | null;

  constructor(files: VirtualFileRegistration, options: { log?: Logger } = {}) {
    this.log = options.log?.scope('image-mounts') ?? null;
    this.removeProvider = files.addVirtualProvider({
      resolve: (path, client) => this.resolve(path, client),
      owns: (path) => this.owns(path),
    });
  }

  /** Serves `image` under its slug; mounting the same id again replaces it (a new slug or tree). CONFLICT when another image has the slug. */
  mount(image: MountedImage): void {
    const holder = this.bySlug.get(image.slug);
    if (holder && holder.image.id !== image.id) {
      throw new AppError('CONFLICT', `slug "${image.slug}" is already mounted by image ${holder.image.id}`, { details: [{ field: 'slug', message: 'is mounted by another image' }] });
    }
    this.unmount(image.id);
    const mounted = { image };
    this.bySlug.set(image.slug, mounted);
    this.byId.set(image.id, mounted);
    this.log?.info(`image ${image.id} mounted at ${mountUrlPath(image.slug)} from ${image.file}`);
  }

  unmount(id: number): void {
    const mounted = this.byId.get(id);
    if (!mounted) return;
    this.byId.delete(id);
    this.bySlug.delete(mounted.image.slug);
    this.log?.info(`image ${id} unmounted from ${mountUrlPath(mounted.image.slug)}`);
  }

  mounted(): number[] {
    return [...this.byId.keys()];
  }

  /** Stops serving everything and removes the provider (the area's close()). */
  close(): void {
    this.bySlug.clear();
    this.byId.clear();
    this.removeProvider();
  }

  /**
   * Whether `path` is under a mounted image (for the check of the files a
   * profile names). Answered from the slug alone, without reading the tree:
   * a path inside a mounted image counts as served even if the image has no
   * such file (the tree is read only when a machine asks).
   */
  owns(path: string): boolean {
    return this.target(path) !== null;
  }

  /** The boot-files provider's answer for `path` (normalised, relative to the boot root). */
  async resolve(path: string, client: BootClient): Promise<VirtualFile | null> {
    const target = this.target(path);
    if (!target) return null;
    const { mounted, inner } = target;
    const { image } = mounted;
    try {
      if (inner === null) {
        const info = await stat(image.file);
        return this.still(mounted) && info.isFile() ? { kind: 'file', path: image.file, size: info.size } : null;
      }
      const node = await resolveTreePath(image.tree, inner);
      if (!node || !this.still(mounted)) return null;
      if (node.type === 'directory') {
        // TFTP has no listing; over HTTP an index helps people and installers that read one.
        if (client.protocol !== 'http') return null;
        const entries = await image.tree.list(node.path);
        const urlPath = `/boot/${MOUNT_PREFIX}/${image.slug}${inner === '' ? '' : `/${inner}`}/`;
        return this.still(mounted) ? { content: Buffer.from(directoryIndex(urlPath, entries)), contentType: 'text/html; charset=utf-8' } : null;
      }
      if (node.type !== 'file') return null;
      return this.fileOf(mounted, image.tree, node.path, node.size);
    } catch (err) {
      // A symlink out of the image or a loop: not served. So is anything asked of a tree unmounted meanwhile.
      if (err instanceof TreeError || !this.still(mounted)) {
        if (err instanceof TreeError && (err.code === 'OUTSIDE' || err.code === 'LOOP')) this.log?.warn(`${path}: ${err.message}`);
        return null;
      }
      throw err;
    }
  }

  /** The file's extents as stretches of the one backing file that holds them all (the ISO). */
  private async fileOf(mounted: Mounted, tree: ReadOnlyTree, path: string, size: number): Promise<VirtualFile | null> {
    const extents = await tree.extents(path);
    if (!this.still(mounted)) return null;
    const backing = extents[0]?.file ?? mounted.image.file;
    if (extents.some((extent) => extent.file !== backing)) {
      throw new Error(`${path} in image ${mounted.image.id} spans several backing files, which mounts do not serve`);
    }
    const total = extents.reduce((sum, extent) => sum + extent.length, 0);
    if (total !== size) throw new Error(`${path} in image ${mounted.image.id}: extents add up to ${total} bytes, the file has ${size}`);
    const [only] = extents;
    if (extents.length === 1 && only) return { kind: 'file', path: backing, size, offset: only.offset };
    return { kind: 'file', path: backing, size, extents: extents.map((extent) => ({ offset: extent.offset, length: extent.length })) };
  }

  /** Whether the mount is still the one the request started with (an unmount or remount meanwhile ends the answer). */
  private still(mounted: Mounted): boolean {
    return this.byId.get(mounted.image.id) === mounted;
  }

  /**
   * The mount a path names: `iso/<slug>.iso` (inner null: the ISO file) or
   * `iso/<slug>[/<path>]` (inner: the tree path, '' for the root).
   */
  private target(path: string): { mounted: Mounted; inner: string | null } | null {
    const [prefix, first, ...rest] = path.split('/');
    if (prefix !== MOUNT_PREFIX || first === undefined) return null;
    if (rest.length === 0 && first.endsWith('.iso')) {
      const mounted = this.bySlug.get(first.slice(0, -'.iso'.length));
      if (mounted) return { mounted, inner: null };
    }
    const mounted = this.bySlug.get(first);
    if (!mounted) return null;
    const inner = normaliseTreePath(rest.join('/'));
    return inner === null ? null : { mounted, inner };
  }
}
