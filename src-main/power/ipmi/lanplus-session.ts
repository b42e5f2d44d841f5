import { randomBytes } from 'node:crypto';
import { BmcError } from '../bmc-error.js';
import { CIPHER_SUITE_IDS, cipherSuite, type CipherSuite, type CipherSuiteId } from './cipher-suites.js';
import { AUTH_REFUSED_STATUSES, describeRmcpPlusStatus, UNSUPPORTED_CIPHER_STATUSES } from './completion-codes.js';
import { EstablishedSession, type AttemptOptions } from './established-session.js';
import { exchangeOptions, raisePrivilege, randomSessionId, type IpmiTiming } from './ipmi-session.js';
import { lanMessage, type LanMessage } from './lan-message.js';
import { tryDecode } from './presession.js';
import { openSessionRequest, openSessionResponse, rakp1, rakp2, rakp3, rakp4, type OpenSessionResponse, type Rakp2, type Rakp4 } from './rakp.js';
import {
  codesMatch,
  decryptPayload,
  deriveSessionKeys,
  encryptPayload,
  packetAuthCode,
  rakp2AuthCode,
  rakp3AuthCode,
  rakp4IntegrityCheck,
  sessionIntegrityKey,
  userKey,
  type RakpInputs,
  type SessionKeys,
} from './session-crypto.js';
import { integrityRange, ipmiDatagram, PayloadType, type Session20Packet } from './session-packet.js';
import type { UdpExchange } from './udp-exchange.js';

export interface LanplusCredentials {
  username: Buffer;
  password: Buffer;
  /** The BMC key K_G when the BMC has one set; otherwise Kuid is used (§13.31). */
  kg?: Buffer;
  privilege: number;
}

/** Name-only lookup (RAKP 1 role bit 4): the BMC looks the user up by name and privilege limit. */
const NAME_ONLY_LOOKUP = 0x10;

/**
 * An IPMI v2.0 RMCP+ session (lanplus): Open Session, RAKP 1–4, then
 * authenticated and AES-encrypted IPMI messages (IPMI v2.0 §13.15–13.32).
 */
export class LanplusSession extends EstablishedSession {
  readonly description: string;
  readonly cipherSuite: number;
  private readonly suite: CipherSuite;
  private readonly keys: SessionKeys;
  private readonly consoleSessionId: number;
  private readonly bmcSessionId: number;
  private outboundSequence = 0;
  private readonly seenInbound = new Set<number>();

  private constructor(init: {
    exchange: UdpExchange;
    target: string;
    timing: IpmiTiming;
    suite: CipherSuite;
    keys: SessionKeys;
    consoleSessionId: number;
    bmcSessionId: number;
  }) {
    super(init.exchange, init.target, init.timing, init.bmcSessionId);
    this.suite = init.suite;
    this.keys = init.keys;
    this.consoleSessionId = init.consoleSessionId;
    this.bmcSessionId = init.bmcSessionId;
    this.cipherSuite = init.suite.id;
    this.description = `IPMI v2.0 (RMCP+), cipher suite ${init.suite.id}`;
  }

