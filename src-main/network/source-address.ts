import ipaddr from 'ipaddr.js';

/**
 * The "source" a request is counted under by per-source limits: an IPv4
 * address as is, an IPv6 address as its /64. One IPv6 host usually holds a
 * whole /64 (SLAAC, privacy addresses), so counting single IPv6 addresses
 * would let one machine rotate through 2^64 fresh counters. IPv4-mapped IPv6
 * (`::ffff:192.0.2.1`, what a dual-stack socket reports) counts as the IPv4
 * address; `::1` stays itself. Text that is not an address is used as it is.
 */
export function requestSource(address: string): string {
  const bare = address.split('%')[0] ?? address;
  if (!ipaddr.isValid(bare)) return address;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4' || parsed.range() === 'loopback') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
