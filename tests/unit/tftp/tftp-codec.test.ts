import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode, encode, encodingLength, TftpDecodeError, type TftpPacket } from '../../../src-main/servers/tftp/tftp-codec.js';

const FIXTURES = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../fixtures/tftp/packets.json'), 'utf8')) as {
  packets: { name: string; hex: string }[];
};

/** The shared round-trip check: lengths agree, decode(encode(v)) = v, stable re-encoding, encoding at an offset. */
function roundTrip(packet: TftpPacket): void {
  const length = encodingLength(packet);
  const bytes = encode(packet);
  expect(bytes.length).toBe(length);
  expect(encode.bytes).toBe(length);
  const decoded = decode(bytes);
  expect(decode.bytes).toBe(length);
  expect(normalise(decoded)).toEqual(normalise(packet));
  expect(encode(decoded).equals(bytes)).toBe(true);
  const big = Buffer.alloc(length + 10, 0xee);
  encode(packet, big, 5);
  expect(encode.bytes).toBe(length);
  expect(big.subarray(5, 5 + length).equals(bytes)).toBe(true);
  expect(big[4]).toBe(0xee);
  expect(big[5 + length]).toBe(0xee);
  expect(normalise(decode(big, 5, 5 + length))).toEqual(normalise(packet));
}

function normalise(packet: TftpPacket): unknown {
  return packet.op === 'data' ? { ...packet, data: [...packet.data] } : packet;
}

