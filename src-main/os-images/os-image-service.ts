import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errorMessage, isAppError, notFound } from '../core/errors.js';
import { paginate, type ListPage, type ListQueryInput } from '../core/http-kit/list-query.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import { SerialQueue } from '../profiles/index.js';
import type { Collection, Row } from '../store/collection.js';
import type { Store } from '../store/store.js';
import type { ReadOnlyTree } from '../core/read-only-tree.js';
import { nameFromFileName, slugFromFileName, uniqueSlug } from './image-names.js';
import type { CatalogLookup, ImageDetector, ImageExtractor, ImageMountPort, ImageOpener, OpenedImage } from './image-ports.js';
import { usageDetails, type ImageUsageCheck, type ImageUser } from './image-usage.js';
import { ImageSettingsStore } from './image-settings.js';
import type { Detection, ExtractBody, ImageSource, IsoInfo, OsImage, OsImageUpdate } from './os-images-contract.js';
import { progressThrottle } from './progress-throttle.js';

/*
 * The OS images (docs/os-images.md): one row per image file in the
 * `os_images` collection (journaled: an answered write survives kill -9),
 * what the ISO reader and detection said about it, and the long operations
 * on it (hashing, extraction) with their progress events. Row writes run one
 * at a time on a queue, so slug uniqueness and "in use" checks never
 * interleave with another write. At most one long operation (extract,
 * reprocess) runs per image; hashing a linked file runs beside them.
 */

export const IMAGES_COLLECTION = 'os_images';

/** A stored image: the API's OsImage plus whether Bootwright owns the file (uploaded or copied: deleted with the image). */
export type ImageRow = OsImage & { owned: boolean };

/** The message of an image whose file went away (a drop-folder file removed, a linked file moved). */
export const FILE_MISSING = 'file missing';

export interface ImageFilter {
  state?: OsImage['state'];
  family?: string;
}

export interface InspectedImage {
  iso: IsoInfo;
  detection: Detection | null;
}

export interface NewImage {
  path: string;
  file_name: string;
  size: number;
  sha256: string | null;
  source: ImageSource;
  owned: boolean;
  name?: string | undefined;
  inspected: InspectedImage;
}

export interface OsImageServiceDeps {
  store: Store;
  events: EventLog;
  log: Logger;
  imagesDir: string;
  /** The boot root (extractions go to <boot root>/images/<slug>/). */
  bootRoot: () => string;
  opener: ImageOpener;
  detector: ImageDetector;
  extractor: ImageExtractor;
  mounts: ImageMountPort;
  catalog: CatalogLookup;
  settings: ImageSettingsStore;
}

const SORTABLE = ['id', 'name', 'slug', 'file_name', 'size', 'state', 'source', 'created_at', 'updated_at'] as const;

export function imageView(row: ImageRow): OsImage {
  const { owned: _owned, ...image } = row;
  return image;
}

export class OsImageService {
  readonly imagesDir: string;
  private readonly deps: OsImageServiceDeps;
  private readonly rows: Collection<ImageRow & Row>;
  private readonly log: Logger;
  private readonly queue = new SerialQueue();
  /** The long operation running per image (one at a time). */
  private readonly operations = new Map<number, { operation: string; controller: AbortController; done: Promise<void> }>();
  private readonly hashing = new Map<number, AbortController>();
  /** Trees of mounted images (the mount port serves from them). */
  private readonly mountedTrees = new Map<number, OpenedImage>();
  private readonly usageChecks: ImageUsageCheck[] = [];

  constructor(deps: OsImageServiceDeps) {
    this.deps = deps;
    this.imagesDir = deps.imagesDir;
    this.rows = deps.store.collection<ImageRow>(IMAGES_COLLECTION);
    this.log = deps.log.scope('os-images');
  }

  /** Another area's users of images (named in the 409 of a delete). */
  addUsageCheck(check: ImageUsageCheck): void {
    this.usageChecks.push(check);
  }

  list(): OsImage[] {
    return this.rows.all().map(imageView);
  }

