import type { ApiClient } from '../api-client.js';
import { bootFilesClient } from './boot-files-client.js';
import { dhcpClient } from './dhcp-client.js';
import { dnsClient } from './dns-client.js';
import { bootScriptsClient } from './boot-scripts-client.js';
import { hostsClient } from './hosts-client.js';
import { profilesClient } from './profiles-client.js';
import { tftpClient } from './tftp-client.js';
import { powerClient } from './power-client.js';

/**
 * The typed API of the UI: one client per area (`api.dns.records.list(params)`),
 * each typed by its area's contract (@contracts/<area>), all over the one
 * ApiClient and its transport. Pages call these, never a raw path.
 */
export function createApi(client: ApiClient) {
  return {
    dns: dnsClient(client),
    bootFiles: bootFilesClient(client),
    tftp: tftpClient(client),
    profiles: profilesClient(client),
    hosts: hostsClient(client),
    bootScripts: bootScriptsClient(client),
    power: powerClient(client),
    dhcp: dhcpClient(client),
  };
}

export type Api = ReturnType<typeof createApi>;
