import type { ApiClient } from '../api-client.js';
import { dhcpClient } from './dhcp-client.js';
import { dnsClient } from './dns-client.js';

/**
 * The typed API of the UI: one client per area (`api.dns.records.list(params)`),
 * each typed by its area's contract (@contracts/<area>), all over the one
 * ApiClient and its transport. Pages call these, never a raw path.
 */
export function createApi(client: ApiClient) {
  return {
    dns: dnsClient(client),
    dhcp: dhcpClient(client),
  };
}

export type Api = ReturnType<typeof createApi>;
