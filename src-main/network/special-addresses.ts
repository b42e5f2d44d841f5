import ipaddr from 'ipaddr.js';
import { ipFamily } from './ip-math.js';

/**
 * Addresses that never name one machine, so they are no value for a DNS A or
 * AAAA record nor a reserved client address: the unspecified address
 * (0.0.0.0/8, "this network", RFC 1122 §3.2.1.3; `::`, RFC 4291 §2.5.2), the
 * limited broadcast 255.255.255.255 (RFC 919) and multicast (224.0.0.0/4,
 * RFC 5771; ff00::/8, RFC 4291 §2.7).
 */
const NOT_ONE_MACHINE: Record<string, string> = {
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
};

/** Why the strictly spelled IP literal `text` cannot name one machine, or null (also null for a non-address). */
export function notOneMachineProblem(text: string): string | null {
  if (ipFamily(text) === null) return null;
  const address = ipaddr.parse(text);
  // ipaddr.js's "unspecified" range is all of 0.0.0.0/8 for IPv4.
  const what = NOT_ONE_MACHINE[address.range()];
  return what ? `${text} is ${what}, not one machine's` : null;
}
