import type { BootFilesFacade } from '../boot-files/index.js';
import type { BootScriptService } from '../boot-scripts/index.js';
import type { AreaModule } from '../core/area.js';
import type { HostService } from '../hosts/index.js';
import type { ProfileService } from '../profiles/index.js';
import type { TemplateRenderer } from '../templates/index.js';
import { createNetbootFilesPart, NO_CATALOG, type CatalogListing, type NetbootFilesFacade } from './files/index.js';
import type { CatalogReader } from './netboot-ports.js';

export * from './netboot-ports.js';

/** Test seams and tuning of the netboot area. */
export interface NetbootAreaOptions {
  /** The shipped catalog file; default resources/netboot/catalog.yaml. */
  catalogFile?: string;
  /** The clock of task expiry and the cache's LRU (tests). */
  now?: () => Date;
  /** files: a catalog replacing the shipped one (tests of the files part through a real core). */
  catalogReader?: CatalogReader & CatalogListing;
  /** files: observes the headers of every mirror request (tests assert Range on a resumed download). */
  onMirrorRequest?: (url: string, headers: Record<string, string>) => void;
}

/** The netboot area's operations as other areas, routes and tests see them (filled in by its parts). */
export interface NetbootFacade {
  /** Where entries' boot files come from, the download cache, prefetch jobs (files/). */
  files: NetbootFilesFacade;
}

/**
 * The netboot area module (docs/netboot.md): the OS catalog and overlays
 * (catalog/), where entries' boot files come from and the download cache
 * (files/), answer-file templates with versions (answers/), install tasks and
 * the PXE runtime endpoints (tasks/). A machine with an active task boots its
 * installer through the boot scripts' override hook.
 */
export function netbootArea(
  options: NetbootAreaOptions = {},
): AreaModule<
  'netboot',
  NetbootFacade,
  { templates: TemplateRenderer; profiles: ProfileService; hosts: HostService; 'boot-files': BootFilesFacade; 'boot-scripts': BootScriptService }
> {
  return {
    name: 'netboot',
    needs: ['templates', 'profiles', 'hosts', 'boot-files', 'boot-scripts'],
    async create(kernel, deps) {
      // ---- files (helper B)
      // WIRING (lead, at merge): `options.catalogReader ?? <the NetbootCatalog built above>` instead of NO_CATALOG.
      const catalog = options.catalogReader ?? NO_CATALOG;
      const files = await createNetbootFilesPart({
        kernel,
        bootFiles: deps['boot-files'].files,
        catalog,
        ...(options.now ? { now: options.now } : {}),
        ...(options.onMirrorRequest ? { onMirrorRequest: options.onMirrorRequest } : {}),
      });
      // ---- end files
      return {
        facade: { files: files.facade },
        routes: [...files.routes],
        services: [],
        async close() {
          await files.close();
        },
      };
    },
  };
}
