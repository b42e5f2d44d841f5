import { describe, expect, it } from 'vitest';
import { IpmiDecodeError, IpmiEncodeError, type Codec } from '../../../src-main/power/ipmi/codec.js';
import {
  activateSessionRequest,
  activateSessionResponse,
  BootDeviceSelector,
  channelAuthCapabilities,
  channelAuthCapabilitiesRequest,
  chassisStatusResponse,
  deviceIdResponse,
  sessionChallengeRequest,
  sessionChallengeResponse,
  setBootFlagsRequest,
} from '../../../src-main/power/ipmi/commands.js';
import { CIPHER_SUITES } from '../../../src-main/power/ipmi/cipher-suites.js';
import { describeCompletionCode, describeRmcpPlusStatus } from '../../../src-main/power/ipmi/completion-codes.js';
import { bmcRequest, bmcResponse, ipmiChecksum, lanMessage } from '../../../src-main/power/ipmi/lan-message.js';
import { openSessionRequest, openSessionResponse, rakp1, rakp2, rakp3, rakp4 } from '../../../src-main/power/ipmi/rakp.js';
import { asfMessage, AsfMessageType, decodeAsfDatagram, encodePresencePing, rmcpHeader, RmcpClass } from '../../../src-main/power/ipmi/rmcp.js';
import { AuthType, integrityRange, ipmiDatagram, PayloadType } from '../../../src-main/power/ipmi/session-packet.js';
import { expectRoundTrip, type CodecAdapter } from '../../helpers/codec-roundtrip.js';

/** IPMI decoders take no `end`: they read to the end of the buffer (a length field may narrow it). */
const ipmi = <T>(codec: Codec<T>): CodecAdapter<T> => ({ codec, decodeTakesEnd: false });

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('RMCP and ASF', () => {
  it('round-trips the RMCP header and ASF ping/pong', () => {
    expectRoundTrip(ipmi(rmcpHeader), { sequence: 0xff, messageClass: RmcpClass.IPMI, ack: false });
    expectRoundTrip(ipmi(rmcpHeader), { sequence: 7, messageClass: RmcpClass.ASF, ack: true });
    expectRoundTrip(ipmi(asfMessage), { type: AsfMessageType.PRESENCE_PING, tag: 3 });
    expectRoundTrip(ipmi(asfMessage), {
      type: AsfMessageType.PRESENCE_PONG,
      tag: 9,
      pong: { iana: 4542, oem: 0, ipmiSupported: true, asfVersion: 1, securityExtensions: true, dash: false },
    });
    expectRoundTrip(ipmi(asfMessage), { type: 0x41, tag: 1, data: Buffer.from([1, 2, 3]) });
  });

  it('builds the presence ping of ASF 2.0 §3.2.4.2 byte for byte', () => {
    // RMCP v1.0, seq, class ASF; IANA 4542; type 80h; tag; reserved; length 0.
    expect(encodePresencePing(0x22).toString('hex')).toBe('0600220600' + '0011be' + '80' + '22' + '00' + '00');
    const decoded = decodeAsfDatagram(encodePresencePing(0x22));
    expect(decoded.message).toEqual({ type: AsfMessageType.PRESENCE_PING, tag: 0x22 });
  });

  it('rejects what is not RMCP', () => {
    expect(() => rmcpHeader.decode(Buffer.from('0500ff07', 'hex'))).toThrow(IpmiDecodeError);
    expect(() => asfMessage.decode(Buffer.from('000011bf80000000', 'hex'))).toThrow(/IANA/);
    expect(() => decodeAsfDatagram(Buffer.from('0600ff07', 'hex'))).toThrow(/not ASF/);
  });
});

