/*
 * Router Advertisements that end a boot client's IPv6 autoconfiguration and
 * nothing else (RFC 4861 §4.2): router lifetime 0 (we are no default
 * router), M=0 and O=0 (no DHCPv6), no prefix (no address to form), hop
 * limit, reachable time and retransmit timer 0 ("unspecified": the host keeps
 * its own). iPXE's IPv6 configurator ends at the first RA it gets while it
 * solicits and starts DHCPv6 only for M or O; without one it waits for its
 * router-solicitation timeout at every `ifconf`. See docs/dhcp.md,
 * "IPv6 Router Advertisements".
 */

export const ICMPV6_ROUTER_SOLICITATION = 133;
export const ICMPV6_ROUTER_ADVERTISEMENT = 134;
/** RFC 4861 §6.1: neighbour discovery packets arrive with hop limit 255, or they crossed a router and are dropped. */
export const ND_HOP_LIMIT = 255;
export const ALL_NODES = 'ff02::1';

const RA_HEADER_BYTES = 16;
/** Option 1, source link-layer address (RFC 4861 §4.6.1): one 8-byte block for an Ethernet MAC. */
const SOURCE_LL_OPTION = 1;

/** The RA bytes (checksum 0: the kernel computes it for raw ICMPv6 sockets), with our MAC as source link-layer option when known. */
export function routerAdvertisement(mac: string | null): Buffer {
  const macBytes = mac ? parseMac(mac) : null;
  const packet = Buffer.alloc(RA_HEADER_BYTES + (macBytes ? 8 : 0));
  packet[0] = ICMPV6_ROUTER_ADVERTISEMENT;
  // code 0, checksum 0, cur hop limit 0, flags 0 (M=0, O=0), router lifetime 0, reachable 0, retrans 0: all zero.
  if (macBytes) {
    packet[RA_HEADER_BYTES] = SOURCE_LL_OPTION;
    packet[RA_HEADER_BYTES + 1] = 1;
    macBytes.copy(packet, RA_HEADER_BYTES + 2);
  }
  return packet;
}

/** What an RA says, as far as the responder cares (a foreign router's, or ours read back in tests). */
export interface RouterAdvertisementView {
  managed: boolean;
  other: boolean;
  routerLifetimeSeconds: number;
}

export function readRouterAdvertisement(bytes: Buffer): RouterAdvertisementView | null {
  if (bytes.length < RA_HEADER_BYTES || bytes[0] !== ICMPV6_ROUTER_ADVERTISEMENT || bytes[1] !== 0) return null;
  const flags = bytes[5] ?? 0;
  return { managed: (flags & 0x80) !== 0, other: (flags & 0x40) !== 0, routerLifetimeSeconds: bytes.readUInt16BE(6) };
}

/** A Router Solicitation we answer: type 133 code 0, at least its 8-byte header, hop limit 255 when the kernel told it. */
export function isValidSolicitation(type: number, hopLimit: number, bytes: Buffer): boolean {
  return type === ICMPV6_ROUTER_SOLICITATION && bytes.length >= 8 && bytes[1] === 0 && (hopLimit === -1 || hopLimit === ND_HOP_LIMIT);
}

function parseMac(mac: string): Buffer | null {
  const parts = mac.split(':');
  if (parts.length !== 6 || parts.some((part) => !/^[0-9a-fA-F]{2}$/.test(part))) return null;
  const bytes = Buffer.from(parts.map((part) => parseInt(part, 16)));
  return bytes.every((byte) => byte === 0) ? null : bytes;
}
