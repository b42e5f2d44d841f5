import type os from 'node:os';
import type { Nic } from '../../../src-main/network/nic.js';
import type { SysLink } from '../../../src-main/network/nic-reader.js';

type OsEntry = os.NetworkInterfaceInfo;

function v4(address: string, netmask: string, mac: string, internal = false): OsEntry {
  const prefix = netmask.split('.').reduce((bits, octet) => bits + Number(octet).toString(2).replace(/0/g, '').length, 0);
  return { address, netmask, family: 'IPv4', mac, internal, cidr: `${address}/${prefix}` };
}

function v6(address: string, prefix: number, mac: string, internal = false): OsEntry {
  return { address, netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac, internal, cidr: `${address}/${prefix}`, scopeid: 0 };
}

/** os.networkInterfaces() of a PXE server with two LANs, as Node reports it on Linux. */
export const OS_INTERFACES: NodeJS.Dict<OsEntry[]> = {
  lo: [v4('127.0.0.1', '255.0.0.0', '00:00:00:00:00:00', true), v6('::1', 128, '00:00:00:00:00:00', true)],
  eth0: [
    v4('192.168.10.2', '255.255.255.0', '52:54:00:AA:BB:01'),
    v6('fd00:10::2', 64, '52:54:00:AA:BB:01'),
    v6('fe80::5054:ff:feaa:bb01', 64, '52:54:00:AA:BB:01'),
  ],
  'eth0:1': [v4('10.20.0.1', '255.255.0.0', '52:54:00:AA:BB:01')],
  eth2: [v4('172.16.5.9', '255.255.255.0', '52:54:00:aa:bb:03')],
};

/** /sys/class/net of the same machine: eth1 is up but has no address yet, wlan0 is down (no carrier), eth2 is administratively down (carrier unreadable). */
export const SYS_LINKS: SysLink[] = [
  { name: 'eth0', mtu: 9000, operstate: 'up', flags: 0x1003, address: '52:54:00:aa:bb:01', carrier: true },
  { name: 'eth1', mtu: 1500, operstate: 'up', flags: 0x1003, address: '52:54:00:aa:bb:02', carrier: true },
  { name: 'eth2', mtu: 1500, operstate: 'down', flags: 0x1002, address: '52:54:00:aa:bb:03', carrier: null },
  { name: 'lo', mtu: 65536, operstate: 'unknown', flags: 0x9, address: '00:00:00:00:00:00', carrier: true },
  { name: 'wg0', mtu: 1420, operstate: 'unknown', flags: 0x91, address: null, carrier: null },
  { name: 'wlan0', mtu: 1500, operstate: 'dormant', flags: 0x1003, address: '52:54:00:aa:bb:04', carrier: false },
];

/** A NIC for the pure-logic tests. */
export function nic(name: string, addresses: [address: string, prefix: number, subnet: string][], extra: Partial<Nic> = {}): Nic {
  return {
    name,
    mac: '52:54:00:00:00:01',
    mtu: 1500,
    up: true,
    link: 'up',
    internal: false,
    addresses: addresses.map(([address, prefix, subnet]) => ({
      address,
      family: address.includes(':') ? 'ipv6' : 'ipv4',
      prefix,
      cidr: `${address}/${prefix}`,
      subnet,
    })),
    ...extra,
  };
}
