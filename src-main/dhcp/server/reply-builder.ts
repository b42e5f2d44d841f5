import { BROADCAST_FLAG, encodingLength, type DhcpOption, type DhcpPacket } from './dhcp-codec.js';
import type { ClientRequest } from './client-request.js';
import { OPT } from '../dhcp-options.js';

/** IP (20) and UDP (8) headers: option 57 counts the whole datagram (RFC 2132 §9.10). */
const IP_UDP_HEADERS = 28;

export interface ReplyInput {
  type: number;
  serverId: string;
  yiaddr?: string;
  siaddr?: string;
  sname?: string;
  file?: string;
  /** Options that must be sent (53, 54 and lease times are added here). */
  required?: DhcpOption[];
  /** Options that may be dropped, last first, when the reply is too big for the client. */
  optional?: DhcpOption[];
  /** Set the broadcast bit (a NAK through a relay, RFC 2131 §4.3.2). */
  forceBroadcastFlag?: boolean;
}

/**
 * A BOOTREPLY for a request (RFC 2131 §4.3.1 table 3): xid, flags, giaddr
 * and chaddr copied; ciaddr copied for ACKs of INFORM/renewals as given.
 */
export function buildReply(client: ClientRequest, input: ReplyInput): DhcpPacket {
  const request = client.packet;
  const options: DhcpOption[] = [
    { code: OPT.MESSAGE_TYPE, data: Buffer.from([input.type]) },
    { code: OPT.SERVER_ID, data: ipBytes(input.serverId) },
    ...(input.required ?? []),
  ];
  // RFC 3046 §2.2: the relay agent information goes back to the relay unchanged, last.
  const tail: DhcpOption[] = client.relayInfo && client.giaddr !== 0 ? [{ code: OPT.RELAY_AGENT_INFO, data: client.relayInfo }] : [];
  const optional = [...(input.optional ?? [])];
  const packet: DhcpPacket = {
    op: 2,
    htype: request.htype,
    hlen: request.hlen,
    hops: 0,
    xid: request.xid,
    secs: 0,
    flags: input.forceBroadcastFlag ? request.flags | BROADCAST_FLAG : request.flags,
    ciaddr: request.ciaddr,
    yiaddr: input.yiaddr ?? '0.0.0.0',
    siaddr: input.siaddr ?? '0.0.0.0',
    giaddr: request.giaddr,
    chaddr: request.chaddr,
    sname: input.sname ?? '',
    file: input.file ?? '',
    options: [...options, ...optional, ...tail],
  };
  const limit = client.maxMessageSize - IP_UDP_HEADERS;
  while (optional.length > 0 && encodingLength(packet) > limit) {
    optional.pop();
    packet.options = [...options, ...optional, ...tail];
  }
  return packet;
}

/** Our own addresses recur in every reply (server id): their bytes are kept. */
const ADDRESS_BYTES = new Map<string, Buffer>();

export function ipBytes(address: string): Buffer {
  const cached = ADDRESS_BYTES.get(address);
  if (cached) return cached;
  const parts = address.split('.');
  const bytes = Buffer.from([Number(parts[0]), Number(parts[1]), Number(parts[2]), Number(parts[3])]);
  if (ADDRESS_BYTES.size < 1024) ADDRESS_BYTES.set(address, bytes);
  return bytes;
}

export function ipsBytes(addresses: readonly string[]): Buffer {
  return Buffer.concat(addresses.map(ipBytes));
}

export function uint32Bytes(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out;
}