describe('TFTP codec', () => {
  it('round-trips every packet type', () => {
    roundTrip({ op: 'rrq', filename: 'undionly.kpxe', mode: 'octet', options: [] });
    roundTrip({ op: 'rrq', filename: 'ipxe/entry.ipxe', mode: 'netascii', options: [{ name: 'blksize', value: '1468' }, { name: 'tsize', value: '0' }] });
    roundTrip({ op: 'wrq', filename: 'upload.bin', mode: 'octet', options: [{ name: 'windowsize', value: '16' }] });
    roundTrip({ op: 'data', block: 1, data: Buffer.from('hello') });
    roundTrip({ op: 'data', block: 65535, data: Buffer.alloc(0) });
    roundTrip({ op: 'data', block: 7, data: Buffer.alloc(65464, 0xab) });
    roundTrip({ op: 'ack', block: 0 });
    roundTrip({ op: 'ack', block: 65535 });
    roundTrip({ op: 'error', code: 2, message: 'access violation' });
    roundTrip({ op: 'error', code: 0, message: '' });
    roundTrip({ op: 'oack', options: [{ name: 'blksize', value: '1468' }, { name: 'windowsize', value: '64' }] });
    roundTrip({ op: 'oack', options: [] });
    roundTrip({ op: 'rrq', filename: 'grüße/ファイル.efi', mode: 'octet', options: [] });
  });

  it('decodes and re-encodes packets captured from atftp, tftp-hpa and tftpd-hpa byte for byte', () => {
    expect(FIXTURES.packets.length).toBeGreaterThanOrEqual(7);
    for (const fixture of FIXTURES.packets) {
      const bytes = Buffer.from(fixture.hex, 'hex');
      const packet = decode(bytes);
      expect(decode.bytes, fixture.name).toBe(bytes.length);
      expect(encode(packet).equals(bytes), fixture.name).toBe(true);
      roundTrip(packet);
    }
    const atftp = decode(Buffer.from(FIXTURES.packets[0]!.hex, 'hex'));
    expect(atftp).toEqual({
      op: 'rrq',
      filename: 'pxelinux.0',
      mode: 'octet',
      options: [
        { name: 'tsize', value: 'enable' },
        { name: 'timeout', value: '3' },
        { name: 'blksize', value: '1468' },
        { name: 'windowsize', value: '16' },
      ],
    });
  });

  it('accepts NUL padding after the last option (some PXE ROMs pad requests)', () => {
    const padded = Buffer.concat([encode({ op: 'rrq', filename: 'a', mode: 'octet', options: [{ name: 'tsize', value: '0' }] }), Buffer.alloc(3)]);
    expect(decode(padded)).toEqual({ op: 'rrq', filename: 'a', mode: 'octet', options: [{ name: 'tsize', value: '0' }] });
  });

  it('refuses to encode NUL inside a string', () => {
    expect(() => encode({ op: 'error', code: 0, message: 'a\0b' })).toThrow(TypeError);
  });

  const hostile: [string, string][] = [
    ['empty', ''],
    ['one byte', '00'],
    ['unknown opcode', '0009'],
    ['opcode zero', '0000'],
    ['RRQ without anything', '0001'],
    ['RRQ file name without NUL', '000161'],
    ['RRQ without mode', '00016100'],
    ['RRQ mode without NUL', '0001610062'],
    ['RRQ empty file name', '0001006f6374657400'],
    ['RRQ option without value', '000161006f6374657400626c6b73697a6500'],
    ['RRQ option value without NUL', '000161006f6374657400626c6b73697a65003531'],
    ['RRQ empty option name', '000161006f63746574000031323300'],
    ['DATA without block', '0003'],
    ['DATA with half a block number', '000300'],
    ['ACK without block', '0004'],
    ['ACK with half a block number', '000400'],
    ['ERROR without code', '0005'],
    ['OACK option without value', '0006626c6b73697a6500'],
    ['OACK without final NUL', '0006626c6b73697a650031'],
  ];
  it.each(hostile)('rejects hostile input (%s) with TftpDecodeError', (_name, hex) => {
    expect(() => decode(Buffer.from(hex, 'hex'))).toThrow(TftpDecodeError);
  });

  it('rejects too many options and offsets outside the buffer', () => {
    const options = Array.from({ length: 40 }, (_, i) => ({ name: `o${i}`, value: '1' }));
    expect(() => decode(encode({ op: 'rrq', filename: 'a', mode: 'octet', options }))).toThrow(TftpDecodeError);
    const bytes = encode({ op: 'ack', block: 1 });
    expect(() => decode(bytes, 3, 2)).toThrow(TftpDecodeError);
    expect(() => decode(bytes, 0, 99)).toThrow(TftpDecodeError);
  });

  it('reads an ERROR message that lacks its final NUL', () => {
    expect(decode(Buffer.from('000500016e6f7065', 'hex'))).toEqual({ op: 'error', code: 1, message: 'nope' });
  });

  it('survives fuzzing: random and mutated packets only ever end in TftpDecodeError', () => {
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const seeds = [
      ...FIXTURES.packets.map((fixture) => Buffer.from(fixture.hex, 'hex')),
      encode({ op: 'data', block: 3, data: Buffer.alloc(100, 1) }),
      encode({ op: 'oack', options: [{ name: 'blksize', value: '1468' }] }),
    ];
    let decoded = 0;
    for (let i = 0; i < 20_000; i++) {
      let input: Buffer;
      if (i % 2 === 0) {
        input = Buffer.alloc(random(80));
        for (let j = 0; j < input.length; j++) input[j] = random(256);
        // Real opcodes most of the time, so the fuzz gets past the first check.
        if (input.length >= 2 && random(4) > 0) input.writeUInt16BE(1 + random(6), 0);
      } else {
        input = Buffer.from(seeds[random(seeds.length)]!);
        const mutations = 1 + random(4);
        for (let m = 0; m < mutations; m++) {
          const kind = random(3);
          if (kind === 0 && input.length > 0) input[random(input.length)] = random(256);
          else if (kind === 1) input = input.subarray(0, random(input.length + 1));
          else input = Buffer.concat([input, Buffer.from([random(256), 0])]);
        }
      }
      try {
        const packet = decode(input);
        decoded++;
        expect(decode.bytes).toBeLessThanOrEqual(input.length);
        // Whatever decodes must encode again without throwing.
        encode(packet);
      } catch (err) {
        if (!(err instanceof TftpDecodeError)) throw err;
      }
    }
    expect(decoded).toBeGreaterThan(100);
  });
});
