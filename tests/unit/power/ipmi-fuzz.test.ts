import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Codec } from '../../../src-main/power/ipmi/codec.js';
import { IpmiDecodeError } from '../../../src-main/power/ipmi/codec.js';
import {
  activateSessionRequest,
  activateSessionResponse,
  channelAuthCapabilities,
  channelAuthCapabilitiesRequest,
  chassisStatusResponse,
  deviceIdResponse,
  sessionChallengeRequest,
  sessionChallengeResponse,
  setBootFlagsRequest,
} from '../../../src-main/power/ipmi/commands.js';
import { bmcRequest, lanMessage } from '../../../src-main/power/ipmi/lan-message.js';
import { openSessionRequest, openSessionResponse, rakp1, rakp2, rakp3, rakp4 } from '../../../src-main/power/ipmi/rakp.js';
import { asfMessage, decodeAsfDatagram, encodePresencePing, rmcpHeader } from '../../../src-main/power/ipmi/rmcp.js';
import { decryptPayload, encryptPayload } from '../../../src-main/power/ipmi/session-crypto.js';
import { ipmiDatagram, type Session20Packet } from '../../../src-main/power/ipmi/session-packet.js';
import { fuzzDecoder } from './decoder-fuzz.js';

/*
 * Hostile input for every IPMI decoder: random bytes and mutations
 * (truncation, extension, bit flips, overwrites) of real packets. Each
 * decoder returns or throws IpmiDecodeError — never another error, never a
 * hang (the iterations are bounded and every loop in the codecs is bounded
 * by the input length).
 */
const capture = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../fixtures/ipmi/ipmitool-lanplus-cs3.json'), 'utf8')) as {
  packets: { hex: string }[];
};
const datagrams = capture.packets.map((packet) => Buffer.from(packet.hex, 'hex'));
const payloads = datagrams
  .map((buf) => ipmiDatagram.decode(buf))
  .filter((packet): packet is Session20Packet => packet.format === 'v20')
  .map((packet) => packet.payload);

function seedsOf<T>(codec: Codec<T>, values: T[]): Buffer[] {
  return values.map((value) => codec.encode(value));
}

const codecs: [string, Codec<unknown>, Buffer[]][] = [
  ['rmcpHeader', rmcpHeader as Codec<unknown>, datagrams],
  ['asfMessage', asfMessage as Codec<unknown>, [encodePresencePing(1).subarray(4)]],
  ['ipmiDatagram', ipmiDatagram as Codec<unknown>, datagrams],
  ['lanMessage', lanMessage as Codec<unknown>, [lanMessage.encode(bmcRequest(6, 0x38, 1, Buffer.from([0x8e, 4])))]],
  ['openSessionRequest', openSessionRequest as Codec<unknown>, payloads],
  ['openSessionResponse', openSessionResponse as Codec<unknown>, payloads],
  ['rakp1', rakp1 as Codec<unknown>, payloads],
  ['rakp2', rakp2 as Codec<unknown>, payloads],
  ['rakp3', rakp3 as Codec<unknown>, payloads],
  ['rakp4', rakp4 as Codec<unknown>, payloads],
  ['channelAuthCapabilitiesRequest', channelAuthCapabilitiesRequest as Codec<unknown>, [Buffer.from('8e04', 'hex')]],
  ['channelAuthCapabilities', channelAuthCapabilities as Codec<unknown>, [Buffer.from('0197040300000000', 'hex')]],
  ['deviceIdResponse', deviceIdResponse as Codec<unknown>, [Buffer.from('2103014202' + '9f570100' + '0a0b', 'hex')]],
  ['chassisStatusResponse', chassisStatusResponse as Codec<unknown>, [Buffer.from('01000000', 'hex')]],
  ['setBootFlagsRequest', setBootFlagsRequest as Codec<unknown>, [Buffer.from('05a004000000', 'hex')]],
  ['sessionChallengeRequest', sessionChallengeRequest as Codec<unknown>, seedsOf(sessionChallengeRequest, [{ authType: 2, username: Buffer.from('admin') }]) as Buffer[]],
  ['sessionChallengeResponse', sessionChallengeResponse as Codec<unknown>, [Buffer.alloc(20, 1)]],
  ['activateSessionRequest', activateSessionRequest as Codec<unknown>, [Buffer.alloc(22, 1)]],
  ['activateSessionResponse', activateSessionResponse as Codec<unknown>, [Buffer.alloc(10, 1)]],
];

describe('IPMI decoders under hostile input', () => {
  for (const [name, codec, seeds] of codecs) {
    it(`${name} returns or throws IpmiDecodeError`, () => {
      const { rejected } = fuzzDecoder(name, (buf) => codec.decode(buf), seeds);
      // Random input must be refused some of the time: a decoder that accepts everything checks nothing.
      if (name !== 'chassisStatusResponse' && name !== 'channelAuthCapabilitiesRequest') expect(rejected).toBeGreaterThan(0);
    });
  }

  it('the ASF datagram reader and the AES-CBC payload reader do too', () => {
    fuzzDecoder('decodeAsfDatagram', (buf) => decodeAsfDatagram(buf), [encodePresencePing(7)]);
    const key = Buffer.alloc(16, 0x42);
    fuzzDecoder('decryptPayload', (buf) => decryptPayload(key, buf), [encryptPayload(key, Buffer.from('hello ipmi')), encryptPayload(key, Buffer.alloc(15))]);
  });

  it('refuses an offset outside the buffer with the same error', () => {
    expect(() => lanMessage.decode(Buffer.alloc(4), 9)).toThrow(IpmiDecodeError);
    expect(() => lanMessage.decode(Buffer.alloc(4), -1)).toThrow(IpmiDecodeError);
  });
});
