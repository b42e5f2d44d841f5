import { execFile } from 'node:child_process';
import { ipFamily, subnetOf } from './ip-math.js';
import type { NicAddress } from './nic.js';

/*
 * The addresses of every interface as the kernel holds them, from
 * `ip -json address show`. os.networkInterfaces() (libuv) leaves out every
 * interface that is not IFF_RUNNING, so an interface with an address but no
 * carrier (a cable unplugged, a bridge whose only port is a tap without a
 * running VM) looks address-less there: DHCP would say "no IPv4 address"
 * instead of "no link", and could not bind the address in advance to answer
 * the first DISCOVER the moment the link comes up.
 */

/** Addresses per interface name (IPv4 ones under their label, e.g. eth0:1, as os.networkInterfaces() names them). */
export type IpAddressTable = Map<string, NicAddress[]>;

/** Reads `ip -json address show` output; entries it cannot read are skipped. */
export function parseIpAddressJson(text: string): IpAddressTable {
  const table: IpAddressTable = new Map();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return table;
  }
  if (!Array.isArray(value)) return table;
  for (const link of value as unknown[]) {
    if (!link || typeof link !== 'object') continue;
    const { ifname, addr_info: infos } = link as { ifname?: unknown; addr_info?: unknown };
    if (typeof ifname !== 'string' || !Array.isArray(infos)) continue;
    if (!table.has(ifname)) table.set(ifname, []);
    for (const info of infos as unknown[]) {
      if (!info || typeof info !== 'object') continue;
      const { local, prefixlen, label } = info as { local?: unknown; prefixlen?: unknown; label?: unknown };
      if (typeof local !== 'string' || typeof prefixlen !== 'number' || !Number.isInteger(prefixlen)) continue;
      const family = ipFamily(local);
      if (!family || prefixlen < 0 || prefixlen > (family === 'ipv4' ? 32 : 128)) continue;
      const name = family === 'ipv4' && typeof label === 'string' && label !== '' ? label : ifname;
      const list = table.get(name) ?? [];
      list.push({ address: local, family, prefix: prefixlen, cidr: `${local}/${prefixlen}`, subnet: subnetOf(local, prefixlen).cidr });
      table.set(name, list);
    }
  }
  return table;
}

/** Runs `ip -json address show` (no shell); null when it fails. */
export function readIpAddresses(ipPath: string, timeoutMs = 5_000): Promise<IpAddressTable | null> {
  return new Promise((resolve) => {
    execFile(ipPath, ['-json', 'address', 'show'], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return resolve(null);
      resolve(parseIpAddressJson(String(stdout)));
    });
  });
}
