import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from '../../core/logger.js';
import type { EventLog } from '../../events/event-log.js';
import type { Store } from '../../store/store.js';
import type { CatalogFile } from '../netboot-contract.js';
import { CatalogFileError, defaultCatalogFile, loadCatalogFile } from './catalog-file.js';
import { catalogRoutes } from './catalog-routes.js';
import { NetbootCatalog } from './netboot-catalog.js';
import { OverlayStore } from './overlays.js';

export { NetbootCatalog, CATALOG_SORT_FIELDS, type CatalogListQuery } from './netboot-catalog.js';
export { CatalogFileError, defaultCatalogFile, loadCatalogFile, parseCatalogText, catalogProblems, entryProblems } from './catalog-file.js';
export { mergeOverlay, OverlayStore, type OverlayRow } from './overlays.js';
export { catalogRoutes, type CatalogRouteOperations } from './catalog-routes.js';

/** The catalog part of the netboot area: the service, its routes, and the start-up check of the shipped file. */
export interface CatalogPart {
  catalog: NetbootCatalog;
  routes: FastifyPluginAsync;
  /** Fails (after a netboot.catalog.invalid event) when the catalog file is invalid: Bootwright must not start half-configured. */
  prepare(): void;
}

/** An empty catalog stands in while the file is invalid, until prepare() stops the start. */
const NO_CATALOG: CatalogFile = { schema_version: 1, groups: [], entries: [] };

export async function createCatalogPart(deps: { file?: string; store: Store; events: EventLog; log: Logger }): Promise<CatalogPart> {
  const file = deps.file ?? defaultCatalogFile();
  let loaded = NO_CATALOG;
  let problem: CatalogFileError | null = null;
  try {
    loaded = await loadCatalogFile(file);
  } catch (err) {
    if (!(err instanceof CatalogFileError)) throw err;
    problem = err;
  }
  const catalog = new NetbootCatalog({ catalog: loaded, overlays: new OverlayStore(deps.store), events: deps.events, log: deps.log });
  return {
    catalog,
    routes: catalogRoutes(catalog),
    prepare() {
      if (!problem) return;
      deps.log.error(problem.message);
      deps.events.emit({
        kind: 'netboot.catalog.invalid',
        level: 'error',
        message: problem.message,
        detail: { file: problem.file, problems: problem.problems.slice(0, 50) },
      });
      throw problem;
    },
  };
}