describe('IPMI LAN message', () => {
  it('round-trips requests and responses with both checksums', () => {
    const request = bmcRequest(0x06, 0x38, 5, Buffer.from([0x8e, 0x04]));
    const encoded = expectRoundTrip(ipmi(lanMessage), request);
    // The header and body each sum to zero with their checksum (IPMI v2.0 §13.8).
    expect((encoded[0]! + encoded[1]! + encoded[2]!) & 0xff).toBe(0);
    expect(encoded.subarray(3).reduce((sum, byte) => (sum + byte) & 0xff, 0)).toBe(0);
    expectRoundTrip(ipmi(lanMessage), bmcResponse(request, 0x00, Buffer.from([1, 2, 3])));
    expectRoundTrip(ipmi(lanMessage), bmcRequest(0x00, 0x01, 63));
  });

  it('matches the Get Channel Authentication Capabilities request ipmitool sends', () => {
    // From tests/fixtures/ipmi/ipmitool-lanplus-cs3.json, packet 1 (after the v1.5 session header).
    const message = lanMessage.decode(Buffer.from('2018c88100388e04b5', 'hex'));
    expect(message).toEqual({ to: 0x20, netFn: 0x06, toLun: 0, from: 0x81, seq: 0, fromLun: 0, cmd: 0x38, data: Buffer.from([0x8e, 0x04]) });
    expect(ipmiChecksum(Buffer.from([0x20, 0x18]), 0, 2)).toBe(0xc8);
  });

  it('rejects bad checksums and short messages', () => {
    expect(() => lanMessage.decode(Buffer.from('2018c98100388e04b5', 'hex'))).toThrow(/header checksum/);
    expect(() => lanMessage.decode(Buffer.from('2018c88100388e04b6', 'hex'))).toThrow(/data checksum/);
    expect(() => lanMessage.decode(Buffer.from('2018c881', 'hex'))).toThrow(/truncated/);
    expect(() => lanMessage.encode({ ...bmcRequest(6, 1, 64) })).toThrow(IpmiEncodeError);
  });
});

describe('session wrappers', () => {
  const message = lanMessage.encode(bmcRequest(0x06, 0x01, 1));

  it('round-trips v1.5 packets with and without an AuthCode', () => {
    expectRoundTrip(ipmi(ipmiDatagram), { format: 'v15', authType: AuthType.NONE, sequence: 0, sessionId: 0, message });
    expectRoundTrip(ipmi(ipmiDatagram), { format: 'v15', authType: AuthType.MD5, sequence: 77, sessionId: 0x01020304, authCode: bytes(16, 7), message });
  });

  it('round-trips v2.0 packets: plain, signed (12- and 16-byte AuthCodes), OEM', () => {
    const base = { format: 'v20' as const, encrypted: false, authenticated: false, sessionId: 0, sequence: 0 };
    expectRoundTrip(ipmi(ipmiDatagram), { ...base, payloadType: PayloadType.OPEN_SESSION_REQUEST, payload: bytes(32, 1) });
    for (const [payloadLength, authLength] of [
      [0, 12],
      [1, 12],
      [2, 16],
      [3, 16],
      [48, 12],
    ] as const) {
      const packet = { ...base, payloadType: PayloadType.IPMI, encrypted: true, authenticated: true, sessionId: 9, sequence: 3, payload: bytes(payloadLength, 2), authCode: bytes(authLength, 3) };
      const encoded = expectRoundTrip(ipmi(ipmiDatagram), packet);
      // Auth type through next header is a multiple of 4 (Table 13-8).
      const range = integrityRange(encoded.length, authLength);
      expect((range.end - range.start) % 4).toBe(0);
    }
    expectRoundTrip(ipmi(ipmiDatagram), { ...base, payloadType: PayloadType.OEM_EXPLICIT, oem: { iana: 4542, payloadId: 3 }, payload: bytes(5, 4) });
  });

  it('rejects malformed trailers and unknown auth types', () => {
    const signed = ipmiDatagram.encode({ format: 'v20', payloadType: 0, encrypted: false, authenticated: true, sessionId: 1, sequence: 1, payload: bytes(1, 1), authCode: bytes(12, 9) });
    const badPad = Buffer.from(signed);
    badPad[4 + 12 + 1] = 0x00; // first integrity pad byte
    expect(() => ipmiDatagram.decode(badPad)).toThrow(/pad/);
    const badNext = Buffer.from(signed);
    badNext[signed.length - 13] = 0x06;
    expect(() => ipmiDatagram.decode(badNext)).toThrow(/next header/);
    expect(() => ipmiDatagram.decode(Buffer.from('0600ff0703000000000000000000', 'hex'))).toThrow(/auth type/);
    expect(() => ipmiDatagram.decode(Buffer.from('0600ff0600', 'hex'))).toThrow(/not IPMI/);
  });
});

