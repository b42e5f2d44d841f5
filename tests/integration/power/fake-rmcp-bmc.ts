import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { cipherSuiteFor, type CipherSuite } from '../../../src-main/power/ipmi/cipher-suites.js';
import { channelAuthCapabilities, chassisStatusResponse, deviceIdResponse } from '../../../src-main/power/ipmi/commands.js';
import { bmcResponse, lanMessage, type LanMessage } from '../../../src-main/power/ipmi/lan-message.js';
import { openSessionRequest, openSessionResponse, rakp1, rakp2, rakp3, rakp4 } from '../../../src-main/power/ipmi/rakp.js';
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
} from '../../../src-main/power/ipmi/session-crypto.js';
import { AuthType, integrityRange, ipmiDatagram, PayloadType, type Session20Packet } from '../../../src-main/power/ipmi/session-packet.js';

/**
 * A minimal RMCP+ BMC for cipher suites 3 and 17, written for the tests from
 * IPMI v2.0 §13 (ipmi_sim lacks RAKP-HMAC-SHA256). It runs the BMC side of
 * the same key exchange, so when ipmitool logs in to it with -C 17, ipmitool
 * has checked our RAKP 2 code, RAKP 4 value, K1 integrity and K2 AES keys.
 */
export interface FakeBmc {
  port: number;
  power: boolean;
  /** Chassis Control codes received, in order. */
  controls: number[];
  close(): Promise<void>;
}

interface Session {
  suite: CipherSuite;
  consoleSessionId: number;
  bmcSessionId: number;
  privilege: number;
  inputs?: RakpInputs;
  keys?: SessionKeys;
  outbound: number;
}

const GUID = Buffer.from('00112233445566778899aabbccddeeff', 'hex');

