import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readClientRequest } from '../../../../src-main/dhcp/server/client-request.js';
import { decode, DhcpDecodeError, encode } from '../../../../src-main/dhcp/server/dhcp-codec.js';
import { decodeOptionValue } from '../../../../src-main/dhcp/dhcp-options.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/dhcp');
const seeds = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.hex'))
  .map((name) => Buffer.from(readFileSync(path.join(FIXTURES, name), 'utf8').trim(), 'hex'));

/** xorshift32: reproducible runs. */
function rng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}

/** Decoding either succeeds or throws DhcpDecodeError; anything decoded can be read and re-encoded. */
function exercise(bytes: Buffer): 'ok' | 'rejected' {
  let packet;
  try {
    packet = decode(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(DhcpDecodeError);
    return 'rejected';
  }
  readClientRequest(packet);
  for (const option of packet.options) decodeOptionValue(option.code, option.data);
  // Fields decoded from the wire always fit the wire again.
  const again = decode(encode(packet));
  expect(again.options.length).toBe(packet.options.length);
  return 'ok';
}

describe('DHCP decoder fuzz', () => {
  it('survives random buffers (bounded)', () => {
    const random = rng(0xc0ffee);
    let rejected = 0;
    for (let i = 0; i < 5000; i += 1) {
      const length = Math.floor(random() * 700);
      const bytes = Buffer.alloc(length);
      for (let j = 0; j < length; j += 1) bytes[j] = Math.floor(random() * 256);
      // Half of them get a valid cookie, so the option parser is reached.
      if (length >= 240 && random() < 0.5) bytes.writeUInt32BE(0x63825363, 236);
      if (exercise(bytes) === 'rejected') rejected += 1;
    }
    expect(rejected).toBeGreaterThan(0);
  });

  it('survives mutations of captured packets (bounded)', () => {
    const random = rng(0xdecaf);
    let decoded = 0;
    for (let i = 0; i < 20_000; i += 1) {
      const seed = seeds[i % seeds.length]!;
      const bytes = Buffer.from(seed);
      const flips = 1 + Math.floor(random() * 8);
      for (let f = 0; f < flips; f += 1) {
        const at = 236 + Math.floor(random() * (bytes.length - 236));
        bytes[at] = Math.floor(random() * 256);
      }
      // Sometimes cut or extend the packet.
      const shape = random();
      const mutated = shape < 0.1 ? bytes.subarray(0, Math.floor(random() * bytes.length)) : shape < 0.2 ? Buffer.concat([bytes, Buffer.alloc(Math.floor(random() * 400), Math.floor(random() * 256))]) : bytes;
      if (exercise(mutated) === 'ok') decoded += 1;
    }
    expect(decoded).toBeGreaterThan(0);
  });

  it('terminates on option loops of pads and overloads', () => {
    const bytes = Buffer.alloc(600, 0);
    bytes.writeUInt32BE(0x63825363, 236);
    // Option 52 = 3 everywhere: file and sname are parsed once each, never again.
    for (let at = 240; at + 3 <= 600; at += 3) bytes.set([52, 1, 3], at);
    bytes.set([52, 1, 3], 44);
    bytes.set([52, 1, 3], 108);
    expect(exercise(bytes)).toBe('ok');
  });
});
