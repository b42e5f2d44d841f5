import { ipFamily, parseSubnet, subnetContains, unmapIpv4 } from '../network/ip-math.js';
import type { NetworkService } from '../network/network-service.js';
import { endpointAt, type HttpEndpoint } from './server-endpoint.js';

/** Our address on one subnet a machine may boot from, and the entry URL it would be told there. */
export interface PreviewServer {
  interface: string | null;
  subnet: string;
  address: string;
  entry_url: string;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/**
 * The server addresses a machine's boot would use, for the boot-config
 * preview: the one on the machine's subnet when its address is known, else
 * one per subnet it may boot from — every served IPv4 subnet plus those of
 * the DHCP interfaces (also when their link is down: the technician looks at
 * the preview before plugging the cable in, and 127.0.0.1 helps nobody).
 */
export function previewServers(
  clientIp: string | null,
  network: Pick<NetworkService, 'served' | 'list'>,
  dhcpInterfaces: readonly string[],
  http: HttpEndpoint,
): PreviewServer[] {
  const port = http.port();
  const fixed = WILDCARDS.has(http.listenHost) ? null : http.listenHost;
  const bySubnet = new Map<string, PreviewServer>();
  const add = (iface: string, subnet: string, address: string) => {
    if (bySubnet.has(subnet)) return;
    const ip = fixed ?? address;
    bySubnet.set(subnet, { interface: iface, subnet, address: ip, entry_url: endpointAt(ip, port, http.scheme).entry_url });
  };
  for (const nic of network.served()) for (const subnet of nic.ipv4) add(nic.name, subnet.subnet, subnet.address);
  for (const name of dhcpInterfaces) {
    const nic = network.list().find((candidate) => candidate.name === name);
    for (const address of nic?.addresses ?? []) if (address.family === 'ipv4') add(name, address.subnet, address.address);
  }
  const all = [...bySubnet.values()];
  const client = clientIp === null ? null : unmapIpv4(clientIp);
  if (client === null || ipFamily(client) !== 'ipv4') return all;
  const home = all.find((entry) => subnetContains(parseSubnet(entry.subnet), client));
  return home ? [home] : all;
}
