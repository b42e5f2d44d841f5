import type { BootPreview, EntryScriptUpdate, EntryScriptView } from '@contracts/boot-scripts';
import type { ApiClient } from '../api-client.js';
import { segment } from '../query-string.js';

/** The boot scripts area's API (src-main/boot-scripts/boot-scripts-routes.ts), typed by its contract. */
export function bootScriptsClient(client: ApiClient) {
  return {
    /** What the host would receive if it booted now. */
    preview: (hostId: number): Promise<BootPreview> => client.get(`/hosts/${segment(hostId)}/boot-config`),
    entry: {
      get: (): Promise<EntryScriptView> => client.get('/services/ipxe-script'),
      /** {"script": …} replaces the template, {"reset": true} restores the built-in default. */
      update: (body: EntryScriptUpdate): Promise<EntryScriptView> => client.put('/services/ipxe-script', body),
    },
  };
}
