import { isValidBmcAddress } from '../power/bmc-address.js';
import { ipFamily } from '../network/ip-math.js';
import { TARGET_MAX_LENGTH } from './diagnostics-contract.js';

/**
 * Why `target` may not be handed to ping/traceroute, or null when it may.
 * The grammar is the BMC address check's (an IP literal or an RFC 1123 host
 * name): no leading '-' (it would read as an option), no spaces, quotes,
 * shell characters or control characters. IPv6 zone ids ("%eth0") are
 * refused: Node's isIP accepts any text after the '%'.
 */
export function targetProblem(target: string): string | null {
  if (target === '') return 'is required';
  const shown = JSON.stringify(target.slice(0, 80));
  if (target.length > TARGET_MAX_LENGTH) return `is longer than ${TARGET_MAX_LENGTH} characters`;
  if (target.includes('%')) return `${shown}: IPv6 zone ids are not accepted`;
  if (!isValidBmcAddress(target)) {
    return `${shown} is not an IPv4/IPv6 address or a host name (RFC 1123: letters, digits, '-' and '.', labels of 1–63 characters)`;
  }
  return null;
}

/** 4 or 6 for an IP literal, null for a host name. */
export function literalFamily(target: string): 4 | 6 | null {
  const family = ipFamily(target);
  return family === 'ipv4' ? 4 : family === 'ipv6' ? 6 : null;
}
