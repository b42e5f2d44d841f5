import type { ParsedSubnetConfig } from '../dhcp-settings.js';
import type { DhcpPacket } from './dhcp-codec.js';
import type { MessageTypeName } from '../dhcp-options.js';
import type { ReplyDestination } from './reply-addressing.js';

/** Where a request is being served: the interface (or relay) it is attributed to and our address there. */
export interface ServingContext {
  /** Interface name; null for requests that came through a relay to an address we could not attribute. */
  interfaceName: string | null;
  /** Our address as the client sees it: the server identifier and boot server. */
  serverAddress: string;
  serverId: number;
  /** The configured subnet the client is on (by giaddr, ciaddr or the interface). */
  subnet: ParsedSubnetConfig | null;
}

export interface OutgoingReply {
  packet: DhcpPacket;
  destination: ReplyDestination;
  type: MessageTypeName;
  context: ServingContext;
  /** Send from our port 4011 socket (answers to PXE boot server requests). */
  viaPxePort?: boolean;
}

/** Asks whether an address answers ping (RFC 2131 §4.4.1 "SHOULD probe"); true means in use. */
export type PingProbe = (address: string) => Promise<boolean>;
