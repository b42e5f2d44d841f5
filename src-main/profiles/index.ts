import type { AreaModule } from '../core/area.js';
import { WorkerTemplateRenderer } from '../boot-scripts/template-renderer.js';
import { ProfileService } from './profile-service.js';
import { profileRoutes } from './profiles-routes.js';

export { ProfileService, type ProfileServiceDeps, type ProfileFilter, type ProfileUsageCheck, type ProfileUsers, type ScriptDiff } from './profile-service.js';
export { SerialQueue } from './serial-queue.js';
export { generateScript, menuScript, bootUrl } from './script-generator.js';
export { profileRoutes, type ProfileRouteOperations } from './profiles-routes.js';
export * from './profile-types.js';

/**
 * The profiles area module (docs/architecture.md, "Area folders"): the facade
 * is the ProfileService (`ctx.profiles`), which also carries what the later
 * areas share with it: the write queue (`queue`, hosts write on it too), the
 * template renderer (`templates`, the boot scripts render with it) and
 * `addUsageCheck` (hosts name the hosts assigned a profile). It needs no
 * other area; the settings rule that netboot.default_profile_id names a
 * profile is registered here. close() ends the template worker.
 */
export function profilesArea(): AreaModule<'profiles', ProfileService, Record<string, never>> {
  return {
    name: 'profiles',
    needs: [],
    create(kernel) {
      const templates = new WorkerTemplateRenderer({ log: kernel.log });
      const profiles = new ProfileService({
        store: kernel.store,
        log: kernel.log,
        templates,
        netbootDefaultProfileId: () => kernel.settings.netboot().default_profile_id,
      });
      kernel.settings.addCheck('netboot', (value, field) => profiles.netbootDefaultErrors(value, field));
      return { facade: profiles, routes: [profileRoutes(profiles)], services: [], close: () => templates.close() };
    },
  };
}