  page(query: ListQueryInput & ImageFilter): ListPage<OsImage> {
    const rows = this.rows.filter((row) => (query.state === undefined || row.state === query.state) && (query.family === undefined || row.detection?.family === query.family));
    return paginate(rows.map(imageView), query, {
      sortable: SORTABLE,
      defaultSort: 'id',
      searchText: (image) => [image.name, image.slug, image.file_name, image.description, image.detection?.distro, image.detection?.version, image.iso?.volume_id],
    });
  }

  get(id: number): OsImage | undefined {
    const row = this.rows.get(id);
    return row ? imageView(row) : undefined;
  }

  require(id: number): OsImage {
    return imageView(this.row(id));
  }

  row(id: number): ImageRow {
    const row = this.rows.get(id);
    if (!row) throw notFound('OS image', id);
    return row;
  }

  /** The image whose file is `file` (a real path), if any. */
  byPath(file: string): ImageRow | undefined {
    return this.rows.find((row) => row.path === file);
  }

  /** Who uses the image (profiles, catalog links, tasks, and what other areas registered). */
  usersOf(image: Pick<OsImage, 'id' | 'slug' | 'detection'>): ImageUser[] {
    return this.usageChecks.flatMap((check) => check(image));
  }

  // ------------------------------------------------------------ reading an image

  /** Opens the image file with the ISO reader (VALIDATION_FAILED with its reason when it is not an ISO). */
  async open(file: string): Promise<OpenedImage> {
    return this.deps.opener(file);
  }

  /** A fresh opened tree of image `id`; the caller closes it. */
  async openTree(id: number): Promise<OpenedImage> {
    const row = this.row(id);
    return this.open(row.path);
  }

  /** Reads an image file's volume descriptors and detects what it is; the reader's refusal is passed on, a detection failure is logged and leaves detection null. */
  async inspect(file: string, fileName: string): Promise<InspectedImage> {
    const tree = await this.open(file);
    try {
      return { iso: tree.info, detection: await this.detect(tree, tree.info, fileName) };
    } finally {
      await tree.close().catch(() => undefined);
    }
  }

  private async detect(tree: ReadOnlyTree, info: IsoInfo, fileName: string): Promise<Detection | null> {
    try {
      return await this.deps.detector({ tree, info, fileName, catalog: this.deps.catalog });
    } catch (error) {
      const message = `detection of ${fileName} failed: ${errorMessage(error)}`;
      this.log.warn(message);
      this.deps.events.emit({ kind: 'os_image.failed', level: 'warn', message, detail: { file_name: fileName, operation: 'detect', error: errorMessage(error) } });
      return null;
    }
  }

  // ------------------------------------------------------------ adding

  /** Stores a new image (slug and name from its file name), starts hashing when the hash is unknown, and mounts it when auto_mount is on. */
  async add(input: NewImage): Promise<OsImage> {
    const row = await this.queue.run(async () => {
      if (this.byPath(input.path)) throw new AppError('CONFLICT', `${input.path} is already an image (${this.byPath(input.path)?.name ?? ''})`);
      const slug = uniqueSlug(slugFromFileName(input.file_name), (candidate) => this.rows.find((other) => other.slug === candidate) !== undefined);
      return this.rows.insert({
        name: input.name ?? nameFromFileName(input.file_name),
        slug,
        description: '',
        file_name: input.file_name,
        path: input.path,
        size: input.size,
        sha256: input.sha256,
        source: input.source,
        state: input.sha256 === null ? 'processing' : 'ready',
        error: null,
        iso: input.inspected.iso,
        detection: input.inspected.detection,
        extracted: null,
        mounted: null,
        owned: input.owned,
      });
    });
    this.deps.events.emit({ kind: 'os_image.added', message: `OS image ${row.name} added (${row.source})`, detail: { image_id: row.id, name: row.name, slug: row.slug, source: row.source, file_name: row.file_name, size: row.size } });
    this.emitDetected(row);
    if (row.sha256 === null) this.startHashing(row.id);
    await this.autoMount(row.id);
    return this.require(row.id);
  }