describe('RMCP+ session setup messages', () => {
  const algorithms = { authentication: 1, integrity: 1, confidentiality: 1 };

  it('round-trips Open Session request and response, including short error answers', () => {
    expectRoundTrip(ipmi(openSessionRequest), { tag: 1, privilege: 4, consoleSessionId: 0xa0a2a3a4, algorithms });
    expectRoundTrip(ipmi(openSessionResponse), { tag: 1, status: 0, privilege: 4, consoleSessionId: 5, bmcSessionId: 6, algorithms });
    expectRoundTrip(ipmi(openSessionResponse), { tag: 1, status: 0x11, privilege: 0, consoleSessionId: 5 });
    // OpenIPMI answers a refused suite with tag and status alone.
    expect(openSessionResponse.decode(Buffer.from('0504', 'hex'))).toEqual({ tag: 5, status: 4 });
    expectRoundTrip(ipmi(openSessionResponse), { tag: 5, status: 4 });
  });

  it('round-trips RAKP 1–4', () => {
    expectRoundTrip(ipmi(rakp1), { tag: 2, bmcSessionId: 7, consoleRandom: bytes(16, 1), role: 0x14, username: Buffer.from('admin') });
    expectRoundTrip(ipmi(rakp1), { tag: 2, bmcSessionId: 7, consoleRandom: bytes(16, 1), role: 0x14, username: Buffer.alloc(0) });
    expectRoundTrip(ipmi(rakp2), { tag: 3, status: 0, consoleSessionId: 8, bmcRandom: bytes(16, 2), bmcGuid: bytes(16, 3), authCode: bytes(20, 4) });
    expectRoundTrip(ipmi(rakp2), { tag: 3, status: 0, consoleSessionId: 8, bmcRandom: bytes(16, 2), bmcGuid: bytes(16, 3), authCode: bytes(32, 4) });
    expectRoundTrip(ipmi(rakp2), { tag: 3, status: 0x0d, consoleSessionId: 8 });
    expectRoundTrip(ipmi(rakp3), { tag: 4, status: 0, bmcSessionId: 9, authCode: bytes(20, 5) });
    expectRoundTrip(ipmi(rakp4), { tag: 5, status: 0, consoleSessionId: 10, integrityCheck: bytes(12, 6) });
    expectRoundTrip(ipmi(rakp4), { tag: 5, status: 0x0f, consoleSessionId: 10, integrityCheck: Buffer.alloc(0) });
  });

  it('refuses user names longer than 16 bytes and wrong record types', () => {
    expect(() => rakp1.encode({ tag: 1, bmcSessionId: 1, consoleRandom: bytes(16, 0), role: 4, username: bytes(17, 0x41) })).toThrow(IpmiEncodeError);
    const request = openSessionRequest.encode({ tag: 1, privilege: 4, consoleSessionId: 1, algorithms });
    request[8] = 0x01; // the first record must be the authentication one
    expect(() => openSessionRequest.decode(request)).toThrow(/authentication payload has type 1/);
  });
});

