import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { normalizeMac } from '../core/mac.js';
import type { IpAddressTable } from './ip-addresses.js';
import { ipFamily, prefixFromNetmask, subnetOf } from './ip-math.js';
import type { NicLink } from './network-contract.js';
import type { Nic, NicAddress } from './nic.js';

/** What Linux reports for one link under /sys/class/net/<name>. */
export interface SysLink {
  name: string;
  mtu: number | null;
  /** RFC 2863 operational status: up, down, dormant, unknown, lowerlayerdown, … */
  operstate: string | null;
  /** The link's IFF_* flags (include/uapi/linux/if.h). */
  flags: number | null;
  address: string | null;
  /** /sys/class/net/<name>/carrier: true with a link, false without; null when unreadable (the kernel refuses it while the interface is down). */
  carrier: boolean | null;
}

type OsInterfaces = NodeJS.Dict<os.NetworkInterfaceInfo[]>;

const IFF_UP = 0x1;
const IFF_LOOPBACK = 0x8;
/** Kernel operstates that mean "usable" (Documentation/networking/operstates.rst); loopback and tun report unknown. */
const USABLE_OPERSTATES = new Set(['up', 'unknown']);
const SYS_NET = '/sys/class/net';
/** More links than any real host has; bounds the directory walk. */
const MAX_LINKS = 1024;

/** Operstates that mean "no link partner" (Documentation/networking/operstates.rst). */
const NO_LINK_OPERSTATES = new Set(['down', 'lowerlayerdown', 'notpresent', 'dormant']);

/**
 * The interfaces of this machine: os.networkInterfaces() plus, on Linux,
 * /sys/class/net, plus the kernel's address table from iproute2 when the
 * caller has one (the addresses of interfaces without a link; see ip-addresses.ts).
 */
export function readNics(ipAddresses: IpAddressTable | null = null): Nic[] {
  return buildNics(os.networkInterfaces(), process.platform === 'linux' ? readSysLinks() : null, ipAddresses);
}

/**
 * Reads every link in /sys/class/net. Links without addresses (up but not yet
 * configured) appear only here; os.networkInterfaces() lists only addresses.
 * Returns null when the directory is unreadable (containers without /sys).
 */
export function readSysLinks(root = SYS_NET): SysLink[] | null {
  let names: string[];
  try {
    names = readdirSync(root).sort().slice(0, MAX_LINKS);
  } catch {
    return null;
  }
  return names.map((name) => {
    const read = (file: string): string | null => {
      try {
        const text = readFileSync(path.join(root, name, file), 'utf8').trim();
        return text === '' ? null : text;
      } catch {
        return null;
      }
    };
    const mtu = read('mtu');
    const flags = read('flags');
    const carrier = read('carrier');
    return {
      name,
      mtu: mtu !== null && /^\d+$/.test(mtu) ? Number(mtu) : null,
      operstate: read('operstate'),
      flags: flags !== null && /^0x[0-9a-f]+$/i.test(flags) ? Number.parseInt(flags, 16) : null,
      address: read('address'),
      carrier: carrier === '1' ? true : carrier === '0' ? false : null,
    };
  });
}

/**
 * Merges the sources into one list, sorted by name. Without /sys data every
 * interface the OS lists is taken as up (it lists only running ones). The OS
 * leaves out interfaces without a link; their addresses come from
 * `ipAddresses` when given.
 */
export function buildNics(osInterfaces: OsInterfaces, sysLinks: readonly SysLink[] | null, ipAddresses: IpAddressTable | null = null): Nic[] {
  const sysByName = new Map((sysLinks ?? []).map((link) => [link.name, link]));
  const fromIp = [...(ipAddresses ?? new Map<string, NicAddress[]>()).entries()].filter(([, list]) => list.length > 0).map(([name]) => name);
  const names = new Set<string>([...Object.keys(osInterfaces), ...sysByName.keys(), ...fromIp]);
  const nics: Nic[] = [];
  for (const name of names) {
    const entries = osInterfaces[name] ?? [];
    const osAddresses = entries.map(toNicAddress).filter((a): a is NicAddress => a !== null);
    // Address labels such as eth0:1 are aliases of the link eth0.
    const link = sysByName.get(name) ?? sysByName.get(name.split(':')[0] ?? name);
    const first = entries[0];
    const mac = normalizeMac(link?.address ?? first?.mac ?? '');
    const internal = link?.flags != null ? (link.flags & IFF_LOOPBACK) !== 0 : (first?.internal ?? false);
    nics.push({
      name,
      mac,
      addresses: entries.length > 0 ? osAddresses : (ipAddresses?.get(name) ?? []),
      mtu: link?.mtu ?? null,
      up: link ? isLinkUp(link) : entries.length > 0,
      link: link ? linkState(link) : entries.length > 0 ? 'up' : 'unknown',
      internal,
    });
  }
  return nics.sort((a, b) => a.name.localeCompare(b.name));
}

function isLinkUp(link: SysLink): boolean {
  if (link.flags !== null && (link.flags & IFF_UP) === 0) return false;
  return link.operstate === null || USABLE_OPERSTATES.has(link.operstate);
}

function linkState(link: SysLink): NicLink {
  if (link.flags !== null && (link.flags & IFF_UP) === 0) return 'down';
  if (link.carrier !== null) return link.carrier ? 'up' : 'down';
  if (link.operstate === 'up') return 'up';
  if (link.operstate !== null && NO_LINK_OPERSTATES.has(link.operstate)) return 'down';
  return 'unknown';
}

function toNicAddress(entry: os.NetworkInterfaceInfo): NicAddress | null {
  const family = ipFamily(entry.address);
  if (!family) return null;
  const prefix = cidrPrefix(entry.cidr) ?? prefixFromNetmask(entry.netmask);
  if (prefix === null) return null;
  return { address: entry.address, family, prefix, cidr: `${entry.address}/${prefix}`, subnet: subnetOf(entry.address, prefix).cidr };
}

function cidrPrefix(cidr: string | null): number | null {
  const text = cidr?.split('/')[1];
  return text !== undefined && /^\d{1,3}$/.test(text) ? Number(text) : null;
}
