import path from 'node:path';
import type { AreaModule } from '../core/area.js';
import type { DhcpFacade } from '../dhcp/index.js';
import { archmapFileRefs } from './archmap-refs.js';
import { BootFiles } from './boot-files.js';
import { bootloaderRoutes } from './boot-files-routes.js';
import { Bootloaders, defaultBootloaderDir } from './bootloaders.js';
import { httpBootPlugin } from './http-boot-plugin.js';

export { BootFiles, type BootFileLookup } from './boot-files.js';
export { isDiskFile, VirtualFileRegistry, type BootClient, type VirtualContent, type VirtualDiskFile, type VirtualFile, type VirtualFileProvider } from './virtual-files.js';
export { normalizeBootPath, resolveInsideRoot, isInside, MAX_BOOT_PATH_LENGTH, type RefusalReason } from './path-confinement.js';
export { httpBootPlugin, BOOT_PREFIX, type HttpBootDeps, type HttpBootOptions } from './http-boot-plugin.js';
export { parseRange, type ByteRange } from './byte-range.js';
export { Bootloaders, defaultBootloaderDir, RESTORE_HINT, type BootFileCheck, type BootloaderCheckReport, type BootloaderFileView } from './bootloaders.js';
export { archmapFileRefs, expectationForArchCode, type ArchmapEntryLike, type ArchmapFileRef } from './archmap-refs.js';
export { loadManifest, parseManifest, BOOTLOADER_ARCHITECTURES, type BootloaderManifestEntry, type BootFileFormat } from './bootloader-manifest.js';
export { inspectFormat, PXE_MAX_SIZE } from './file-format.js';
export { inspectBootFile, sha256File, type BootFileProblem } from './boot-file-check.js';
export { bootloaderRoutes, type BootloaderOperations } from './boot-files-routes.js';

/** The boot-files area's operations as other areas see them (`ctx.bootFiles`, `ctx.bootloaders`). */
export interface BootFilesFacade {
  /** The boot root (<data-dir>/boot) and the virtual files served from it over TFTP and HTTP. */
  files: BootFiles;
  /** The bundled boot loaders: manifest, installation into the served roots, checks. */
  bootloaders: Bootloaders;
}

/** Options of the boot-files area the core passes through from its own. */
export interface BootFilesAreaOptions {
  /** Directory of the bundled boot loaders and their manifest; default resources/bootloaders. */
  bootloaderDir?: string;
}

/**
 * The boot-files area module (docs/boot-files.md): the boot root with its
 * virtual files, the bundled boot loaders and their checks (/bootloader/*),
 * and HTTP boot (/boot/, a root route). Before anything serves, prepare()
 * creates the boot root, has the served-root policy check it and copies the
 * missing bundled loaders into it.
 */
export function bootFilesArea(options: BootFilesAreaOptions = {}): AreaModule<'boot-files', BootFilesFacade, { dhcp: Pick<DhcpFacade, 'archmap'> }> {
  return {
    name: 'boot-files',
    needs: ['dhcp'],
    async create(kernel, { dhcp }) {
      const { config, servedRoots, log, events, metrics } = kernel;
      const files = new BootFiles({ root: path.join(config.dataDir, 'boot'), checkRoot: (root) => servedRoots.check(root) });
      const bootloaders = await Bootloaders.open({ sourceDir: options.bootloaderDir ?? defaultBootloaderDir(), roots: () => [files.root], log });
      // The loader check reads which files the DHCP archmap sends clients to.
      bootloaders.setArchmapSource(() => archmapFileRefs(dhcp.archmap.entries()));
      return {
        facade: { files, bootloaders },
        routes: [bootloaderRoutes(bootloaders)],
        rootRoutes: [httpBootPlugin({ bootFiles: files, metrics, events, log })],
        services: [],
        async prepare() {
          const bootRoot = await files.ensureRoot();
          if (!bootRoot.ok) {
            const message = `HTTP boot refuses every file: boot root ${files.root} is refused: ${bootRoot.problem}`;
            log.error(message);
            events.emit({ kind: 'service.failed', level: 'error', message, detail: { service: 'http-boot', error: bootRoot.problem } });
          }
          // Only into the boot root (when accepted): the TFTP service installs into its own root after checking it.
          await bootloaders.installMissing(bootRoot.ok ? [bootRoot.real] : []);
        },
      };
    },
  };
}
