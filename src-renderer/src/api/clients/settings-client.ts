import type {
  GeneralSettings,
  GeneralSettingsPatchData,
  InterfacesSettingsPatchData,
  InterfacesSettingsView,
  LoggingSettings,
  LoggingSettingsPatchData,
  NetbootSettings,
  NetbootSettingsPatchData,
} from '@contracts/settings';
import type { ApiClient } from '../api-client.js';

/** One settings section: GET and PUT /settings/<name>. */
function section<View, Patch>(client: ApiClient, name: string) {
  return {
    get: (): Promise<View> => client.get(`/settings/${name}`),
    update: (patch: Patch): Promise<View> => client.put(`/settings/${name}`, patch),
  };
}

/** The settings area's API (src-main/settings/settings-routes.ts), typed by its contract. */
export function settingsClient(client: ApiClient) {
  return {
    general: section<GeneralSettings, GeneralSettingsPatchData>(client, 'general'),
    /** With the detected interfaces and resolved addresses (read-only). */
    interfaces: section<InterfacesSettingsView, InterfacesSettingsPatchData>(client, 'interfaces'),
    netboot: section<NetbootSettings, NetbootSettingsPatchData>(client, 'netboot'),
    logging: section<LoggingSettings, LoggingSettingsPatchData>(client, 'logging'),
  };
}
