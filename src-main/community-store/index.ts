import path from 'node:path';
import type { AreaModule } from '../core/area.js';
import type { BaselinesFacade } from '../baselines/baselines-facade.js';
import type { NetbootFacade } from '../netboot/index.js';
import { OverlayStore } from '../netboot/index.js';
import type { ProfileService } from '../profiles/index.js';
import type { ScriptsFacade } from '../scripts/scripts-facade.js';
import type { SettingsService } from '../settings/index.js';
import { defaultStoreDir, loadBuiltinCatalog } from './builtin-catalog.js';
import { CommunityStoreService } from './community-store-service.js';
import { communityStoreRoutes } from './community-store-routes.js';
import { answerTemplateTarget, baselineTarget, overlayTarget, profileTarget, scriptTarget, type ImportTarget, type TargetType } from './import-targets.js';
import { StoreCatalog } from './store-catalog.js';
import { StoreImporter } from './store-importer.js';
import { importRows, provenanceRows } from './store-records.js';
import { StoreSettingsStore } from './store-settings.js';

export * from './community-store-contract.js';
export { CommunityStoreService } from './community-store-service.js';
export { StoreSettingsStore } from './store-settings.js';

/** Test seams of the store area. */
export interface CommunityStoreOptions {
  /** The shipped catalog folder (index.yaml and item files); default resources/store. */
  storeDir?: string;
  /** The clock of feed caching and provenance. */
  now?: () => Date;
}

export interface CommunityStoreFacade {
  service: CommunityStoreService;
  settings: StoreSettingsStore;
  importer: StoreImporter;
}

/**
 * The community store area (docs/store.md): the shipped catalog under
 * resources/store/, verified remote feeds, and transactional import into the
 * scripts, baselines, profiles and netboot areas through their facades.
 */
export function communityStoreArea(
  options: CommunityStoreOptions = {},
): AreaModule<'community-store', CommunityStoreFacade, { settings: SettingsService; profiles: ProfileService; netboot: NetbootFacade; scripts: ScriptsFacade; baselines: BaselinesFacade }> {
  return {
    name: 'community-store',
    needs: ['settings', 'profiles', 'netboot', 'scripts', 'baselines'],
    async create(kernel, deps) {
      const now = options.now ?? (() => new Date());
      const builtin = await loadBuiltinCatalog(options.storeDir ?? defaultStoreDir());
      const targets: Record<TargetType, ImportTarget<unknown>> = {
        script: scriptTarget(deps.scripts) as ImportTarget<unknown>,
        baseline: baselineTarget(deps.baselines) as ImportTarget<unknown>,
        'answer-template': answerTemplateTarget(deps.netboot) as ImportTarget<unknown>,
        profile: profileTarget(deps.profiles) as ImportTarget<unknown>,
        overlay: overlayTarget(deps.netboot, new OverlayStore(kernel.store)) as ImportTarget<unknown>,
      };
      const settings = new StoreSettingsStore(kernel.store);
      const provenance = provenanceRows(kernel.store);
      const catalog = new StoreCatalog({
        builtin,
        settings,
        feedDir: path.join(kernel.config.dataDir, 'store-feeds'),
        now,
        provenance,
        exists: (type, id) => {
          if (type === 'bundle') return true;
          try {
            return targets[type].exists(id);
          } catch {
            // A facade not built yet (placeholder) cannot say: keep the provenance.
            return true;
          }
        },
        onFeedFailure: (feed, error, stale) => {
          kernel.log.scope('store').warn(`store feed "${feed.name}" failed${stale ? ' (serving its last good index)' : ''}: ${error}`);
          kernel.events.emit({ kind: 'store.feed.failed', level: 'warn', message: `Store feed "${feed.name}" failed: ${error}`, detail: { feed: feed.name, url: feed.url, error, stale } });
        },
      });
      const importer = new StoreImporter({ targets, imports: importRows(kernel.store), provenance, events: kernel.events, log: kernel.log, now });
      // An import a crash interrupted is undone before anything can read its half-written state.
      await importer.recover();
      const service = new CommunityStoreService({ catalog, importer });
      return { facade: { service, settings, importer }, routes: [communityStoreRoutes(service, settings)], services: [] };
    },
  };
}
