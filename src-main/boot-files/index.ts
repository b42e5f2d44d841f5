import path from 'node:path';
import type { AlertsFacade } from '../alerts/index.js';
import { CheckIgnores } from './check-ignores.js';
import { bootloaderAlerts, cachedCheck } from './bootloader-alerts.js';
import type { AreaModule } from '../core/area.js';
import type { DhcpFacade } from '../dhcp/index.js';
import { archmapFileRefs } from './archmap-refs.js';
import { BootFiles } from './boot-files.js';
import { bootloaderRoutes } from './boot-files-routes.js';
import { Bootloaders, defaultBootloaderDir } from './bootloaders.js';
import { sightingOfEvent, type CodeSighting } from './check-architectures.js';
import { httpBootPlugin } from './http-boot-plugin.js';

export { BootFiles, type BootFileLookup } from './boot-files.js';
export { isDiskFile, VirtualFileRegistry, type BootClient, type VirtualContent, type VirtualDiskFile, type VirtualFile, type VirtualFileProvider } from './virtual-files.js';
export { normalizeBootPath, resolveInsideRoot, isInside, MAX_BOOT_PATH_LENGTH, type RefusalReason } from './path-confinement.js';
export { httpBootPlugin, BOOT_PREFIX, type HttpBootDeps, type HttpBootOptions } from './http-boot-plugin.js';
export { parseRange, type ByteRange } from './byte-range.js';
export { Bootloaders, defaultBootloaderDir, RESTORE_HINT, type BootFileCheck, type BootloaderCheckReport, type BootloaderFileView, type LoaderUsageSource } from './bootloaders.js';
export { architectureOfCode, architectureOfMachine, CHECK_ARCHITECTURES, type HostFacts } from './check-architectures.js';
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
export function bootFilesArea(options: BootFilesAreaOptions = {}): AreaModule<'boot-files', BootFilesFacade, { dhcp: Pick<DhcpFacade, 'archmap' | 'leases'>; alerts: Pick<AlertsFacade, 'addSource'> }> {
  return {
    name: 'boot-files',
    needs: ['dhcp', 'alerts'],
    async create(kernel, { dhcp, alerts }) {
      const { config, servedRoots, log, events, metrics } = kernel;
      const files = new BootFiles({ root: path.join(config.dataDir, 'boot'), checkRoot: (root) => servedRoots.check(root) });
      const bootloaders = await Bootloaders.open({ sourceDir: options.bootloaderDir ?? defaultBootloaderDir(), roots: () => [files.root], log });
      // The loader check reads which files the DHCP archmap sends clients to.
      bootloaders.setArchmapSource(() => archmapFileRefs(dhcp.archmap.entries()));
      // And which loader each UEFI architecture gets, and which architectures DHCP saw (ranking; docs/boot-files.md).
      bootloaders.setLoaderUsage({
        loaders: () => kernel.settings.netboot().boot_loaders,
        sightings: () => ({ leases: leaseSightings(dhcp.leases.all()), events: eventSightings(events.all()) }),
      });
      // Missing or broken boot loaders of architectures machines were seen with, in the alert centre (docs/alerts.md);
      // a change of the ignored architectures is seen by the next alert read, not a minute later.
      let check = cachedCheck(() => bootloaders.check());
      const ignores = new CheckIgnores(kernel.store, events, () => {
        check = cachedCheck(() => bootloaders.check());
      });
      bootloaders.setIgnoredArchitectures(() => ignores.list());
      alerts.addSource('boot-files', async () => bootloaderAlerts(await check()));
      return {
        facade: { files, bootloaders },
        routes: [bootloaderRoutes(bootloaders, ignores)],
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

function* leaseSightings(leases: Iterable<{ mac: string; arch: number | null }>): Iterable<CodeSighting> {
  for (const lease of leases) if (lease.arch !== null) yield { mac: lease.mac, code: lease.arch };
}

function* eventSightings(events: Iterable<{ kind: string; mac: string | null; detail: Record<string, unknown> | null }>): Iterable<CodeSighting> {
  for (const event of events) {
    const sighting = sightingOfEvent(event);
    if (sighting) yield sighting;
  }
}
