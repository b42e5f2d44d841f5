import ipaddr from 'ipaddr.js';
import { ipFamily, parseSubnet, subnetContains } from '../../network/ip-math.js';
import type { Nic } from '../../network/nic.js';
import type { WolInterface } from '../power-contract.js';

/** An interface address a magic packet can leave from, with its subnet's directed broadcast address (RFC 919 §7). */
export type { WolInterface } from '../power-contract.js';

/**
 * IPv4 addresses of interfaces that are up, not loopback, with a subnet
 * that has a broadcast address (prefix ≤ 30: /31 and /32 have none,
 * RFC 3021). WOL is IPv4 broadcast: IPv6 has no broadcast.
 */
export function wolInterfaces(nics: readonly Nic[], servedNames: ReadonlySet<string>): WolInterface[] {
  const out: WolInterface[] = [];
  for (const nic of nics) {
    if (!nic.up || nic.internal) continue;
    for (const address of nic.addresses) {
      if (address.family !== 'ipv4' || address.prefix > 30) continue;
      out.push({
        name: nic.name,
        mac: nic.mac,
        address: address.address,
        prefix: address.prefix,
        subnet: address.subnet,
        broadcast: ipaddr.IPv4.broadcastAddressFromCIDR(`${address.address}/${address.prefix}`).toString(),
        served: servedNames.has(nic.name),
      });
    }
  }
  return out;
}

export interface WolRoute {
  /** Send on this interface only (by name). */
  interface?: string | null;
  /** The host's IPv4 address: send on the interface whose subnet holds it. */
  ip?: string | null;
}

/** Why no interface could be chosen. */
export class WolRouteError extends Error {
  override name = 'WolRouteError';
}

/**
 * Where a magic packet goes. By interface name when given; else by the
 * host's address (the most specific subnet that holds it); else on every
 * served interface, or every usable one when none is served — a host of
 * unknown address may sit on any of them.
 */
export function chooseWolInterfaces(candidates: readonly WolInterface[], route: WolRoute): WolInterface[] {
  if (candidates.length === 0) throw new WolRouteError('no interface can send Wake-on-LAN (no IPv4 interface with a broadcast address is up)');
  if (route.interface) {
    const named = candidates.filter((candidate) => candidate.name === route.interface);
    if (named.length === 0) {
      throw new WolRouteError(`interface "${route.interface}" cannot send Wake-on-LAN (usable: ${[...new Set(candidates.map((c) => c.name))].join(', ')})`);
    }
    // An interface named by the technician wins over what the host's address suggests.
    return named;
  }
  if (route.ip) {
    if (ipFamily(route.ip) !== 'ipv4') throw new WolRouteError(`host address ${route.ip} is not IPv4; Wake-on-LAN uses IPv4 broadcast`);
    const matching = candidates
      .filter((candidate) => subnetContains(parseSubnet(candidate.subnet), route.ip!))
      .sort((a, b) => b.prefix - a.prefix);
    const best = matching[0];
    if (!best) throw new WolRouteError(`no interface is on the subnet of ${route.ip}`);
    return [best];
  }
  const served = candidates.filter((candidate) => candidate.served);
  return served.length > 0 ? served : [...candidates];
}