  /**
   * Establishes the session over an open exchange. `suites` are tried in
   * order; a suite the BMC refuses moves on to the next, and when none is
   * left the error is `unsupported_cipher_suite`.
   */
  static async open(
    exchange: UdpExchange,
    target: string,
    credentials: LanplusCredentials,
    timing: IpmiTiming,
    suites: readonly CipherSuiteId[] = CIPHER_SUITE_IDS,
  ): Promise<LanplusSession> {
    const options = exchangeOptions(timing);
    let tag = 0;
    const refused: string[] = [];
    for (const id of suites) {
      const suite = cipherSuite(id);
      const consoleSessionId = randomSessionId(randomBytes(4));
      tag = (tag + 1) & 0xff;
      const open = await sendHandshake(exchange, options, {
        payloadType: PayloadType.OPEN_SESSION_REQUEST,
        payload: openSessionRequest.encode({ tag, privilege: credentials.privilege, consoleSessionId, algorithms: suite }),
        accept: (payloadType, payload) => {
          if (payloadType !== PayloadType.OPEN_SESSION_RESPONSE) return undefined;
          const response = tryDecode(() => openSessionResponse.decode(payload));
          return response && response.tag === tag && matchesSession(response.consoleSessionId, consoleSessionId) ? response : undefined;
        },
      });
      if (open.status !== 0) {
        if (UNSUPPORTED_CIPHER_STATUSES.has(open.status)) {
          refused.push(`${id} (${describeRmcpPlusStatus(open.status)})`);
          continue;
        }
        throw statusError(open.status, 'Open Session', target);
      }
      checkAlgorithms(open, suite, target);
      const bmcSessionId = open.bmcSessionId!;
      const consoleRandom = randomBytes(16);
      const role = credentials.privilege | NAME_ONLY_LOOKUP;
      tag = (tag + 1) & 0xff;
      const second = await sendHandshake<Rakp2>(exchange, options, {
        payloadType: PayloadType.RAKP1,
        payload: rakp1.encode({ tag, bmcSessionId, consoleRandom, role, username: credentials.username }),
        accept: (payloadType, payload) => {
          if (payloadType !== PayloadType.RAKP2) return undefined;
          const message = tryDecode(() => rakp2.decode(payload));
          return message && message.tag === tag && matchesSession(message.consoleSessionId, consoleSessionId) ? message : undefined;
        },
      });
      if (second.status !== 0) throw statusError(second.status, 'RAKP 2', target);
      const inputs: RakpInputs = {
        consoleSessionId,
        bmcSessionId,
        consoleRandom,
        bmcRandom: second.bmcRandom!,
        bmcGuid: second.bmcGuid!,
        role,
        username: credentials.username,
      };
      const kuid = userKey(credentials.password);
      if (!codesMatch(second.authCode ?? Buffer.alloc(0), rakp2AuthCode(suite, kuid, inputs))) {
        throw new BmcError('auth_failed', `${target}: authentication failed: wrong password (the BMC's RAKP 2 key exchange code does not match)`);
      }
      tag = (tag + 1) & 0xff;
      const fourth = await sendHandshake<Rakp4>(exchange, options, {
        payloadType: PayloadType.RAKP3,
        payload: rakp3.encode({ tag, status: 0, bmcSessionId, authCode: rakp3AuthCode(suite, kuid, inputs) }),
        accept: (payloadType, payload) => {
          if (payloadType !== PayloadType.RAKP4) return undefined;
          const message = tryDecode(() => rakp4.decode(payload));
          return message && message.tag === tag && matchesSession(message.consoleSessionId, consoleSessionId) ? message : undefined;
        },
      });
      if (fourth.status !== 0) throw statusError(fourth.status, 'RAKP 4', target);
      const sik = sessionIntegrityKey(suite, credentials.kg && credentials.kg.length > 0 ? userKey(credentials.kg) : kuid, inputs);
      if (!codesMatch(fourth.integrityCheck, rakp4IntegrityCheck(suite, sik, inputs))) {
        throw new BmcError('auth_failed', `${target}: authentication failed: the BMC's RAKP 4 integrity check does not match (wrong BMC key?)`);
      }
      const session = new LanplusSession({ exchange, target, timing, suite, keys: deriveSessionKeys(suite, sik), consoleSessionId, bmcSessionId });
      // A session starts at User privilege (§22.18); raise it to what power control needs.
      await raisePrivilege(session, credentials.privilege);
      return session;
    }
    throw new BmcError('unsupported_cipher_suite', `${target}: the BMC supports none of the cipher suites tried: ${refused.join('; ')}`);
  }

  protected async transmit(request: LanMessage, options: AttemptOptions): Promise<LanMessage> {
    const plain = lanMessage.encode(request);
    let response: LanMessage | undefined;
    await this.exchange.exchange(
      () => this.seal(plain),
      (msg) => {
        response = this.open(msg, request);
        return response !== undefined;
      },
      options,
    );
    return response!;
  }

