import { BmcError } from '../bmc-error.js';
import { IpmiDecodeError } from './codec.js';
import {
  channelAuthCapabilities,
  channelAuthCapabilitiesRequest,
  Command,
  CURRENT_CHANNEL,
  type ChannelAuthCapabilities,
} from './commands.js';
import { describeCompletionCode } from './completion-codes.js';
import { bmcRequest, lanMessage, type LanMessage } from './lan-message.js';
import { AuthType, ipmiDatagram } from './session-packet.js';
import type { ExchangeOptions, UdpExchange } from './udp-exchange.js';

/** Tries a decoder; hostile or foreign datagrams are simply not ours (undefined). */
export function tryDecode<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch (err) {
    if (err instanceof IpmiDecodeError) return undefined;
    throw err;
  }
}

/** The response to `request` inside a v1.5 packet, or undefined when `msg` is something else. */
export function matchV15Response(msg: Buffer, request: LanMessage): { packet: ReturnType<typeof ipmiDatagram.decode>; message: LanMessage } | undefined {
  const packet = tryDecode(() => ipmiDatagram.decode(msg));
  if (!packet || packet.format !== 'v15') return undefined;
  const message = tryDecode(() => lanMessage.decode(packet.message));
  if (!message || message.seq !== request.seq || message.cmd !== request.cmd || message.netFn !== (request.netFn | 1)) return undefined;
  return { packet, message };
}

/**
 * Get Channel Authentication Capabilities outside any session (IPMI v2.0
 * §22.13, §13.14): sent as a v1.5 packet with auth type none. Asks for the
 * v2.0 extended data first and falls back to the plain v1.5 form when the
 * BMC refuses it (a v1.5-only BMC answers CCh).
 */
export async function getChannelAuthCapabilities(
  exchange: UdpExchange,
  privilege: number,
  options: ExchangeOptions,
  target: string,
): Promise<ChannelAuthCapabilities> {
  let seq = 1;
  for (const extended of [true, false]) {
    const request = bmcRequest(
      Command.GET_CHANNEL_AUTH_CAPABILITIES.netFn,
      Command.GET_CHANNEL_AUTH_CAPABILITIES.cmd,
      seq++,
      channelAuthCapabilitiesRequest.encode({ channel: CURRENT_CHANNEL, extended, privilege }),
    );
    const datagram = ipmiDatagram.encode({ format: 'v15', authType: AuthType.NONE, sequence: 0, sessionId: 0, message: lanMessage.encode(request) });
    let response: LanMessage | undefined;
    await exchange.exchange(
      () => datagram,
      (msg) => {
        response = matchV15Response(msg, request)?.message;
        return response !== undefined;
      },
      options,
    );
    const data = response!.data;
    const completion = data[0];
    if (completion === 0) {
      const caps = tryDecode(() => channelAuthCapabilities.decode(data, 1));
      if (!caps) throw new BmcError('protocol', `${target}: malformed Get Channel Authentication Capabilities response`);
      return caps;
    }
    if (!extended || completion === undefined) {
      throw new BmcError('protocol', `${target}: Get Channel Authentication Capabilities failed: ${describeCompletionCode(completion ?? 0xff)}`);
    }
  }
  throw new BmcError('protocol', `${target}: Get Channel Authentication Capabilities failed`);
}
