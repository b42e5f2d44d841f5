import type { ApiClient } from '../api-client.js';
import { alertsClient } from './alerts-client.js';
import { auditClient } from './audit-client.js';
import { authClient } from './auth-client.js';
import { baselinesClient } from './baselines-client.js';
import { baselineRunsClient } from './baseline-runs-client.js';
import { bootFilesClient } from './boot-files-client.js';
import { bootScriptsClient } from './boot-scripts-client.js';
import { dhcpClient } from './dhcp-client.js';
import { diagnosticsClient } from './diagnostics-client.js';
import { dnsClient } from './dns-client.js';
import { filesClient } from './files-client.js';
import { eventsClient } from './events-client.js';
import { hostsClient } from './hosts-client.js';
import { kitClient } from './kit-client.js';
import { logsClient } from './logs-client.js';
import { netbootClient } from './netboot-client.js';
import { networkClient } from './network-client.js';
import { nfsClient } from './nfs-client.js';
import { osImagesClient } from './os-images-client.js';
import { powerClient } from './power-client.js';
import { profilesClient } from './profiles-client.js';
import { scriptsClient } from './scripts-client.js';
import { servicesClient } from './services-client.js';
import { settingsClient } from './settings-client.js';
import { storeClient } from './store-client.js';
import { systemClient } from './system-client.js';
import { tftpClient } from './tftp-client.js';

/**
 * The typed API of the UI: one client per area (`api.dns.records.list(params)`),
 * each typed by its area's contract (@contracts/<area>), all over the one
 * ApiClient and its transport. Pages call these, never a raw path.
 */
export function createApi(client: ApiClient) {
  return {
    events: eventsClient(client),
    audit: auditClient(client),
    logs: logsClient(client),
    auth: authClient(client),
    services: servicesClient(client),
    settings: settingsClient(client),
    alerts: alertsClient(client),
    network: networkClient(client),
    system: systemClient(client),
    dns: dnsClient(client),
    bootFiles: bootFilesClient(client),
    tftp: tftpClient(client),
    profiles: profilesClient(client),
    hosts: hostsClient(client),
    bootScripts: bootScriptsClient(client),
    power: powerClient(client),
    dhcp: dhcpClient(client),
    netboot: netbootClient(client),
    diagnostics: diagnosticsClient(client),
    scripts: scriptsClient(client),
    baselines: baselinesClient(client),
    store: storeClient(client),
    baselineRuns: baselineRunsClient(client),
    kit: kitClient(client),
    osImages: osImagesClient(client),
    files: filesClient(client),
    nfs: nfsClient(client),
  };
}

export type Api = ReturnType<typeof createApi>;