  /** The file of image `id` was replaced (an upload with overwrite=true): new size, hash and detection; a mount is renewed. */
  async replaced(id: number, file: { size: number; sha256: string; inspected: InspectedImage }): Promise<OsImage> {
    const wasMounted = this.row(id).mounted !== null;
    if (wasMounted) await this.unmount(id);
    const row = await this.update(id, { size: file.size, sha256: file.sha256, state: 'ready', error: null, iso: file.inspected.iso, detection: file.inspected.detection });
    this.emitDetected(row);
    if (wasMounted) await this.mount(id);
    return this.require(id);
  }

  private emitDetected(row: ImageRow): void {
    if (!row.detection) return;
    const d = row.detection;
    this.deps.events.emit({
      kind: 'os_image.detected',
      message: `OS image ${row.name}: ${d.distro || d.family} ${d.version} ${d.arch} (${d.boot_method})`.replace(/\s+/g, ' '),
      detail: { image_id: row.id, family: d.family, distro: d.distro, version: d.version, arch: d.arch, boot_method: d.boot_method, catalog_entry: d.catalog_entry },
    });
  }

  private async autoMount(id: number): Promise<void> {
    if (!this.deps.settings.get().auto_mount) return;
    try {
      await this.mount(id);
    } catch (error) {
      this.log.warn(`auto-mount of image ${id} failed: ${errorMessage(error)}`);
    }
  }

  private async update(id: number, patch: Partial<Omit<ImageRow, 'id' | 'created_at' | 'updated_at'>>): Promise<ImageRow> {
    const row = await this.rows.update(id, patch);
    if (!row) throw notFound('OS image', id);
    return row;
  }

  // ------------------------------------------------------------ PUT / DELETE

  /** Name, slug, description. A new slug moves the mount (/boot/iso/<slug>/) and the extraction folder with it. */
  async change(id: number, patch: OsImageUpdate): Promise<OsImage> {
    const { row, moved } = await this.queue.run(async () => {
      const current = this.row(id);
      const slug = patch.slug ?? current.slug;
      if (slug !== current.slug && this.rows.find((other) => other.id !== id && other.slug === slug)) {
        throw new AppError('CONFLICT', `slug "${slug}" is taken by another image`, { details: [{ field: 'body.slug', message: 'taken' }] });
      }
      const moving = slug !== current.slug;
      if (moving && this.operations.has(id)) throw this.busy(id);
      let extracted = current.extracted;
      if (moving && extracted) {
        const from = path.join(this.deps.bootRoot(), 'images', current.slug);
        const to = path.join(this.deps.bootRoot(), 'images', slug);
        await mkdir(path.dirname(to), { recursive: true });
        await rename(from, to).catch((error: unknown) => this.log.warn(`moving the extraction ${from} to ${to} failed: ${errorMessage(error)}`));
        extracted = { ...extracted, boot_path: `images/${slug}/` };
      }
      const updated = await this.update(id, {
        name: patch.name ?? current.name,
        slug,
        description: patch.description ?? current.description,
        extracted,
      });
      return { row: updated, moved: moving && current.mounted !== null };
    });
    if (moved) {
      // Remount under the new slug: the port serves /boot/iso/<slug>/ from the slug it was given.
      this.releaseMount(id);
      await this.update(id, { mounted: null });
      await this.mount(id);
    }
    this.deps.events.emit({ kind: 'os_image.updated', message: `OS image ${row.name} updated`, detail: { image_id: id, fields: Object.keys(patch), slug: row.slug } });
    return this.require(id);
  }

