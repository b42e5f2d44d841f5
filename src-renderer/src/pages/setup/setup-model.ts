import type { DhcpSubnet } from '@contracts/dhcp';
import type { Nic, NicAddress } from '@contracts/network';
import type { DhcpProbeResult as ProbeResult, ForeignDhcpServer } from '@contracts/dhcp';

/*
 * The first-run wizard's logic, apart from the page so it is tested alone:
 * an interface's link state, the subnet and range suggested from its
 * address, and what a rogue-DHCP probe answer means for the mode.
 */

/** A NIC's link as GET /network/interfaces reports it; servers without the field (older builds) say nothing: unknown. */
export type LinkState = 'up' | 'down' | 'unknown';

export function linkOf(nic: Nic): LinkState {
  const link = (nic as Nic & { link?: unknown }).link;
  return link === 'up' || link === 'down' ? link : 'unknown';
}

/** The interfaces a technician could serve: not loopback, with an IPv4 address first. */
export function candidateInterfaces(nics: readonly Nic[]): Nic[] {
  return nics.filter((nic) => !nic.internal).sort((a, b) => Number(ipv4Of(b) !== null) - Number(ipv4Of(a) !== null) || a.name.localeCompare(b.name));
}

export function ipv4Of(nic: Nic): NicAddress | null {
  return nic.addresses.find((address) => address.family === 'ipv4') ?? null;
}

function toInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

function toIp(value: number): string {
  return [24, 16, 8, 0].map((shift) => String(Math.floor(value / 2 ** shift) % 256)).join('.');
}

export interface SubnetSuggestion {
  subnet: string;
  start: string;
  end: string;
  /** The server's own address, kept out of the range (and handed out as router and DNS). */
  server: string;
}

/**
 * A subnet and dynamic range from the server's address: the interface's own
 * network; in a /24 (or larger) .100–.199 of the server's /24, and in a
 * smaller one its upper half. The server's address never falls in the range:
 * the range stops before it, or starts after it when that leaves more.
 * Null when there is no usable IPv4 network (a /31, /32 or no address).
 */
export function suggestSubnet(address: NicAddress | null): SubnetSuggestion | null {
  if (!address || address.family !== 'ipv4' || address.prefix > 30 || address.prefix < 8) return null;
  const server = toInt(address.address);
  if (server === null) return null;
  const size = 2 ** (32 - address.prefix);
  const network = server - (server % size);
  const broadcast = network + size - 1;
  let start: number;
  let end: number;
  if (address.prefix <= 24) {
    const block = server - (server % 256);
    start = Math.max(block + 100, network + 1);
    end = Math.min(block + 199, broadcast - 1);
  } else {
    start = network + Math.floor(size / 2);
    end = broadcast - 1;
  }
  if (server >= start && server <= end) {
    // Keep the larger side of the range around the server's address.
    if (server - start >= end - server) end = server - 1;
    else start = server + 1;
  }
  if (start > end) return null;
  return { subnet: `${toIp(network)}/${address.prefix}`, start: toIp(start), end: toIp(end), server: address.address };
}

/** The subnet the wizard creates: the suggestion, with this server as the router (what dnsmasq does) so installers find a default route. */
export function subnetFromSuggestion(suggestion: SubnetSuggestion, range: { start: string; end: string }): DhcpSubnet {
  return {
    subnet: suggestion.subnet,
    ranges: [{ start: range.start, end: range.end }],
    lease_time_seconds: null,
    router: suggestion.server,
    dns_servers: null,
    domain_name: null,
    ntp_servers: [],
    options: [],
  };
}

export type ProbeOutcome = { kind: 'clear' } | { kind: 'foreign'; servers: ForeignDhcpServer[] } | { kind: 'unavailable' };

/** Whether a probe found another DHCP server; `null` (the endpoint does not exist on this server: 404) is "probe not available". */
export function probeOutcome(result: ProbeResult | null): ProbeOutcome {
  if (result === null) return { kind: 'unavailable' };
  return result.foreign.length > 0 ? { kind: 'foreign', servers: result.foreign } : { kind: 'clear' };
}

/** Another DHCP server answers: proxy mode leaves addresses to it; otherwise this server hands them out. */
export function recommendedMode(outcome: ProbeOutcome): 'server' | 'proxy' {
  return outcome.kind === 'foreign' ? 'proxy' : 'server';
}
