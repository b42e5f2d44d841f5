import type { Migration, StoreFileData } from './store-file.js';

/**
 * Ordered migrations per store file. Append, never edit: a file records the
 * version it reached and only later migrations run on it at start.
 */
export const STORE_MIGRATIONS: Record<StoreFileName, readonly Migration[]> = {
  config: [
    { version: 1, description: 'initial layout', up: () => undefined },
    { version: 2, description: "DNS's enabled flag becomes the dns service's auto-start flag", up: dnsEnabledToAutoStart },
    { version: 3, description: 'a DHCP subnet\'s router null (sent none) becomes "none"; null is the default (our address) now', up: dhcpRouterNullToNone },
    { version: 4, description: "hosts get boot_loader null (their group's or architecture's default loader)", up: hostsBootLoaderNull },
  ],
  auth: [{ version: 1, description: 'initial layout', up: () => undefined }],
  events: [{ version: 1, description: 'initial layout', up: () => undefined }],
  audit: [{ version: 1, description: 'initial layout', up: () => undefined }],
};

/**
 * The store's files: configuration apart from the hot collections, so event,
 * audit and session churn never rewrites the configuration.
 */
export type StoreFileName = 'config' | 'auth' | 'events' | 'audit';

export const STORE_FILE_NAMES: readonly StoreFileName[] = ['config', 'auth', 'events', 'audit'];

/**
 * The `dns` section stored its own `enabled` beside the service manager's
 * auto-start flag, and the API showed the first while TFTP showed the second.
 * The auto-start flag is the one truth now (services/settings-apply.ts): a
 * stored `enabled: false` (the server refused to start) becomes auto-start
 * off; `true` said nothing the flag does not, so it is dropped.
 */
function dnsEnabledToAutoStart(data: StoreFileData): void {
  const dns = data.sections['dns'];
  if (!isRecord(dns) || !('enabled' in dns)) return;
  const { enabled, ...rest } = dns;
  data.sections['dns'] = rest;
  if (enabled !== false) return;
  const services = isRecord(data.sections['services']) ? data.sections['services'] : {};
  const autoStart = isRecord(services['auto_start']) ? services['auto_start'] : {};
  data.sections['services'] = { ...services, auto_start: { ...autoStart, dns: false } };
}

/**
 * A subnet's `router: null` meant "send no option 3"; null now means the
 * default, our own address on the subnet (what dnsmasq sends, and what the
 * Debian installer needs to go on unattended). Stored subnets keep what they
 * sent before an upgrade: their null becomes the explicit "none".
 */
function dhcpRouterNullToNone(data: StoreFileData): void {
  const dhcp = data.sections['dhcp'];
  if (!isRecord(dhcp) || !Array.isArray(dhcp['subnets'])) return;
  data.sections['dhcp'] = {
    ...dhcp,
    subnets: dhcp['subnets'].map((subnet: unknown) => (isRecord(subnet) && subnet['router'] === null ? { ...subnet, router: 'none' } : subnet)),
  };
}

/** Hosts written before per-host boot loaders (issue 21) follow their group's or architecture's default. */
function hostsBootLoaderNull(data: StoreFileData): void {
  const hosts = data.collections['hosts'];
  if (!hosts) return;
  for (const row of hosts.items) {
    if (isRecord(row) && !('boot_loader' in row)) row['boot_loader'] = null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
