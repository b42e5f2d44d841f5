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
} from './settings-schemas.js';
