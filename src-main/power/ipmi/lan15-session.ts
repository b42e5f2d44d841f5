import { createHash, randomBytes } from 'node:crypto';
import { BmcError } from '../bmc-error.js';
import {
  activateSessionRequest,
  activateSessionResponse,
  AuthTypeSupport,
  Command,
  sessionChallengeRequest,
  sessionChallengeResponse,
} from './commands.js';
import { describeCompletionCode } from './completion-codes.js';
import { EstablishedSession, type AttemptOptions } from './established-session.js';
import { checkCompletion, exchangeOptions, raisePrivilege, randomSessionId, type IpmiTiming } from './ipmi-session.js';
import { bmcRequest, lanMessage, type LanMessage } from './lan-message.js';
import { matchV15Response, tryDecode } from './presession.js';
import { codesMatch } from './session-crypto.js';
import { AuthType, ipmiDatagram } from './session-packet.js';
import type { UdpExchange } from './udp-exchange.js';

/** IPMI v1.5 passwords are 16 bytes, null-padded (§22.17). */
export const V15_PASSWORD_BYTES = 16;

export interface Lan15Credentials {
  username: Buffer;
  password: Buffer;
  privilege: number;
}

/** The v1.5 MD5 AuthCode: MD5(password, session id, message, session sequence, password) (§22.17.1). */
export function md5AuthCode(password: Buffer, sessionId: number, message: Buffer, sequence: number): Buffer {
  const pad = Buffer.alloc(V15_PASSWORD_BYTES);
  password.copy(pad, 0, 0, V15_PASSWORD_BYTES);
  const numbers = Buffer.alloc(8);
  numbers.writeUInt32LE(sessionId >>> 0, 0);
  numbers.writeUInt32LE(sequence >>> 0, 4);
  return createHash('md5').update(pad).update(numbers.subarray(0, 4)).update(message).update(numbers.subarray(4)).update(pad).digest();
}

/**
 * An IPMI v1.5 LAN session with MD5 authentication, for BMCs that offer no
 * RMCP+ (IPMI v2.0 §22.15–22.19). Messages are signed, not encrypted: v1.5
 * has no confidentiality, so it is used only when the BMC lacks v2.0.
 */
export class Lan15Session extends EstablishedSession {
  readonly description = 'IPMI v1.5, MD5 authentication';
  readonly cipherSuite = null;
  private readonly password: Buffer;
  private readonly sessionId: number;
  private outboundSequence: number;

  private constructor(exchange: UdpExchange, target: string, timing: IpmiTiming, password: Buffer, sessionId: number, sequence: number) {
    super(exchange, target, timing, sessionId);
    this.password = password;
    this.sessionId = sessionId;
    this.outboundSequence = sequence;
  }

