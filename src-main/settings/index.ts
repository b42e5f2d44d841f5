import type { AreaModule } from '../core/area.js';
import { servedRootsRoutes } from './served-roots-routes.js';
import { settingsRoutes } from './settings-routes.js';
import type { SettingsService } from './settings-service.js';

export { SettingsService, type SettingsListener, type SettingsUpdateOptions } from './settings-service.js';
export { applyLoggingSettings } from './apply-logging-settings.js';
export {
  ADMIN_ONLY_FIELDS,
  SETTINGS_SECTIONS,
  SECTION_PATCH_SCHEMAS,
  SECTION_SCHEMAS,
  settingsDefaults,
  type GeneralSettings,
  type InterfacesSettings,
  type LoggingSettings,
  type NetbootSettings,
  type SettingsPatch,
  type SettingsSectionName,
  type SettingsValues,
} from './settings-contract.js';
export { settingsRoutes, type SettingsRouteDeps } from './settings-routes.js';
export { servedRootsRoutes } from './served-roots-routes.js';

/**
 * The settings area (docs/settings-and-status.md): the facade is the
 * kernel's SettingsService; the routes are /settings (all sections and each
 * one) and /settings/served-roots.
 */
export function settingsArea(): AreaModule<'settings', SettingsService, Record<string, never>> {
  return {
    name: 'settings',
    needs: [],
    create(kernel) {
      return { facade: kernel.settings, routes: [settingsRoutes(kernel), servedRootsRoutes(kernel.servedRoots)], services: [] };
    },
  };
}
