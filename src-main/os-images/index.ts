import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BootFilesFacade } from '../boot-files/index.js';
import type { AreaModule } from '../core/area.js';
import type { NetbootFacade } from '../netboot/index.js';
import { FINAL_TASK_STATES } from '../netboot/netboot-contract.js';
import type { ProfileService } from '../profiles/index.js';
import { detectImage } from './detect/index.js';
import { imageExtractor } from './extract/index.js';
import { isoImageOpener } from './iso/index.js';
import { bootProfileRoutes, ImageMounts, wimbootInBootRoot } from './mount/index.js';
import { catalogLookupFrom } from './catalog-match.js';
import { DropFolderWatcher } from './drop-folder.js';
import { ImageIntake } from './image-intake.js';
import type { ImageDetector, ImageExtractor, ImageMountPort, ImageNfsExports, ImageOpener, OpenedImage } from './image-ports.js';
import { ImageSettingsStore } from './image-settings.js';
import { ImageUploads } from './image-upload.js';
import { ImageLocalBoot } from './local-boot.js';
import { overlayUsers, profileUsers, taskUsers, type ImageUsageCheck } from './image-usage.js';
import { OsImageService } from './os-image-service.js';
import { osImageUploadRoutes } from './os-image-upload-routes.js';
import type { OsImage } from './os-images-contract.js';
import { osImageRoutes } from './os-images-routes.js';
import { PartialUploads } from './partial-uploads.js';

export * from './image-ports.js';
export { OsImageService, type ImageRow } from './os-image-service.js';
export type { ImageUsageCheck, ImageUser } from './image-usage.js';
export { UPLOAD_ID_HEADER } from './os-image-upload-routes.js';

/** The OS images area's operations as later areas (files, NFS) and tests see them. */
export interface OsImagesFacade {
  /** <data-dir>/images: uploaded and copied images (partial uploads under .uploads/). */
  imagesDir: string;
  /** The watched drop folder (a real path), or null. */
  dropFolder(): string | null;
  get(id: number): OsImage | undefined;
  list(): OsImage[];
  /** A newly opened tree of the image's content; the caller closes it. */
  openTree(id: number): Promise<OpenedImage>;
  /** Another area's users of images, named in the 409 of a delete. */
  addUsageCheck(check: ImageUsageCheck): void;
  /** The NFS area's answer about image exports ("boot this ISO" over NFS); without it NFS boot profiles are refused. */
  setNfsExports(exports: ImageNfsExports): void;
  /** The service itself (routes, tests). */
  service: OsImageService;
  /** The drop-folder watcher's pending work has finished (tests). */
  dropFolderIdle(): Promise<void>;
}

