import { mkdir } from 'node:fs/promises';
import type { BootFilesFacade } from '../boot-files/index.js';
import type { AreaModule } from '../core/area.js';
import { FileBrowser } from './file-browser.js';
import { FileRoots } from './file-roots.js';
import { filesRoutes } from './files-routes.js';
import { FilesService, type BeforeDelete } from './files-service.js';
import { imageFilesGuard } from './image-files-guard.js';
import type { OsImagesFacade } from '../os-images/index.js';

export * from './files-contract.js';
export { FilesService, type BeforeDelete, type FilesServiceDeps, type UploadBody, type UploadRequest } from './files-service.js';
export { FileRoots, type FileRootsDeps, type OpenedRoot } from './file-roots.js';
export { FileBrowser, MAX_BROWSE_ENTRIES } from './file-browser.js';
export { checkAbsolutePath, checkFileName, checkRelativePath, pathProblem, PARTIAL_PREFIX } from './file-paths.js';
export { filesRoutes } from './files-routes.js';

/** The files area's operations as other areas and tests see them (`core.area('files')`). */
export interface FilesFacade {
  service: FilesService;
  roots: FileRoots;
  browser: FileBrowser;
}

export interface FilesAreaOptions {
  /** The OS images drop folder; default: the os-images area's setting. */
  dropFolder?: () => string | null;
  /** Refuses deleting what an OS image uses; default: the images' own files are refused (409). */
  beforeDelete?: BeforeDelete;
  /** Largest upload (tests lower it). */
  maxUploadBytes?: number;
}

/**
 * The files area (docs/files.md): list, upload and delete inside the file
 * roots (boot root, `<data-dir>/images`, the drop folder), /files/root, and
 * the admin's folder picker /fs/browse over the allowed roots.
 */
export function filesArea(options: FilesAreaOptions = {}): AreaModule<'files', FilesFacade, { 'boot-files': Pick<BootFilesFacade, 'files'>; 'os-images': Pick<OsImagesFacade, 'imagesDir' | 'dropFolder' | 'list'> }> {
  return {
    name: 'files',
    needs: ['boot-files', 'os-images'],
    create(kernel, deps) {
      const osImages = deps['os-images'];
      const imagesRoot = osImages.imagesDir;
      const roots = new FileRoots({
        bootRoot: deps['boot-files'].files.root,
        imagesRoot,
        dropFolder: options.dropFolder ?? (() => osImages.dropFolder()),
        checkRoot: (root) => kernel.servedRoots.check(root),
      });
      const service = new FilesService({
        roots,
        beforeDelete: options.beforeDelete ?? imageFilesGuard(() => osImages.list()),
        ...(options.maxUploadBytes !== undefined ? { maxUploadBytes: options.maxUploadBytes } : {}),
      });
      const browser = new FileBrowser(() => kernel.servedRoots.describe());
      return {
        facade: { service, roots, browser },
        routes: [filesRoutes(service, browser)],
        services: [],
        async prepare() {
          // The images folder is a built-in root: make it, so /files/root does not call it missing on a fresh data dir.
          await mkdir(imagesRoot, { recursive: true });
        },
      };
    },
  };
}
