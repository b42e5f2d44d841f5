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
  if (subnet.family !== 'ipv4' || subnet.prefix >= 31) return true;
  const normalized = normalizeIp(address);
  const broadcast = ipaddr.IPv4.broadcastAddressFromCIDR(`${subnet.network}/${subnet.prefix}`).toString();
  return normalized !== subnet.network && normalized !== broadcast;
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
