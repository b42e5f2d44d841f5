import ipaddr from 'ipaddr.js';

/*
 * Client-side checks that mirror the API's rules closely enough to catch
 * typing mistakes before a round trip. The server stays the judge: its
 * field errors are shown at the same fields (components/form-errors.ts).
 */

export function isIPv4(value: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(value.trim());
}

export function isIPv6(value: string): boolean {
  return ipaddr.IPv6.isValid(value.trim()) && value.includes(':');
}

/** A CIDR with its host bits zero, e.g. 192.168.1.0/24. */
export function isNetworkCidr(value: string): boolean {
  try {
    const [address, prefix] = ipaddr.parseCIDR(value.trim());
    const network = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(value.trim()) : ipaddr.IPv6.networkAddressFromCIDR(value.trim());
    return prefix >= 0 && network.toString() === address.toString();
  } catch {
    return false;
  }
}

/** The API's MAC spellings: colon or dash pairs, Cisco dotted, or 12 bare hex digits. */
const MAC_PATTERN = /^([0-9A-Fa-f]{2}([:-])){5}[0-9A-Fa-f]{2}$|^[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}$|^[0-9A-Fa-f]{12}$/;

export function isMac(value: string): boolean {
  return MAC_PATTERN.test(value.trim());
}

/** An upstream DNS entry: IPv4[:port], [IPv6]:port or a bare IPv6 address; null when fine, else why not. */
export function upstreamEntryProblem(entry: string): string | null {
  const text = entry.trim();
  if (text === '') return 'Enter an address';
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    if (!isIPv6(bracketed[1] ?? '')) return `"${bracketed[1]}" is not an IPv6 address`;
    return portProblem(bracketed[2]);
  }
  if (isIPv6(text)) return null;
  const [host, port, extra] = text.split(':');
  if (extra !== undefined) return 'Write IPv6 addresses as [address]:port';
  if (!isIPv4(host ?? '')) return `"${host}" is not an IP address (host names cannot be used: DNS would need DNS)`;
  return portProblem(port);
}

function portProblem(port: string | undefined): string | null {
  if (port === undefined) return null;
  const n = Number(port);
  return /^\d+$/.test(port) && n >= 1 && n <= 65535 ? null : `port "${port}" must be 1–65535`;
}

/** The API's upstream string as a list of entries (commas or whitespace separate them). */
export function splitUpstream(upstream: string): string[] {
  return upstream.split(/[\s,]+/).filter((entry) => entry !== '');
}

/** RFC 1123 host name (labels of letters, digits, inner hyphens). */
export function isHostname(value: string): boolean {
  const name = value.trim().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return false;
  return name.split('.').every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label));
}

/** Mantine form validator helpers: a message or null. */
export const required = (label: string) => (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '') ? `${label} is required` : null;
