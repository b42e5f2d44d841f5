import { ipFamily, unmapIpv4 } from '../network/ip-math.js';
import type { HttpEndpoint } from '../core/http-kit/http-endpoint.js';
import type { NetworkService } from '../network/network-service.js';
import type { ServerEndpoint } from '../profiles/template-context.js';

/** Path prefix of boot files and generated scripts on the main HTTP port (served by the boot-files area). */
export const BOOT_HTTP_PREFIX = '/boot';
/** The entry script every iPXE client is told to fetch (relative to the boot root). */
export const ENTRY_SCRIPT_PATH = 'ipxe/entry.ipxe';
/** The per-machine boot script; the entry script chains here with the machine's identity in the query. */
export const HOST_SCRIPT_PATH = 'ipxe/boot.ipxe';

export type { HttpEndpoint } from '../core/http-kit/http-endpoint.js';
/** The template variable `server`, defined with the other template variables (profiles/template-context.ts). */
export type { ServerEndpoint } from '../profiles/template-context.js';

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/**
 * Our address for a client at `clientIp`, in this order:
 * 1. the listen address when it is a specific one (it is the only one we answer on);
 * 2. our address on the client's served subnet (settings overrides first);
 * 3. the client's own address when it is loopback (it runs on this machine);
 * 4. our first served IPv4 address; else 127.0.0.1.
 */
export function serverAddressFor(
  clientIp: string,
  network: Pick<NetworkService, 'serverAddressFor' | 'served'>,
  http: HttpEndpoint,
): string {
  if (!WILDCARDS.has(http.listenHost)) return http.listenHost;
  const client = unmapIpv4(clientIp);
  const onSubnet = ipFamily(client) ? network.serverAddressFor(client) : null;
  if (onSubnet) return onSubnet;
  if (client === '::1' || client.startsWith('127.')) return client;
  for (const nic of network.served()) {
    const first = nic.ipv4[0];
    if (first) return first.address;
  }
  return '127.0.0.1';
}

export function serverEndpointFor(
  clientIp: string,
  network: Pick<NetworkService, 'serverAddressFor' | 'served'>,
  http: HttpEndpoint,
): ServerEndpoint {
  return endpointAt(serverAddressFor(clientIp, network, http), http.port(), http.scheme);
}

/** The URLs of the HTTP server at our address `ip`. */
export function endpointAt(ip: string, port: number, scheme: HttpEndpoint['scheme']): ServerEndpoint {
  const host = ipFamily(ip) === 'ipv6' ? `[${ip}]` : ip;
  const base = `${scheme}://${host}:${port}`;
  const boot = `${base}${BOOT_HTTP_PREFIX}`;
  return { ip, http_port: port, base_url: base, boot_url: boot, entry_url: `${boot}/${ENTRY_SCRIPT_PATH}`, script_url: `${boot}/${HOST_SCRIPT_PATH}` };
}