describe('command data', () => {
  it('round-trips the commands this client sends and reads', () => {
    expectRoundTrip(ipmi(channelAuthCapabilitiesRequest), { channel: 0x0e, extended: true, privilege: 4 });
    expectRoundTrip(ipmi(channelAuthCapabilities), {
      channel: 1,
      authTypes: 0x17,
      extendedCapabilities: true,
      kgSet: false,
      perMessageAuthDisabled: false,
      userLevelAuthDisabled: true,
      nonNullUsernames: true,
      nullUsernames: false,
      anonymousLogin: false,
      supportsV15: true,
      supportsV20: true,
      oemId: 0x0157,
      oemAux: 0,
    });
    expectRoundTrip(ipmi(deviceIdResponse), {
      deviceId: 0x21,
      deviceRevision: 3,
      providesSdrs: false,
      deviceAvailable: true,
      firmwareMajor: 1,
      firmwareMinor: 42,
      ipmiVersion: '2.0',
      additionalSupport: 0x9f,
      manufacturerId: 343,
      productId: 0x0b0a,
    });
    expectRoundTrip(ipmi(deviceIdResponse), {
      deviceId: 1,
      deviceRevision: 0,
      providesSdrs: true,
      deviceAvailable: false,
      firmwareMajor: 127,
      firmwareMinor: 9,
      ipmiVersion: '1.5',
      additionalSupport: 0,
      manufacturerId: 0xfffff,
      productId: 0xffff,
      auxFirmware: Buffer.from([1, 2, 3, 4]),
    });
    expectRoundTrip(ipmi(chassisStatusResponse), { powerOn: true, overload: false, interlock: true, powerFault: false, controlFault: true, restorePolicy: 2, lastPowerEvent: 0x10, miscState: 0x40 });
    expectRoundTrip(ipmi(chassisStatusResponse), { powerOn: false, overload: true, interlock: false, powerFault: true, controlFault: false, restorePolicy: 3, lastPowerEvent: 0, miscState: 0, frontPanel: 0xff });
    expectRoundTrip(ipmi(setBootFlagsRequest), { valid: true, persistent: false, efi: true, device: BootDeviceSelector.PXE });
    expectRoundTrip(ipmi(setBootFlagsRequest), { valid: true, persistent: true, efi: false, device: BootDeviceSelector.BIOS_SETUP });
    expectRoundTrip(ipmi(sessionChallengeRequest), { authType: AuthType.MD5, username: Buffer.from('admin') });
    expectRoundTrip(ipmi(sessionChallengeResponse), { temporarySessionId: 0xdeadbeef, challenge: bytes(16, 8) });
    expectRoundTrip(ipmi(activateSessionRequest), { authType: AuthType.MD5, privilege: 4, challenge: bytes(16, 8), initialOutboundSequence: 1 });
    expectRoundTrip(ipmi(activateSessionResponse), { authType: AuthType.MD5, sessionId: 0x11, initialInboundSequence: 0x22, maxPrivilege: 4 });
  });

  it('writes the boot flags of IPMI v2.0 Table 28-14 (PXE, next boot, EFI)', () => {
    // Parameter 5; valid | EFI; PXE selector 0001b in bits 5:2.
    expect(setBootFlagsRequest.encode({ valid: true, persistent: false, efi: true, device: BootDeviceSelector.PXE }).toString('hex')).toBe('05a004000000');
    expect(setBootFlagsRequest.encode({ valid: true, persistent: true, efi: false, device: BootDeviceSelector.DISK }).toString('hex')).toBe('05c008000000');
  });

  it('reads a v1.5-only BMC as supporting v1.5 alone', () => {
    const caps = channelAuthCapabilities.decode(Buffer.from('0104140000000000', 'hex'));
    expect(caps.supportsV15).toBe(true);
    expect(caps.supportsV20).toBe(false);
  });
});

describe('tables', () => {
  it('describes completion codes and RMCP+ statuses from data', () => {
    expect(describeCompletionCode(0xc1)).toBe('invalid command (not supported by this BMC) (0xc1)');
    expect(describeCompletionCode(0xd4)).toMatch(/insufficient privilege/);
    expect(describeCompletionCode(0x42)).toMatch(/OEM/);
    expect(describeCompletionCode(0x9a)).toMatch(/unknown/);
    expect(describeRmcpPlusStatus(0x0d)).toBe('unauthorized name (0x0d)');
  });

  it('knows cipher suites 3 and 17 (Table 22-20)', () => {
    expect(CIPHER_SUITES[3]).toMatchObject({ authentication: 1, integrity: 1, confidentiality: 1, keyExchangeLength: 20, integrityLength: 12 });
    expect(CIPHER_SUITES[17]).toMatchObject({ authentication: 3, integrity: 4, confidentiality: 1, keyExchangeLength: 32, integrityLength: 16 });
  });
});
