/**
 * IPv4 addresses as unsigned 32-bit integers: the lease tables and the pool
 * allocator index by number (cheaper than strings on the per-packet path).
 */

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
