import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cipherSuite } from '../../../src-main/power/ipmi/cipher-suites.js';
import { lanMessage } from '../../../src-main/power/ipmi/lan-message.js';
import { openSessionRequest, openSessionResponse, rakp1, rakp2, rakp3, rakp4 } from '../../../src-main/power/ipmi/rakp.js';
import {
  decryptPayload,
  deriveSessionKeys,
  packetAuthCode,
  rakp2AuthCode,
  rakp3AuthCode,
  rakp4IntegrityCheck,
  sessionIntegrityKey,
  userKey,
  type RakpInputs,
} from '../../../src-main/power/ipmi/session-crypto.js';
import { integrityRange, ipmiDatagram, PayloadType, type Session20Packet, type SessionPacket } from '../../../src-main/power/ipmi/session-packet.js';
import { expectCapturedRoundTrip, loadHexFixtures, type CodecAdapter } from '../../helpers/codec-roundtrip.js';

/*
 * A real conversation: ipmitool (client) and OpenIPMI's ipmi_sim (BMC),
 * cipher suite 3, captured on loopback. Two independent implementations
 * produced these bytes; our codecs must read them all and re-encode them
 * byte for byte, and our RAKP and session crypto must reproduce every code
 * each side computed — a known-answer test of SHA1 RAKP, K1/K2 and AES-CBC.
 */
interface Capture {
  username: string;
  password: string;
  cipher_suite: 3;
  packets: { direction: 'to_bmc' | 'from_bmc'; hex: string }[];
}

const CAPTURE_FILE = 'ipmitool-lanplus-cs3.json';
const capture = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../fixtures/ipmi', CAPTURE_FILE), 'utf8')) as Capture;
const raw = loadHexFixtures('ipmi')
  .filter((fixture) => fixture.file === CAPTURE_FILE)
  .map((fixture) => fixture.bytes);
/** IPMI decoders take no `end`: they read to the end of the buffer. */
const datagram: CodecAdapter<SessionPacket> = { codec: ipmiDatagram, decodeTakesEnd: false };
const packets = raw.map((buf) => ipmiDatagram.decode(buf));
const v20 = (index: number) => packets[index] as Session20Packet;

describe('captured ipmitool ↔ ipmi_sim session (cipher suite 3)', () => {
  it('decodes every datagram and re-encodes it byte for byte', () => {
    expect(raw).toHaveLength(22);
    raw.forEach((buf, index) => {
      expect(expectCapturedRoundTrip(datagram, buf, `packet ${index}`)).toEqual(packets[index]);
    });
    expect(packets[0]).toMatchObject({ format: 'v15', authType: 0, sessionId: 0 });
    expect(packets.slice(2, 8).map((packet) => (packet as Session20Packet).payloadType)).toEqual([
      PayloadType.OPEN_SESSION_REQUEST,
      PayloadType.OPEN_SESSION_RESPONSE,
      PayloadType.RAKP1,
      PayloadType.RAKP2,
      PayloadType.RAKP3,
      PayloadType.RAKP4,
    ]);
  });

  it('reproduces the RAKP 2, RAKP 3 and RAKP 4 codes of both sides', () => {
    const suite = cipherSuite(capture.cipher_suite);
    const open = openSessionRequest.decode(v20(2).payload);
    const opened = openSessionResponse.decode(v20(3).payload);
    const first = rakp1.decode(v20(4).payload);
    const second = rakp2.decode(v20(5).payload);
    const third = rakp3.decode(v20(6).payload);
    const fourth = rakp4.decode(v20(7).payload);
    expect(open.algorithms).toEqual({ authentication: 1, integrity: 1, confidentiality: 1 });
    expect(opened.status).toBe(0);
    expect(first.username.toString()).toBe(capture.username);
    const inputs: RakpInputs = {
      consoleSessionId: open.consoleSessionId,
      bmcSessionId: opened.bmcSessionId!,
      consoleRandom: first.consoleRandom,
      bmcRandom: second.bmcRandom!,
      bmcGuid: second.bmcGuid!,
      role: first.role,
      username: first.username,
    };
    const kuid = userKey(Buffer.from(capture.password));
    // The BMC's code, computed by OpenIPMI.
    expect(rakp2AuthCode(suite, kuid, inputs).equals(second.authCode!)).toBe(true);
    // The console's code, computed by ipmitool.
    expect(rakp3AuthCode(suite, kuid, inputs).equals(third.authCode)).toBe(true);
    const sik = sessionIntegrityKey(suite, kuid, inputs);
    expect(rakp4IntegrityCheck(suite, sik, inputs).equals(fourth.integrityCheck)).toBe(true);
    // A wrong password gives a different RAKP 2 code: that is how we detect it.
    expect(rakp2AuthCode(suite, userKey(Buffer.from('wrong')), inputs).equals(second.authCode!)).toBe(false);
  });

  it('verifies the AuthCode of and decrypts every session message', () => {
    const suite = cipherSuite(capture.cipher_suite);
    const open = openSessionRequest.decode(v20(2).payload);
    const opened = openSessionResponse.decode(v20(3).payload);
    const first = rakp1.decode(v20(4).payload);
    const second = rakp2.decode(v20(5).payload);
    const inputs: RakpInputs = {
      consoleSessionId: open.consoleSessionId,
      bmcSessionId: opened.bmcSessionId!,
      consoleRandom: first.consoleRandom,
      bmcRandom: second.bmcRandom!,
      bmcGuid: second.bmcGuid!,
      role: first.role,
      username: first.username,
    };
    const keys = deriveSessionKeys(suite, sessionIntegrityKey(suite, userKey(Buffer.from(capture.password)), inputs));
    const commands: string[] = [];
    for (let index = 8; index < raw.length; index += 1) {
      const packet = v20(index);
      expect(packet).toMatchObject({ payloadType: PayloadType.IPMI, encrypted: true, authenticated: true });
      // Requests carry the BMC's session id, responses the console's.
      expect(packet.sessionId).toBe(index % 2 === 0 ? inputs.bmcSessionId : inputs.consoleSessionId);
      const range = integrityRange(raw[index]!.length, packet.authCode!.length);
      expect(packetAuthCode(suite, keys.k1, raw[index]!.subarray(range.start, range.end)).equals(packet.authCode!)).toBe(true);
      const message = lanMessage.decode(decryptPayload(keys.aesKey, packet.payload));
      commands.push(`${message.netFn.toString(16)}/${message.cmd.toString(16)}`);
    }
    // Set Session Privilege, then what `chassis power status` asks, then Close Session — requests and responses in turn.
    expect(commands[0]).toBe('6/3b');
    expect(commands[1]).toBe('7/3b');
    expect(commands).toContain('0/1');
    expect(commands).toContain('1/1');
    expect(commands.at(-2)).toBe('6/3c');
    expect(commands.at(-1)).toBe('7/3c');
  });
});
