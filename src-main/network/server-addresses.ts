import { isIpv6LinkLocal, parseSubnet, subnetContains, unmapIpv4, type Subnet } from './ip-math.js';
import type { ResolvedServerAddress } from './network-contract.js';
import type { Nic } from './nic.js';

/** Which NICs Bootwright serves: every usable non-loopback one ("auto") or the named ones. */
export type ServedSelection = 'auto' | string[];

/** An operator's choice of our address on a subnet (settings `interfaces.server_addresses`). */
export interface ServerAddressOverride {
  subnet: string;
  address: string;
}

/** Our address on one subnet, as the DHCP/DNS/TFTP servers hand it to clients there. */
export type { ResolvedServerAddress };

/** "auto" serves every interface that is up and not loopback, including ones that appear later. */
export function isServed(nic: Nic, selection: ServedSelection): boolean {
  if (selection === 'auto') return nic.up && !nic.internal;
  return selection.includes(nic.name);
}

/**
 * One entry per (NIC, subnet): the NIC's first address on the subnet, unless
 * an override names the subnet. Overrides of subnets no NIC is on are listed
 * too (interface null, served), so a client there still gets that address.
 * IPv6 link-local subnets are skipped: fe80::/64 is on every link.
 */
export function resolveServerAddresses(
  nics: readonly Nic[],
  selection: ServedSelection,
  overrides: readonly ServerAddressOverride[],
): ResolvedServerAddress[] {
  const overrideBySubnet = new Map(overrides.map((o) => [o.subnet, o.address]));
  const used = new Set<string>();
  const out: ResolvedServerAddress[] = [];
  for (const nic of nics) {
    const served = isServed(nic, selection);
    const seen = new Set<string>();
    for (const address of nic.addresses) {
      if (isIpv6LinkLocal(address.address) || seen.has(address.subnet)) continue;
      seen.add(address.subnet);
      const override = overrideBySubnet.get(address.subnet);
      if (override !== undefined) used.add(address.subnet);
      out.push({
        interface: nic.name,
        subnet: address.subnet,
        address: override ?? address.address,
        source: override !== undefined ? 'override' : 'detected',
        served,
      });
    }
  }
  for (const override of overrides) {
    if (!used.has(override.subnet)) {
      out.push({ interface: null, subnet: override.subnet, address: override.address, source: 'override', served: true });
    }
  }
  return out;
}

interface TableEntry {
  subnet: Subnet;
  address: string;
}

/**
 * Answers "which of our addresses does a client at this IP reach us on": a
 * served override whose subnet holds the client first, then a served NIC
 * subnet; the longest prefix wins within each group. Subnets are parsed once,
 * here, because the DHCP and DNS servers ask per packet.
 */
export class ServerAddressTable {
  private readonly overrides: TableEntry[];
  private readonly detected: TableEntry[];

  constructor(resolved: readonly ResolvedServerAddress[]) {
    const entries = (source: ResolvedServerAddress['source']) =>
      resolved
        .filter((entry) => entry.served && entry.source === source)
        .map((entry) => ({ subnet: parseSubnet(entry.subnet), address: entry.address }))
        .sort((a, b) => b.subnet.prefix - a.subnet.prefix);
    this.overrides = entries('override');
    this.detected = entries('detected');
  }

  /** Our address on the client's subnet, or null when no served subnet holds it. */
  serverAddressFor(clientIp: string): string | null {
    const client = unmapIpv4(clientIp);
    for (const group of [this.overrides, this.detected]) {
      const hit = group.find((entry) => subnetContains(entry.subnet, client));
      if (hit) return hit.address;
    }
    return null;
  }
}
