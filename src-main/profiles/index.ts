import type { BootFilesFacade } from '../boot-files/index.js';
import type { AreaModule } from '../core/area.js';
import type { TemplateRenderer } from '../templates/index.js';
import { checkProfileFiles, missingFileWarnings } from './profile-files.js';
import { ProfileService } from './profile-service.js';
import { profileRoutes } from './profiles-routes.js';
import type { Profile } from './profile-types.js';

export { ProfileService, type ProfileServiceDeps, type ProfileFilter, type ProfileUsageCheck, type ProfileUsers, type ScriptDiff } from './profile-service.js';
export { SerialQueue } from './serial-queue.js';
export { generateScript, menuScript, bootUrl } from './script-generator.js';
export { profileRoutes, type ProfileRouteOperations, type ProfileSaveWarnings } from './profiles-routes.js';
export { checkProfileFiles, fileState, missingFileWarnings, profileFileRefs, type ProfileFileRef } from './profile-files.js';
export * from './profile-types.js';

/**
 * The profiles area module (docs/architecture.md, "Area folders"): the facade
 * is the ProfileService (`ctx.profiles`), which also carries what the later
 * areas share with it: the write queue (`queue`, hosts write on it too) and
 * `addUsageCheck` (hosts name the hosts assigned a profile). It needs the
 * templates area, whose renderer checks scripts at save time; the settings
 * rule that netboot.default_profile_id names a profile is registered here.
 * It reads the boot root (boot-files) to warn when a saved profile names a
 * file that is not there, and lists its profiles' files in the boot loader
 * check (GET /bootloader/check, `profiles`).
 */
export function profilesArea(): AreaModule<'profiles', ProfileService, { templates: TemplateRenderer; 'boot-files': Pick<BootFilesFacade, 'files' | 'bootloaders'> }> {
  return {
    name: 'profiles',
    needs: ['templates', 'boot-files'],
    create(kernel, { templates, 'boot-files': bootFiles }) {
      const profiles = new ProfileService({
        store: kernel.store,
        log: kernel.log,
        templates,
        netbootDefaultProfileId: () => kernel.settings.netboot().default_profile_id,
      });
      kernel.settings.addCheck('netboot', (value, field) => profiles.netbootDefaultErrors(value, field));
      const presence = (path: string) => bootFiles.files.presence(path);
      bootFiles.bootloaders.setProfileFileSource(async () => {
        const checks = [];
        for (const profile of profiles.all()) checks.push(...(await checkProfileFiles(profile, presence)));
        return checks;
      });
      const warningsFor = async (profile: Profile) => missingFileWarnings(await checkProfileFiles(profile, presence), bootFiles.files.root);
      return { facade: profiles, routes: [profileRoutes(profiles, warningsFor)], services: [] };
    },
  };
}