  /** Encrypts and signs an IPMI message with a fresh session sequence number (§13.28). */
  private seal(plain: Buffer): Buffer {
    this.outboundSequence = (this.outboundSequence + 1) >>> 0 || 1;
    const packet: Session20Packet = {
      format: 'v20',
      payloadType: PayloadType.IPMI,
      encrypted: true,
      authenticated: true,
      sessionId: this.bmcSessionId,
      sequence: this.outboundSequence,
      payload: encryptPayload(this.keys.aesKey, plain),
      authCode: Buffer.alloc(this.suite.integrityLength),
    };
    const datagram = ipmiDatagram.encode(packet);
    const range = integrityRange(datagram.length, this.suite.integrityLength);
    packetAuthCode(this.suite, this.keys.k1, datagram.subarray(range.start, range.end)).copy(datagram, range.end);
    return datagram;
  }

  /** The response to `request` in `msg`, verified and decrypted; undefined for anything else. */
  private open(msg: Buffer, request: LanMessage): LanMessage | undefined {
    const packet = tryDecode(() => ipmiDatagram.decode(msg));
    if (!packet || packet.format !== 'v20' || packet.payloadType !== PayloadType.IPMI || packet.sessionId !== this.consoleSessionId) return undefined;
    // Integrity was negotiated: an unsigned or badly signed packet is not from our BMC.
    if (!packet.authenticated || !packet.authCode) return undefined;
    const range = integrityRange(msg.length, packet.authCode.length);
    if (!codesMatch(packet.authCode, packetAuthCode(this.suite, this.keys.k1, msg.subarray(range.start, range.end)))) return undefined;
    if (this.seenInbound.has(packet.sequence)) return undefined;
    const plain = packet.encrypted ? tryDecode(() => decryptPayload(this.keys.aesKey, packet.payload)) : packet.payload;
    if (!plain) return undefined;
    const message = tryDecode(() => lanMessage.decode(plain));
    if (!message || message.seq !== request.seq || message.cmd !== request.cmd || message.netFn !== (request.netFn | 1)) return undefined;
    this.seenInbound.add(packet.sequence);
    if (this.seenInbound.size > 64) this.seenInbound.delete(this.seenInbound.values().next().value!);
    return message;
  }
}

/** Sends one unauthenticated session-setup payload and waits for its answer. */
async function sendHandshake<T>(
  exchange: UdpExchange,
  options: { attemptMs: number; retries: number },
  step: { payloadType: number; payload: Buffer; accept: (payloadType: number, payload: Buffer) => T | undefined },
): Promise<T> {
  const datagram = ipmiDatagram.encode({
    format: 'v20',
    payloadType: step.payloadType,
    encrypted: false,
    authenticated: false,
    sessionId: 0,
    sequence: 0,
    payload: step.payload,
  });
  let answer: T | undefined;
  await exchange.exchange(
    () => datagram,
    (msg) => {
      const packet = tryDecode(() => ipmiDatagram.decode(msg));
      if (!packet || packet.format !== 'v20') return false;
      answer = step.accept(packet.payloadType, packet.payload);
      return answer !== undefined;
    },
    options,
  );
  return answer!;
}

/** A short error response names no session; any other must name ours. */
function matchesSession(received: number | undefined, ours: number): boolean {
  return received === undefined || received === ours;
}

function statusError(status: number, step: string, target: string): BmcError {
  const text = describeRmcpPlusStatus(status);
  if (status === 0x0d) return new BmcError('auth_failed', `${target}: authentication failed: unknown user name (${step}: ${text})`);
  if (AUTH_REFUSED_STATUSES.has(status)) return new BmcError('auth_failed', `${target}: authentication failed (${step}: ${text})`);
  if (UNSUPPORTED_CIPHER_STATUSES.has(status)) return new BmcError('unsupported_cipher_suite', `${target}: ${step}: ${text}`);
  return new BmcError('protocol', `${target}: ${step} failed: ${text}`);
}

function checkAlgorithms(response: OpenSessionResponse, suite: CipherSuite, target: string): void {
  const algorithms = response.algorithms;
  if (
    response.bmcSessionId === undefined ||
    !algorithms ||
    algorithms.authentication !== suite.authentication ||
    algorithms.integrity !== suite.integrity ||
    algorithms.confidentiality !== suite.confidentiality
  ) {
    throw new BmcError('unsupported_cipher_suite', `${target}: the BMC answered cipher suite ${suite.id} with other algorithms`);
  }
}
