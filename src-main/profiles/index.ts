import type { AreaModule } from '../core/area.js';
import type { TemplateRenderer } from '../templates/index.js';
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
 * areas share with it: the write queue (`queue`, hosts write on it too) and
 * `addUsageCheck` (hosts name the hosts assigned a profile). It needs the
 * templates area, whose renderer checks scripts at save time; the settings
 * rule that netboot.default_profile_id names a profile is registered here.
 */
export function profilesArea(): AreaModule<'profiles', ProfileService, { templates: TemplateRenderer }> {
  return {
    name: 'profiles',
    needs: ['templates'],
    create(kernel, { templates }) {
      const profiles = new ProfileService({
        store: kernel.store,
        log: kernel.log,
        templates,
        netbootDefaultProfileId: () => kernel.settings.netboot().default_profile_id,
      });
      kernel.settings.addCheck('netboot', (value, field) => profiles.netbootDefaultErrors(value, field));
      return { facade: profiles, routes: [profileRoutes(profiles)], services: [] };
    },
  };
}
