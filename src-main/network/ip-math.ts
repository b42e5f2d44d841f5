/**
 * The one IPv4/CIDR module. Two forms of the same arithmetic:
 * - text addresses of both families (RFC 4632, RFC 4291), for settings,
 *   validation and interfaces: strict parsing, canonical spelling, messages;
 * - IPv4 as unsigned 32-bit integers, for the DHCP lease tables, the pool
 *   allocator and the per-packet path, where numbers are cheaper than strings.
 * The host-address rule (network, broadcast, RFC 3021 /31) lives once, in the
 * numeric form, and the text form calls it.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type IpFamily = 'ipv4' | 'ipv6';

/** A parsed subnet in CIDR notation (RFC 4632 for IPv4, RFC 4291 §2.3 for IPv6). */
export interface Subnet {
  family: IpFamily;
  /** The network address, normalised (IPv6 in RFC 5952 form). */
  network: string;
  prefix: number;
  /** `network/prefix`, the canonical spelling used as a key. */
  cidr: string;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Family of a strictly spelled IP address, or null. node:net is strict where
 * ipaddr.js is lenient (it accepts "127.1" and "0x7f.0.0.1" as IPv4).
 */
export function ipFamily(text: string): IpFamily | null {
  const version = isIP(text);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/** The address in its canonical text form (IPv6 per RFC 5952), or null when it is no strict IP literal. */
export function normalizeIp(text: string): string | null {
  const family = ipFamily(text);
  if (!family) return null;
  return format(ipaddr.parse(text));
}

/**
 * The IPv4 address a dual-stack socket reports as "::ffff:a.b.c.d" (RFC 4291
 * §2.5.5.2) is the IPv4 client it stands for; everything else is unchanged.
 */
export function unmapIpv4(text: string): string {
  if (ipFamily(text) !== 'ipv6') return text;
  const parsed = ipaddr.IPv6.parse(text);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : text;
}

/** Parses "a.b.c.d/len" or "x::/len"; the host bits must be zero. Throws Error with a readable message. */
export function parseSubnet(text: string): Subnet {
  const slash = text.indexOf('/');
  if (slash < 0) throw new Error(`"${text}" is not in CIDR notation (address/prefix-length)`);
  const base = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  const family = ipFamily(base);
  if (!family) throw new Error(`"${base}" is not an IPv4 or IPv6 address`);
  const max = family === 'ipv4' ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) {
    throw new Error(`prefix length "${prefixText}" must be an integer from 0 to ${max}`);
  }
  const prefix = Number(prefixText);
  const network = networkAddress(base, prefix);
  if (network !== format(ipaddr.parse(base))) {
    throw new Error(`"${text}" has host bits set; the subnet is ${network}/${prefix}`);
  }
  return { family, network, prefix, cidr: `${network}/${prefix}` };
}

/** The subnet an interface address with this prefix length belongs to. */
export function subnetOf(address: string, prefix: number): Subnet {
  const family = ipFamily(address);
  if (!family) throw new Error(`"${address}" is not an IPv4 or IPv6 address`);
  const network = networkAddress(address, prefix);
  return { family, network, prefix, cidr: `${network}/${prefix}` };
}

export function subnetContains(subnet: Subnet, address: string): boolean {
  const family = ipFamily(address);
  if (family !== subnet.family) return false;
  return ipaddr.parse(address).match(ipaddr.parse(subnet.network), subnet.prefix);
}

/**
 * True when `address` can be a host's address in `subnet`: inside it, and for
 * IPv4 prefixes up to /30 neither the network nor the broadcast address
 * (RFC 3021 lets /31 use both).
 */
export function isHostAddressIn(subnet: Subnet, address: string): boolean {
  if (!subnetContains(subnet, address)) return false;
  if (subnet.family !== 'ipv4') return true;
  // A Subnet's cidr is canonical with zero host bits (parseSubnet, subnetOf), so it always parses.
  const numeric = parseIpv4Subnet(subnet.cidr);
  return numeric !== null && isHostIn(numeric, ipv4ToInt(address));
}

/** Prefix length of a dotted or IPv6 netmask (as os.networkInterfaces() reports it), or null. */
export function prefixFromNetmask(netmask: string): number | null {
  if (!ipFamily(netmask)) return null;
  return ipaddr.parse(netmask).prefixLengthFromSubnetMask();
}

/** IPv6 link-local (fe80::/10, RFC 4291 §2.5.6): the same subnet on every link, so no subnet of ours. */
export function isIpv6LinkLocal(address: string): boolean {
  return ipFamily(address) === 'ipv6' && ipaddr.IPv6.parse(address).range() === 'linkLocal';
}

function networkAddress(address: string, prefix: number): string {
  const cidr = `${address}/${prefix}`;
  const parsed: Address =
    ipFamily(address) === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  return format(parsed);
}

function format(address: Address): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
}

// IPv4 as unsigned 32-bit integers: the lease tables and the pool allocator index by number.

const DOTTED = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The address as a uint32, or null when `text` is no strict dotted quad. */
export function parseIpv4(text: string): number | null {
  const m = DOTTED.exec(text);
  if (!m) return null;
  return ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
}

/** Like parseIpv4 but throws (for values validated earlier). */
export function ipv4ToInt(text: string): number {
  const value = parseIpv4(text);
  if (value === null) throw new Error(`"${text}" is not an IPv4 address`);
  return value;
}

export function intToIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

export function isIpv4(text: string): boolean {
  return parseIpv4(text) !== null;
}

/** The netmask of a prefix length as a uint32 (prefix 0 → 0). */
export function prefixMask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** A parsed IPv4 subnet with its network and broadcast as numbers. */
export interface Ipv4Subnet {
  cidr: string;
  network: number;
  prefix: number;
  mask: number;
  broadcast: number;
}

/** Parses "a.b.c.d/len" with zero host bits; returns null when it is not one. */
export function parseIpv4Subnet(text: string): Ipv4Subnet | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const network = parseIpv4(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (network === null || !/^\d{1,2}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > 32) return null;
  const mask = prefixMask(prefix);
  if (((network & mask) >>> 0) !== network) return null;
  return { cidr: `${intToIpv4(network)}/${prefix}`, network, prefix, mask, broadcast: (network | ~mask) >>> 0 };
}

export function subnetHas(subnet: Ipv4Subnet, address: number): boolean {
  return ((address & subnet.mask) >>> 0) === subnet.network;
}

/** Inside the subnet and, up to /30, neither its network nor its broadcast address (RFC 3021 lets /31 use both). */
export function isHostIn(subnet: Ipv4Subnet, address: number): boolean {
  if (!subnetHas(subnet, address)) return false;
  if (subnet.prefix >= 31) return true;
  return address !== subnet.network && address !== subnet.broadcast;
}