  static async open(exchange: UdpExchange, target: string, credentials: Lan15Credentials, authTypes: number, timing: IpmiTiming): Promise<Lan15Session> {
    if ((authTypes & AuthTypeSupport.MD5) === 0) {
      throw new BmcError('unsupported', `${target}: the BMC offers IPMI v1.5 without MD5 authentication; refusing weaker schemes`);
    }
    if (credentials.password.length > V15_PASSWORD_BYTES) {
      throw new BmcError('auth_failed', `${target}: IPMI v1.5 passwords are at most ${V15_PASSWORD_BYTES} bytes`);
    }
    const options = exchangeOptions(timing);
    const challengeRequest = bmcRequest(
      Command.GET_SESSION_CHALLENGE.netFn,
      Command.GET_SESSION_CHALLENGE.cmd,
      1,
      sessionChallengeRequest.encode({ authType: AuthType.MD5, username: credentials.username }),
    );
    const challengeReply = await exchangeV15(exchange, options, challengeRequest, () =>
      ipmiDatagram.encode({ format: 'v15', authType: AuthType.NONE, sequence: 0, sessionId: 0, message: lanMessage.encode(challengeRequest) }),
    );
    const challengeCode = challengeReply.data[0] ?? 0xff;
    if (challengeCode === 0x81 || challengeCode === 0x82) {
      throw new BmcError('auth_failed', `${target}: authentication failed: unknown user name (${describeCompletionCode(challengeCode)})`);
    }
    const challenge = tryDecode(() => sessionChallengeResponse.decode(checkCompletion(challengeReply.data, 'Get Session Challenge', target)));
    if (!challenge) throw new BmcError('protocol', `${target}: malformed Get Session Challenge response`);

    const initialOutbound = randomSessionId(randomBytes(4));
    const activateRequest = bmcRequest(
      Command.ACTIVATE_SESSION.netFn,
      Command.ACTIVATE_SESSION.cmd,
      2,
      activateSessionRequest.encode({
        authType: AuthType.MD5,
        privilege: credentials.privilege,
        challenge: challenge.challenge,
        initialOutboundSequence: initialOutbound,
      }),
    );
    const activateMessage = lanMessage.encode(activateRequest);
    let activateReply: LanMessage;
    try {
      activateReply = await exchangeV15(exchange, options, activateRequest, () =>
        ipmiDatagram.encode({
          format: 'v15',
          authType: AuthType.MD5,
          sequence: 0,
          sessionId: challenge.temporarySessionId,
          authCode: md5AuthCode(credentials.password, challenge.temporarySessionId, activateMessage, 0),
          message: activateMessage,
        }),
      );
    } catch (err) {
      // A v1.5 BMC drops a packet whose AuthCode is wrong without a word (§22.17).
      if (err instanceof BmcError && err.reason === 'timeout') {
        throw new BmcError('auth_failed', `${target}: authentication failed: no answer to Activate Session (wrong password?)`);
      }
      throw err;
    }
    const activated = tryDecode(() => activateSessionResponse.decode(checkCompletion(activateReply.data, 'Activate Session', target)));
    if (!activated) throw new BmcError('protocol', `${target}: malformed Activate Session response`);
    const session = new Lan15Session(exchange, target, timing, credentials.password, activated.sessionId, activated.initialInboundSequence);
    await raisePrivilege(session, credentials.privilege);
    return session;
  }

  protected transmit(request: LanMessage, options: AttemptOptions): Promise<LanMessage> {
    const message = lanMessage.encode(request);
    return exchangeV15(
      this.exchange,
      options,
      request,
      () => {
        const sequence = this.outboundSequence;
        this.outboundSequence = (this.outboundSequence + 1) >>> 0 || 1;
        return ipmiDatagram.encode({
          format: 'v15',
          authType: AuthType.MD5,
          sequence,
          sessionId: this.sessionId,
          authCode: md5AuthCode(this.password, this.sessionId, message, sequence),
          message,
        });
      },
      (packet) => {
        if (packet.sessionId !== this.sessionId) return false;
        // Per-message authentication may be off on the BMC (auth type none); when present it must verify.
        if (packet.authType === AuthType.NONE) return true;
        return packet.authType === AuthType.MD5 && codesMatch(packet.authCode ?? Buffer.alloc(0), md5AuthCode(this.password, packet.sessionId, packet.message, packet.sequence));
      },
    );
  }
}

async function exchangeV15(
  exchange: UdpExchange,
  options: { attemptMs: number; retries: number },
  request: LanMessage,
  build: () => Buffer,
  verify: (packet: { authType: number; sessionId: number; sequence: number; authCode?: Buffer; message: Buffer }) => boolean = () => true,
): Promise<LanMessage> {
  let reply: LanMessage | undefined;
  await exchange.exchange(
    build,
    (msg) => {
      const matched = matchV15Response(msg, request);
      if (!matched || matched.packet.format !== 'v15' || !verify(matched.packet)) return false;
      reply = matched.message;
      return true;
    },
    options,
  );
  return reply!;
}
