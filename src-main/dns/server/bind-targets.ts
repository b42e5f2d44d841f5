import { isIpv6LinkLocal } from '../../network/ip-math.js';
import type { NetworkService } from '../../network/network-service.js';
import type { BindTarget } from './dns-listeners.js';

/**
 * The addresses of the served interfaces: each NIC address (IPv6 link-local
 * ones aside: they need a scope and fe80::/64 is on every link). Binding to
 * the addresses rather than the wildcard leaves port 53 on other addresses
 * (systemd-resolved's 127.0.0.53, a libvirt dnsmasq) to their owners.
 */
export function bindTargets(network: NetworkService): BindTarget[] {
  const served = new Set(network.served().map((nic) => nic.name));
  const targets: BindTarget[] = [];
  const seen = new Set<string>();
  for (const nic of network.list()) {
    if (!served.has(nic.name)) continue;
    const firstIpv4 = nic.addresses.find((address) => address.family === 'ipv4')?.address ?? null;
    for (const address of nic.addresses) {
      if (address.family === 'ipv6' && isIpv6LinkLocal(address.address)) continue;
      if (seen.has(address.address)) continue;
      seen.add(address.address);
      targets.push({
        address: address.address,
        family: address.family === 'ipv6' ? 6 : 4,
        fallbackIpv4: address.family === 'ipv4' ? address.address : firstIpv4,
      });
    }
  }
  return targets;
}
