import { intToIpv4 } from '../../network/ip-math.js';
import type { ClientRequest } from './client-request.js';
import { MSG } from '../dhcp-options.js';

export const SERVER_PORT = 67;
export const CLIENT_PORT = 68;
export const LIMITED_BROADCAST = '255.255.255.255';

export interface ReplyDestination {
  address: string;
  port: number;
  /** True for 255.255.255.255: it must leave from the socket bound to the serving interface's address. */
  broadcast: boolean;
}

/**
 * Where a reply goes (RFC 2131 §4.1): through the relay when giaddr is set
 * (to its server port); a NAK is broadcast; a client with an address
 * (ciaddr) gets unicast; otherwise broadcast — whether or not the broadcast
 * flag is set, because Node cannot unicast to a client that has no address
 * yet (that needs an ARP entry written by hand).
 */
export function replyDestination(client: ClientRequest, replyType: number): ReplyDestination {
  if (client.giaddr !== 0) return { address: intToIpv4(client.giaddr), port: SERVER_PORT, broadcast: false };
  if (replyType === MSG.NAK) return { address: LIMITED_BROADCAST, port: CLIENT_PORT, broadcast: true };
  if (client.ciaddr !== 0) return { address: intToIpv4(client.ciaddr), port: CLIENT_PORT, broadcast: false };
  return { address: LIMITED_BROADCAST, port: CLIENT_PORT, broadcast: true };
}
