import { ipFamily } from '../network/ip-math.js';

/**
 * Where a BMC may be: an IPv4 or IPv6 literal, or a host name by the
 * RFC 1123 §2.1 grammar (labels of 1–63 letters, digits and hyphens, not
 * starting or ending with a hyphen; at most 253 characters in all). Anything
 * else — control characters, spaces, '/', '@', non-ASCII — never reaches a
 * socket or an HTTP request line, where Node would throw on it.
 */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
export const HOSTNAME_MAX = 253;

export function isValidBmcAddress(address: string): boolean {
  if (ipFamily(address) !== null) return true;
  return address.length <= HOSTNAME_MAX && HOSTNAME.test(address);
}

/** Why `address` is refused, or null when it is fine (for field errors). */
export function bmcAddressProblem(address: string): string | null {
  if (address === '') return 'is required';
  if (isValidBmcAddress(address)) return null;
  // JSON quoting shows control characters as escapes instead of printing them into logs.
  return `${JSON.stringify(address.slice(0, 80))} is not an IPv4/IPv6 address or a host name (RFC 1123: letters, digits, '-' and '.', labels of 1–63 characters, at most ${HOSTNAME_MAX} in all)`;
}

export function isValidPort(port: unknown): port is number {
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535;
}
