import { createHash } from 'node:crypto';
import { intToIpv4 } from '../../network/ip-math.js';
import type { ForeignDhcpServer } from '../dhcp-contract.js';
import { MSG, OPT } from '../dhcp-options.js';
import { BROADCAST_FLAG, chaddrFromMac, clientMac, findOption, type DhcpPacket } from './dhcp-codec.js';
import type { ClientRequest } from './client-request.js';

/*
 * The rogue-DHCP probe's packets (docs/dhcp.md, "Rogue-DHCP guard"): the
 * DHCPDISCOVER we send from an interface before serving it, and the reading of
 * the OFFERs that come back. Pure functions; the sockets are rogue-probe.ts.
 */

/**
 * The probe's chaddr starts with this locally administered prefix (0x0a: the
 * "locally administered" bit set, the multicast bit clear), so foreign servers
 * see a valid unicast MAC that is no vendor's; the last three bytes come from
 * the interface (its MAC, or a hash of its name) so probes from two interfaces
 * differ.
 */
export const PROBE_MAC_PREFIX = '0a:b0:07';
/** Option 61 of every probe: type 0 (not a hardware address) and this text. Our server ignores requests carrying it. */
export const PROBE_CLIENT_ID = Buffer.concat([Buffer.from([0]), Buffer.from('bootwright-rogue-probe', 'latin1')]);
const PROBE_CLIENT_ID_HEX = PROBE_CLIENT_ID.toString('hex');
/** What a probe asks for: mask, router, DNS, domain, lease time, server id — enough to describe the server. */
const PROBE_PARAMETERS = Buffer.from([OPT.SUBNET_MASK, OPT.ROUTER, OPT.DNS_SERVERS, OPT.DOMAIN_NAME, OPT.LEASE_TIME, OPT.SERVER_ID]);

/** The probe MAC of an interface: the prefix and the last three bytes of its MAC (or of a hash of its name when it has none). */
export function probeMac(interfaceName: string, interfaceMac: string | null): string {
  const tail = interfaceMac && /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i.test(interfaceMac)
    ? interfaceMac.toLowerCase().split(':').slice(3)
    : (createHash('sha256').update(interfaceName).digest('hex').match(/../g) ?? []).slice(0, 3);
  return [PROBE_MAC_PREFIX, ...tail].join(':');
}

/**
 * The DHCPDISCOVER of a probe (RFC 2131 §4.4.1): broadcast flag set so every
 * server answers by broadcast (we listen on 0.0.0.0:68, not on an address a
 * server would unicast to), no vendor class, so proxyDHCP servers (which
 * answer only PXE clients) stay silent and only address-giving servers answer.
 */
export function probeDiscover(xid: number, mac: string): DhcpPacket {
  return {
    op: 1,
    htype: 1,
    hlen: 6,
    hops: 0,
    xid: xid >>> 0,
    secs: 0,
    flags: BROADCAST_FLAG,
    ciaddr: '0.0.0.0',
    yiaddr: '0.0.0.0',
    siaddr: '0.0.0.0',
    giaddr: '0.0.0.0',
    chaddr: chaddrFromMac(mac),
    sname: '',
    file: '',
    options: [
      { code: OPT.MESSAGE_TYPE, data: Buffer.from([MSG.DISCOVER]) },
      { code: OPT.CLIENT_ID, data: PROBE_CLIENT_ID },
      { code: OPT.PARAMETER_LIST, data: PROBE_PARAMETERS },
    ],
  };
}

/** True for a request sent by a probe (ours, or another Bootwright's): the server never answers or leases to it. */
export function isProbeRequest(client: Pick<ClientRequest, 'clientId'>): boolean {
  return client.clientId === PROBE_CLIENT_ID_HEX;
}

/**
 * A reply to our probe from another DHCP server, or null: a BOOTREPLY OFFER
 * with our xid and chaddr, an address offered (a proxyDHCP offer of 0.0.0.0 is
 * no address server), and neither its server id nor its source one of ours.
 * `mac` stays null: UDP sockets do not see the Ethernet header (the caller may
 * fill it from the neighbour table).
 */
export function readForeignOffer(packet: DhcpPacket, sourceIp: string, expect: { xid: number; mac: string }, ownAddresses: ReadonlySet<string>): ForeignDhcpServer | null {
  if (packet.op !== 2 || packet.xid !== expect.xid >>> 0) return null;
  if (clientMac(packet) !== expect.mac) return null;
  const type = findOption(packet, OPT.MESSAGE_TYPE);
  if (!type || type.length !== 1 || type[0] !== MSG.OFFER) return null;
  if (packet.yiaddr === '0.0.0.0') return null;
  const serverIdOption = findOption(packet, OPT.SERVER_ID);
  const serverId = serverIdOption && serverIdOption.length === 4 ? intToIpv4(serverIdOption.readUInt32BE(0)) : sourceIp;
  if (ownAddresses.has(serverId) || ownAddresses.has(sourceIp)) return null;
  const mask = findOption(packet, OPT.SUBNET_MASK);
  const router = findOption(packet, OPT.ROUTER);
  const lease = findOption(packet, OPT.LEASE_TIME);
  return {
    server_id: serverId,
    source_ip: sourceIp,
    mac: null,
    offered_ip: packet.yiaddr,
    subnet_mask: mask && mask.length === 4 ? intToIpv4(mask.readUInt32BE(0)) : null,
    router: router && router.length >= 4 ? intToIpv4(router.readUInt32BE(0)) : null,
    lease_seconds: lease && lease.length === 4 ? lease.readUInt32BE(0) : null,
  };
}