export async function startFakeBmc(credentials: { username: string; password: string }): Promise<FakeBmc> {
  const socket = dgram.createSocket('udp4');
  const sessions = new Map<number, Session>();
  const kuid = userKey(Buffer.from(credentials.password));
  const state: FakeBmc = { port: 0, power: false, controls: [], close: () => new Promise((resolve) => socket.close(() => resolve())) };

  const reply = (to: dgram.RemoteInfo, datagram: Buffer) => socket.send(datagram, to.port, to.address);
  const sendSetup = (to: dgram.RemoteInfo, payloadType: number, payload: Buffer) =>
    reply(to, ipmiDatagram.encode({ format: 'v20', payloadType, encrypted: false, authenticated: false, sessionId: 0, sequence: 0, payload }));

  function handleCommand(request: LanMessage, session: Session): LanMessage {
    const key = `${request.netFn}/${request.cmd}`;
    switch (key) {
      case '6/59': // Set Session Privilege Level
        return bmcResponse(request, 0, Buffer.from([request.data[0] || session.privilege]));
      case '6/1': // Get Device ID
        return bmcResponse(request, 0, deviceIdResponse.encode({ deviceId: 0x20, deviceRevision: 1, providesSdrs: false, deviceAvailable: true, firmwareMajor: 2, firmwareMinor: 17, ipmiVersion: '2.0', additionalSupport: 0, manufacturerId: 674, productId: 0x0100 }));
      case '0/1': // Get Chassis Status
        return bmcResponse(request, 0, chassisStatusResponse.encode({ powerOn: state.power, overload: false, interlock: false, powerFault: false, controlFault: false, restorePolicy: 0, lastPowerEvent: 0, miscState: 0 }));
      case '0/2': // Chassis Control
        state.controls.push(request.data[0] ?? -1);
        if (request.data[0] === 1) state.power = true;
        if (request.data[0] === 0) state.power = false;
        return bmcResponse(request, 0);
      case '6/60': // Close Session
        return bmcResponse(request, 0);
      default:
        return bmcResponse(request, 0xc1);
    }
  }

  socket.on('message', (msg, from) => {
    let packet;
    try {
      packet = ipmiDatagram.decode(msg);
    } catch {
      return;
    }
    if (packet.format === 'v15') {
      // Only Get Channel Authentication Capabilities is answered outside a session.
      const request = lanMessage.decode(packet.message);
      const response =
        request.netFn === 6 && request.cmd === 0x38
          ? bmcResponse(request, 0, channelAuthCapabilities.encode({ channel: 1, authTypes: 0x04, extendedCapabilities: true, kgSet: false, perMessageAuthDisabled: false, userLevelAuthDisabled: false, nonNullUsernames: true, nullUsernames: false, anonymousLogin: false, supportsV15: true, supportsV20: true, oemId: 0, oemAux: 0 }))
          : bmcResponse(request, 0xc1);
      reply(from, ipmiDatagram.encode({ format: 'v15', authType: AuthType.NONE, sequence: 0, sessionId: 0, message: lanMessage.encode(response) }));
      return;
    }
    switch (packet.payloadType) {
      case PayloadType.OPEN_SESSION_REQUEST: {
        const request = openSessionRequest.decode(packet.payload);
        const suite = cipherSuiteFor(request.algorithms);
        if (!suite) {
          sendSetup(from, PayloadType.OPEN_SESSION_RESPONSE, openSessionResponse.encode({ tag: request.tag, status: 0x11, privilege: 0, consoleSessionId: request.consoleSessionId }));
          return;
        }
        const bmcSessionId = randomBytes(4).readUInt32LE(0) || 1;
        sessions.set(bmcSessionId, { suite, consoleSessionId: request.consoleSessionId, bmcSessionId, privilege: request.privilege || 4, outbound: 0 });
        sendSetup(from, PayloadType.OPEN_SESSION_RESPONSE, openSessionResponse.encode({ tag: request.tag, status: 0, privilege: request.privilege || 4, consoleSessionId: request.consoleSessionId, bmcSessionId, algorithms: request.algorithms }));
        return;
      }
      case PayloadType.RAKP1: {
        const message = rakp1.decode(packet.payload);
        const session = sessions.get(message.bmcSessionId);
        if (!session) return;
        if (message.username.toString() !== credentials.username) {
          sendSetup(from, PayloadType.RAKP2, rakp2.encode({ tag: message.tag, status: 0x0d, consoleSessionId: session.consoleSessionId }));
          return;
        }
        session.inputs = {
          consoleSessionId: session.consoleSessionId,
          bmcSessionId: session.bmcSessionId,
          consoleRandom: message.consoleRandom,
          bmcRandom: randomBytes(16),
          bmcGuid: GUID,
          role: message.role,
          username: message.username,
        };
        const authCode = rakp2AuthCode(session.suite, kuid, session.inputs);
        sendSetup(from, PayloadType.RAKP2, rakp2.encode({ tag: message.tag, status: 0, consoleSessionId: session.consoleSessionId, bmcRandom: session.inputs.bmcRandom, bmcGuid: GUID, authCode }));
        return;
      }
      case PayloadType.RAKP3: {
        const message = rakp3.decode(packet.payload);
        const session = sessions.get(message.bmcSessionId);
        if (!session?.inputs) return;
        if (!codesMatch(message.authCode, rakp3AuthCode(session.suite, kuid, session.inputs))) {
          sendSetup(from, PayloadType.RAKP4, rakp4.encode({ tag: message.tag, status: 0x0f, consoleSessionId: session.consoleSessionId, integrityCheck: Buffer.alloc(0) }));
          return;
        }
        const sik = sessionIntegrityKey(session.suite, kuid, session.inputs);
        session.keys = deriveSessionKeys(session.suite, sik);
        sendSetup(from, PayloadType.RAKP4, rakp4.encode({ tag: message.tag, status: 0, consoleSessionId: session.consoleSessionId, integrityCheck: rakp4IntegrityCheck(session.suite, sik, session.inputs) }));
        return;
      }
      case PayloadType.IPMI: {
        const session = sessions.get(packet.sessionId);
        if (!session?.keys || !packet.authCode) return;
        const range = integrityRange(msg.length, packet.authCode.length);
        if (!codesMatch(packet.authCode, packetAuthCode(session.suite, session.keys.k1, msg.subarray(range.start, range.end)))) return;
        const request = lanMessage.decode(packet.encrypted ? decryptPayload(session.keys.aesKey, packet.payload) : packet.payload);
        const response = handleCommand(request, session);
        session.outbound += 1;
        const out: Session20Packet = {
          format: 'v20',
          payloadType: PayloadType.IPMI,
          encrypted: true,
          authenticated: true,
          sessionId: session.consoleSessionId,
          sequence: session.outbound,
          payload: encryptPayload(session.keys.aesKey, lanMessage.encode(response)),
          authCode: Buffer.alloc(session.suite.integrityLength),
        };
        const datagram = ipmiDatagram.encode(out);
        const outRange = integrityRange(datagram.length, session.suite.integrityLength);
        packetAuthCode(session.suite, session.keys.k1, datagram.subarray(outRange.start, outRange.end)).copy(datagram, outRange.end);
        reply(from, datagram);
        if (request.netFn === 6 && request.cmd === 0x3c) sessions.delete(session.bmcSessionId);
        return;
      }
      default:
        return;
    }
  });

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  state.port = socket.address().port;
  return state;
}
