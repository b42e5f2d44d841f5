/**
 * DNS names as Bootwright stores and compares them: lowercase, no trailing
 * dot, labels of letters, digits, hyphens and underscores (RFC 1123 §2.1 host
 * names plus the underscore of service labels such as `_acme-challenge`).
 * Names are case-insensitive (RFC 4343), so everything is folded to lowercase.
 */

/** Longest name in presentation form without the trailing dot (RFC 1035 §2.3.4: 255 octets on the wire). */
export const MAX_NAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

/** The apex of the local domain in the records' `name` field. */
export const APEX = '@';

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** Why `label` is not a valid label, or null. */
export function labelProblem(label: string): string | null {
  if (label.length === 0) return 'has an empty label (two dots in a row, or a leading dot)';
  if (label.length > MAX_LABEL_LENGTH) return `label "${label}" is longer than ${MAX_LABEL_LENGTH} characters`;
  if (!LABEL.test(label)) {
    return `label "${label}" may hold only letters, digits, hyphens and underscores, and may not start or end with a hyphen`;
  }
  return null;
}

/** Why the dotted `name` (lowercase, no trailing dot) is not a valid domain name, or null. */
export function domainProblem(name: string): string | null {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_NAME_LENGTH) return `is longer than ${MAX_NAME_LENGTH} characters`;
  for (const label of name.split('.')) {
    const problem = labelProblem(label);
    if (problem) return problem;
  }
  return null;
}

/** Lowercase and without one trailing dot. */
export function canonicalName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * The absolute name of a record's `name` field: `@` is the local domain, a
 * name ending in `.` is absolute, anything else is relative to the local
 * domain (zone-file semantics, RFC 1035 §5.1).
 */
export function recordFqdn(name: string, localDomain: string): string {
  if (name === APEX) return localDomain;
  if (name.endsWith('.')) return canonicalName(name);
  return `${name.toLowerCase()}.${localDomain}`;
}

/**
 * The absolute name a CNAME or MX `value` points at: `@` is the local domain,
 * a single label (`pxe`) is a host in the local domain, and a dotted name is
 * absolute whether or not it ends in `.` (what people type for a target).
 */
export function targetFqdn(value: string, localDomain: string): string {
  if (value === APEX) return localDomain;
  const name = canonicalName(value);
  return name.includes('.') ? name : `${name}.${localDomain}`;
}

/** True when `fqdn` is the domain itself or a name below it. */
export function inDomain(fqdn: string, domain: string): boolean {
  return fqdn === domain || fqdn.endsWith(`.${domain}`);
}

/**
 * The PTR owner name of an IPv4 address (RFC 1035 §3.5): 192.0.2.10 is
 * 10.2.0.192.in-addr.arpa.
 */
export function reverseName(ipv4: string): string {
  return `${ipv4.split('.').reverse().join('.')}.in-addr.arpa`;
}