export interface OsImagesAreaOptions {
  /** The ISO 9660 reader (os-images/iso); tests may pass a fake. */
  opener?: ImageOpener;
  /** OS detection (os-images/detect). */
  detector?: ImageDetector;
  /** Extraction into the boot root (os-images/extract). */
  extractor?: ImageExtractor;
  /** Serving mounted images under /boot/iso/ and TFTP iso/ (os-images/mount). */
  mounts?: ImageMountPort;
  /** How long a drop-folder file's size must stay the same before it is taken (tests shorten it); default 2 s. */
  dropSettleMs?: number;
  /** How often stale partial uploads are swept; default hourly. */
  sweepIntervalMs?: number;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The os-images area (docs/os-images.md): ISO files uploaded, imported or
 * dropped into a watched folder; read by the ISO reader, detected, extracted
 * into the boot root and mounted under /boot/iso/<slug>/. It needs
 * boot-files (the boot root), profiles (which profiles use an image) and
 * netboot (the catalog an image links to, the tasks that install from it).
 */
export function osImagesArea(
  options: OsImagesAreaOptions = {},
): AreaModule<'os-images', OsImagesFacade, { 'boot-files': Pick<BootFilesFacade, 'files'>; profiles: Pick<ProfileService, 'all' | 'create' | 'update'>; netboot: Pick<NetbootFacade, 'catalog' | 'tasks' | 'addLocalSource'> }> {
  return {
    name: 'os-images',
    needs: ['boot-files', 'profiles', 'netboot'],
    create(kernel, { 'boot-files': bootFiles, profiles, netboot }) {
      const imagesDir = path.join(kernel.config.dataDir, 'images');
      const log = kernel.log.scope('os-images');
      const settings = new ImageSettingsStore(kernel.store);
      const uploads = new PartialUploads({ imagesDir });
      // One provider under the boot root serves every mounted image (/boot/iso/<slug>/…, TFTP iso/<slug>/…).
      const mounts = new ImageMounts(bootFiles.files, { log });
      const images = new OsImageService({
        store: kernel.store,
        events: kernel.events,
        log: kernel.log,
        imagesDir,
        bootRoot: () => bootFiles.files.root,
        opener: options.opener ?? isoImageOpener,
        detector: options.detector ?? detectImage,
        extractor: options.extractor ?? imageExtractor,
        mounts: options.mounts ?? mounts,
        catalog: catalogLookupFrom(() => netboot.catalog.entries()),
        settings,
      });
      images.addUsageCheck((image) => profileUsers(profiles.all(), image.slug));
      images.addUsageCheck((image) => overlayUsers(netboot.catalog.overlays(), image.slug));
      images.addUsageCheck((image) =>
        taskUsers(
          netboot.tasks.service.list({ size: Number.MAX_SAFE_INTEGER }).data.filter((task) => !FINAL_TASK_STATES.includes(task.state)),
          image,
        ),
      );
      // Install tasks of an entry an image is linked to boot from the image (docs/netboot.md, "Installing from an OS image (offline)").
      netboot.addLocalSource(new ImageLocalBoot(images));
      const intake = new ImageIntake({ images, uploads, roots: kernel.servedRoots, settings, events: kernel.events, log });
      const watcher = new DropFolderWatcher({
        log,
        ...(options.dropSettleMs !== undefined ? { settleMs: options.dropSettleMs } : {}),
        handlers: {
          stable: (file, size) => intake.adoptDropped(file, size),
          gone: (file) => intake.droppedGone(file),
          known: (file) => images.byPath(file) !== undefined,
        },
      });
      let started = false;
      settings.onChange((next, previous) => {
        if (started && next.drop_folder !== previous.drop_folder) void watcher.watch(next.drop_folder);
      });
      let sweepTimer: NodeJS.Timeout | null = null;
      const sweep = async () => {
        const removed = await uploads.sweep().catch(() => []);
        if (removed.length > 0) log.info(`removed ${removed.length} stale partial upload(s): ${removed.join(', ')}`);
      };
      let nfsExports: ImageNfsExports | null = null;
      const facade: OsImagesFacade = {
        imagesDir,
        dropFolder: () => settings.get().drop_folder,
        get: (id) => images.get(id),
        list: () => images.list(),
        openTree: (id) => images.openTree(id),
        addUsageCheck: (check) => images.addUsageCheck(check),
        setNfsExports: (exports) => {
          nfsExports = exports;
        },
        service: images,
        dropFolderIdle: () => watcher.idle(),
      };
      return {
        facade,
        routes: [
          osImageRoutes({ images, intake, uploads, settings, requireFolder: (folder, field) => kernel.servedRoots.require(folder, field) }),
          osImageUploadRoutes(new ImageUploads({ images, uploads, events: kernel.events })),
          bootProfileRoutes({
            images: { requireImage: (id) => images.require(id), ensureMounted: async (id) => (images.require(id).mounted ? images.require(id) : images.mount(id)) },
            profiles,
            wimboot: wimbootInBootRoot(bootFiles.files),
            nfs: () => nfsExports,
          }),
        ],
        services: [],
        async prepare() {
          await mkdir(imagesDir, { recursive: true });
          await sweep();
          // Mounts come back before HTTP serves, so /boot/iso/<slug>/ answers from the first request.
          await images.restore();
        },
        async start() {
          started = true;
          sweepTimer = setInterval(() => void sweep(), options.sweepIntervalMs ?? HOUR_MS);
          sweepTimer.unref();
          const folder = settings.get().drop_folder;
          if (folder !== null) {
            const verdict = await kernel.servedRoots.check(folder);
            if (verdict.ok) await watcher.watch(verdict.real);
            else log.warn(`the drop folder ${folder} is not watched: ${verdict.problem}`);
          }
        },
        async stop() {
          started = false;
          if (sweepTimer) clearInterval(sweepTimer);
          watcher.stop();
          await watcher.idle();
        },
        async close() {
          await images.close();
          mounts.close();
        },
      };
    },
  };
}
