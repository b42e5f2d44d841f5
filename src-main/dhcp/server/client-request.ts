import { parseIpv4 } from '../../network/ip-math.js';
import { BROADCAST_FLAG, clientMac, type DhcpPacket } from './dhcp-codec.js';
import { OPT, trimNul } from '../dhcp-options.js';

/** What a request says about its client, read once per packet. */
export interface ClientRequest {
  packet: DhcpPacket;
  /** Option 53; 0 for a BOOTP request without one. */
  type: number;
  /** Canonical MAC from chaddr. */
  mac: string;
  clientId: string | null;
  /** Option 12, kept only when it is a valid DNS label (it feeds the DNS names of leases). */
  hostname: string | null;
  vendorClass: string | null;
  /** PXE firmware: vendor class begins with "PXEClient" (PXE 2.1 §2.2). */
  pxe: boolean;
  /** UEFI HTTP boot: vendor class begins with "HTTPClient" (UEFI 2.5+ §24.7). */
  httpBoot: boolean;
  /** iPXE announces itself with user class "iPXE" (option 77). */
  ipxe: boolean;
  /** Option 93, the first architecture type (RFC 4578 §2.1). */
  arch: number | null;
  /** Option 97 as sent (RFC 4578 §2.3), echoed in replies. */
  uuid: Buffer | null;
  /** Option 82 as sent, echoed to the relay (RFC 3046 §2.2). */
  relayInfo: Buffer | null;
  requestedIp: number | null;
  serverId: number | null;
  parameterList: Buffer | null;
  /** The largest reply the client accepts (option 57, never below 576, RFC 2132 §9.10). */
  maxMessageSize: number;
  ciaddr: number;
  giaddr: number;
  broadcast: boolean;
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Reads a request's facts; null when it is no usable BOOTREQUEST from an Ethernet client. */
export function readClientRequest(packet: DhcpPacket): ClientRequest | null {
  if (packet.op !== 1) return null;
  const mac = clientMac(packet);
  if (!mac) return null;
  let type = 0;
  let clientId: string | null = null;
  let hostname: string | null = null;
  let vendorClass: string | null = null;
  let ipxe = false;
  let arch: number | null = null;
  let uuid: Buffer | null = null;
  let relayInfo: Buffer | null = null;
  let requestedIp: number | null = null;
  let serverId: number | null = null;
  let parameterList: Buffer | null = null;
  let maxMessageSize = 576;
  for (const { code, data } of packet.options) {
    switch (code) {
      case OPT.MESSAGE_TYPE:
        if (data.length === 1) type = data[0]!;
        break;
      case OPT.CLIENT_ID:
        if (data.length > 0) clientId = data.toString('hex');
        break;
      case OPT.HOSTNAME: {
        const name = trimNul(data).toString('latin1').toLowerCase().split('.')[0] ?? '';
        hostname = LABEL.test(name) ? name : null;
        break;
      }
      case OPT.VENDOR_CLASS:
        vendorClass = trimNul(data).toString('latin1');
        break;
      case OPT.USER_CLASS:
        ipxe = hasUserClass(data, 'iPXE');
        break;
      case OPT.CLIENT_ARCH:
        if (data.length >= 2) arch = data.readUInt16BE(0);
        break;
      case OPT.CLIENT_UUID:
        uuid = data;
        break;
      case OPT.RELAY_AGENT_INFO:
        relayInfo = data;
        break;
      case OPT.REQUESTED_IP:
        if (data.length === 4) requestedIp = data.readUInt32BE(0);
        break;
      case OPT.SERVER_ID:
        if (data.length === 4) serverId = data.readUInt32BE(0);
        break;
      case OPT.PARAMETER_LIST:
        parameterList = data;
        break;
      case OPT.MAX_MESSAGE_SIZE:
        if (data.length === 2) maxMessageSize = Math.max(576, data.readUInt16BE(0));
        break;
    }
  }
  return {
    packet,
    type,
    mac,
    clientId,
    hostname,
    vendorClass,
    pxe: vendorClass !== null && vendorClass.startsWith('PXEClient'),
    httpBoot: vendorClass !== null && vendorClass.startsWith('HTTPClient'),
    ipxe,
    arch,
    uuid,
    relayInfo,
    requestedIp,
    serverId,
    parameterList,
    maxMessageSize,
    ciaddr: parseIpv4(packet.ciaddr) ?? 0,
    giaddr: parseIpv4(packet.giaddr) ?? 0,
    broadcast: (packet.flags & BROADCAST_FLAG) !== 0,
  };
}

/**
 * RFC 3004 encodes user classes as length-prefixed strings; iPXE sends its
 * "iPXE" bare. Both spellings count.
 */
function hasUserClass(data: Buffer, name: string): boolean {
  if (data.toString('latin1') === name) return true;
  let at = 0;
  while (at < data.length) {
    const length = data[at]!;
    if (length === 0 || at + 1 + length > data.length) return false;
    if (data.toString('latin1', at + 1, at + 1 + length) === name) return true;
    at += 1 + length;
  }
  return false;
}
