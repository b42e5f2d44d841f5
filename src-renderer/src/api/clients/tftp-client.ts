import type { TftpSettingsUpdate, TftpSettingsView } from '@contracts/tftp';
import type { ApiClient } from '../api-client.js';

/** The TFTP area's API (src-main/tftp/tftp-routes.ts), typed by its contract. */
export function tftpClient(client: ApiClient) {
  return {
    settings: {
      get: (): Promise<TftpSettingsView> => client.get('/services/tftp'),
      update: (patch: TftpSettingsUpdate): Promise<TftpSettingsView> => client.put('/services/tftp', patch),
    },
  };
}
