import type { Nic } from '../../../src-main/network/nic.js';
import type { HostDirectory, PowerHost } from '../../../src-main/power/host-directory.js';

function nic(name: string, mac: string | null, cidrs: string[], options: { up?: boolean; internal?: boolean } = {}): Nic {
  return {
    name,
    mac,
    mtu: 1500,
    up: options.up ?? true,
    link: options.up === false ? 'down' : 'up',
    internal: options.internal ?? false,
    addresses: cidrs.map((cidr) => {
      const [address, prefixText] = cidr.split('/') as [string, string];
      const prefix = Number(prefixText);
      const family = address.includes(':') ? ('ipv6' as const) : ('ipv4' as const);
      const subnet = family === 'ipv4' ? `${networkOf(address, prefix)}/${prefix}` : `${address}/${prefix}`;
      return { address, family, prefix, cidr, subnet };
    }),
  };
}

function networkOf(address: string, prefix: number): string {
  const value = address.split('.').reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const network = (value & mask) >>> 0;
  return [24, 16, 8, 0].map((shift) => (network >>> shift) & 0xff).join('.');
}

/** Documentation subnets (RFC 5737): nothing is ever sent to them in unit tests (the transport is fake). */
export const POWER_NICS: Nic[] = [
  nic('lo', null, ['127.0.0.1/8'], { internal: true }),
  nic('eth0', '02:00:00:00:00:01', ['192.0.2.1/24', 'fe80::1/64']),
  nic('eth1', '02:00:00:00:00:02', ['198.51.100.1/24', '198.51.100.129/25']),
  nic('eth2', '02:00:00:00:00:03', ['203.0.113.1/24'], { up: false }),
  nic('p2p', null, ['10.255.255.1/31']),
];

/** A host directory over a fixed list. */
export function fixedHosts(hosts: PowerHost[]): HostDirectory {
  return {
    get: (id) => hosts.find((host) => host.id === id),
    findByMac: (mac) => hosts.find((host) => host.mac === mac),
  };
}