  /**
   * Deletes an image: 409 naming its users unless `force`; unmounts it,
   * stops its hashing, removes its extraction folder, and removes its file
   * when Bootwright owns it (uploaded, copied) or `deleteFile` says so.
   */
  async remove(id: number, options: { force: boolean; deleteFile: boolean }): Promise<OsImage & { file_deleted: boolean }> {
    const { row, users } = await this.queue.run(async () => {
      const current = this.row(id);
      if (this.operations.has(id)) throw this.busy(id);
      const using = this.usersOf(current);
      if (using.length > 0 && !options.force) {
        throw new AppError('CONFLICT', `OS image ${current.name} is in use by ${using.map((user) => user.label).join('; ')}; send force=true to delete it anyway`, {
          details: usageDetails(using),
        });
      }
      this.hashing.get(id)?.abort();
      this.releaseMount(id);
      await this.rows.remove(id);
      return { row: current, users: using };
    });
    let fileDeleted = false;
    if (row.owned || options.deleteFile) {
      await unlink(row.path).then(
        () => (fileDeleted = true),
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`deleting ${row.path} failed: ${errorMessage(error)}`);
        },
      );
    } else if (row.source === 'drop_folder') {
      // Still in the drop folder: without this, the next scan would add it again.
      await this.deps.settings.ignore(row.path, row.size);
    }
    if (row.extracted) await rm(path.join(this.deps.bootRoot(), 'images', row.slug), { recursive: true, force: true });
    this.deps.events.emit({
      kind: 'os_image.removed',
      message: `OS image ${row.name} deleted${fileDeleted ? ' with its file' : ''}`,
      detail: { image_id: id, name: row.name, slug: row.slug, file_name: row.file_name, file_deleted: fileDeleted, forced: users.length > 0, used_by: users.map((user) => user.label) },
    });
    return { ...imageView(row), mounted: null, file_deleted: fileDeleted };
  }

  // ------------------------------------------------------------ hashing

  /** Computes a linked file's SHA-256 in the background (the image is usable meanwhile: state processing). */
  startHashing(id: number): void {
    if (this.hashing.has(id)) return;
    const controller = new AbortController();
    this.hashing.set(id, controller);
    void this.hash(id, controller.signal)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const row = this.rows.get(id);
        const message = `hashing OS image ${row?.name ?? id} failed: ${errorMessage(error)}`;
        this.log.warn(message);
        this.deps.events.emit({ kind: 'os_image.failed', level: 'warn', message, detail: { image_id: id, operation: 'hash', error: errorMessage(error) } });
        if (row) void this.update(id, { state: 'error', error: (error as NodeJS.ErrnoException).code === 'ENOENT' ? FILE_MISSING : `hashing failed: ${errorMessage(error)}` }).catch(() => undefined);
      })
      .finally(() => {
        if (this.hashing.get(id) === controller) this.hashing.delete(id);
      });
  }

  private async hash(id: number, signal: AbortSignal): Promise<void> {
    const row = this.row(id);
    const hash = createHash('sha256');
    let bytes = 0;
    const report = progressThrottle(500, () => {
      this.deps.events.emit({
        kind: 'os_image.hash.progress',
        message: `hashing ${row.name}: ${bytes} of ${row.size} bytes`,
        detail: { image_id: id, bytes, total: row.size, percent: row.size > 0 ? Math.floor((bytes / row.size) * 100) : 100 },
      });
    });
    for await (const chunk of createReadStream(row.path, { signal, highWaterMark: 1024 * 1024 })) {
      const buffer = chunk as Buffer;
      hash.update(buffer);
      bytes += buffer.length;
      report();
    }
    const sha256 = hash.digest('hex');
    await this.queue.run(async () => {
      if (!this.rows.get(id)) return;
      await this.update(id, { sha256, size: bytes, state: 'ready', error: null });
    });
    report.flush();
  }

  /** Whether a background hash is running for `id` (tests wait on it). */
  isHashing(id: number): boolean {
    return this.hashing.has(id);
  }

  // ------------------------------------------------------------ long operations

  private busy(id: number): AppError {
    const running = this.operations.get(id);
    return new AppError('INVALID_STATE', `OS image ${id} is busy: ${running?.operation ?? 'an operation'} is running; try again when it ends`);
  }

  /** Runs `work` as image `id`'s one long operation; INVALID_STATE when another runs. */
  private begin(id: number, operation: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.operations.has(id)) throw this.busy(id);
    const controller = new AbortController();
    const done = work(controller.signal).finally(() => this.operations.delete(id));
    this.operations.set(id, { operation, controller, done });
    return done;
  }

  /** The running operation of `id` ended (tests, shutdown). */
  async settled(id: number): Promise<void> {
    await this.operations.get(id)?.done.catch(() => undefined);
  }

  /** Reopens and detects again (iso and detection refreshed); a missing file turns the image to error. */
  async reprocess(id: number): Promise<OsImage> {
    const row = this.row(id);
    await this.begin(id, 'reprocess', async () => {
      let inspected: InspectedImage;
      try {
        inspected = await this.inspect(row.path, row.file_name);
      } catch (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' || !(await exists(row.path));
        await this.update(id, { state: 'error', error: missing ? FILE_MISSING : `unreadable: ${errorMessage(error)}` });
        throw missing ? new AppError('INVALID_STATE', `the file of OS image ${row.name} is missing: ${row.path}`) : error;
      }
      const size = (await stat(row.path)).size;
      const sizeChanged = size !== row.size;
      const updated = await this.update(id, {
        iso: inspected.iso,
        detection: inspected.detection,
        size,
        ...(sizeChanged ? { sha256: null, state: 'processing' as const } : { state: row.sha256 === null ? ('processing' as const) : ('ready' as const) }),
        error: null,
      });
      this.emitDetected(updated);
      if (updated.sha256 === null) this.startHashing(id);
      if (updated.mounted) {
        this.releaseMount(id);
        await this.update(id, { mounted: null });
        await this.mount(id);
      }
    });
    return this.require(id);
  }

  /** Starts extracting into <boot root>/images/<slug>/ and answers at once (202); progress and the end are events. */
  startExtract(id: number, body: ExtractBody): OsImage {
    const row = this.row(id);
    if (row.state === 'error') throw new AppError('INVALID_STATE', `OS image ${row.name} cannot be extracted: ${row.error ?? 'error'}`);
    const mode = body.mode ?? 'boot';
    const target = path.join(this.deps.bootRoot(), 'images', row.slug);
    void this.begin(id, 'extract', async (signal) => {
      const tree = await this.open(row.path);
      const report = progressThrottle(500, (progress: { files: number; bytes: number; total_bytes: number }) => {
        this.deps.events.emit({
          kind: 'os_image.extract.progress',
          message: `extracting ${row.name}: ${progress.files} files, ${progress.bytes} of ${progress.total_bytes} bytes`,
          detail: { image_id: id, files: progress.files, bytes: progress.bytes, total_bytes: progress.total_bytes, percent: progress.total_bytes > 0 ? Math.floor((progress.bytes / progress.total_bytes) * 100) : 100 },
        });
      });
      try {
        // The extractor creates the target itself (staged, renamed into place) and refuses an existing one without overwrite.
        const result = await this.deps.extractor({ tree, detection: row.detection, target, mode, overwrite: body.overwrite ?? false, signal, onProgress: report });
        report.flush();
        await this.update(id, { extracted: { mode, boot_path: `images/${row.slug}/`, files: result.files, bytes: result.bytes, at: new Date().toISOString() } });
        this.deps.events.emit({ kind: 'os_image.extracted', message: `OS image ${row.name} extracted to images/${row.slug}/ (${result.files} files)`, detail: { image_id: id, mode, boot_path: `images/${row.slug}/`, files: result.files, bytes: result.bytes } });
      } finally {
        await tree.close().catch(() => undefined);
      }
    }).catch((error: unknown) => {
      const message = `extracting OS image ${row.name} failed: ${errorMessage(error)}`;
      this.log.warn(message);
      this.deps.events.emit({ kind: 'os_image.failed', level: 'warn', message, detail: { image_id: id, operation: 'extract', error: errorMessage(error) } });
    });
    return this.require(id);
  }

  // ------------------------------------------------------------ mounting

  /** Serves the image's content under /boot/iso/<slug>/ (idempotent); persisted, restored at start. */
  async mount(id: number): Promise<OsImage> {
    const row = this.row(id);
    if (this.mountedTrees.has(id)) return imageView(row);
    if (row.state === 'error') throw new AppError('INVALID_STATE', `OS image ${row.name} cannot be mounted: ${row.error ?? 'error'}`);
    await this.attach(row);
    const mounted = await this.update(id, { mounted: { url_path: `/boot/iso/${row.slug}/`, since: new Date().toISOString() } });
    this.deps.events.emit({ kind: 'os_image.mounted', message: `OS image ${row.name} mounted at /boot/iso/${row.slug}/`, detail: { image_id: id, slug: row.slug, url_path: `/boot/iso/${row.slug}/` } });
    return imageView(mounted);
  }

  async unmount(id: number): Promise<OsImage> {
    const row = this.row(id);
    const wasMounted = this.mountedTrees.has(id) || row.mounted !== null;
    this.releaseMount(id);
    if (!wasMounted) return imageView(row);
    const updated = await this.update(id, { mounted: null });
    this.deps.events.emit({ kind: 'os_image.unmounted', message: `OS image ${row.name} unmounted`, detail: { image_id: id, slug: row.slug } });
    return imageView(updated);
  }

  private async attach(row: ImageRow): Promise<void> {
    const tree = await this.open(row.path);
    try {
      this.deps.mounts.mount({ id: row.id, slug: row.slug, file: row.path, tree });
    } catch (error) {
      await tree.close().catch(() => undefined);
      throw error;
    }
    this.mountedTrees.set(row.id, tree);
  }

  private releaseMount(id: number): void {
    const tree = this.mountedTrees.get(id);
    if (!tree) return;
    this.mountedTrees.delete(id);
    try {
      this.deps.mounts.unmount(id);
    } catch (error) {
      this.log.warn(`unmounting image ${id} failed: ${errorMessage(error)}`);
    }
    void tree.close().catch(() => undefined);
  }

  // ------------------------------------------------------------ files coming and going

  /** The file of a linked image went away (drop folder, moved): state error "file missing"; its mount stops. */
  async fileMissing(id: number): Promise<void> {
    const row = this.rows.get(id);
    if (!row || (row.state === 'error' && row.error === FILE_MISSING)) return;
    this.hashing.get(id)?.abort();
    this.releaseMount(id);
    await this.update(id, { state: 'error', error: FILE_MISSING });
    const message = `the file of OS image ${row.name} is missing: ${row.path}`;
    this.log.warn(message);
    this.deps.events.emit({ kind: 'os_image.failed', level: 'warn', message, detail: { image_id: id, operation: 'file', error: FILE_MISSING, path: row.path } });
  }

  /**
   * At start: images whose file is gone turn to error, those whose file came
   * back are read again, mounts are restored and unfinished hashes restarted.
   */
  async restore(): Promise<void> {
    for (const row of [...this.rows.all()]) {
      try {
        if (!(await exists(row.path))) {
          if (row.mounted) await this.update(row.id, { mounted: null });
          await this.fileMissing(row.id);
          continue;
        }
        if (row.state === 'error') {
          await this.reprocess(row.id).catch(() => undefined);
          continue;
        }
        if (row.sha256 === null) this.startHashing(row.id);
        if (row.mounted && !this.mountedTrees.has(row.id)) await this.attach(row);
      } catch (error) {
        const message = `restoring OS image ${row.name} failed: ${errorMessage(error)}`;
        this.log.warn(message);
        this.deps.events.emit({ kind: 'os_image.failed', level: 'warn', message, detail: { image_id: row.id, operation: 'restore', error: errorMessage(error) } });
        if (row.mounted) await this.update(row.id, { mounted: null }).catch(() => undefined);
      }
    }
  }

  /** Stops background work and serving (shutdown). */
  async close(): Promise<void> {
    for (const controller of this.hashing.values()) controller.abort();
    for (const running of this.operations.values()) running.controller.abort();
    await Promise.all([...this.operations.values()].map((running) => running.done.catch(() => undefined)));
    for (const id of [...this.mountedTrees.keys()]) this.releaseMount(id);
  }

  /** An AppError (any code) from the reader is kept; anything else becomes a 400 naming the file. */
  static asRefusal(error: unknown, field: string): AppError {
    if (isAppError(error)) return error;
    return new AppError('VALIDATION_FAILED', `${field}: not a readable image: ${errorMessage(error)}`, { details: [{ field, message: errorMessage(error) }] });
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
