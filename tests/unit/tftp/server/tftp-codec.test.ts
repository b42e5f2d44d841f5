import { describe, expect, it } from 'vitest';
import { decode, encode, TftpDecodeError, tftpCodec, type TftpPacket } from '../../../../src-main/tftp/server/tftp-codec.js';
import { expectCapturedRoundTrip, expectRoundTrip, loadHexFixtures, type CodecAdapter } from '../../../helpers/codec-roundtrip.js';

const FIXTURES = loadHexFixtures('tftp');

const tftp: CodecAdapter<TftpPacket> = { codec: tftpCodec, decodeTakesEnd: true };

describe('TFTP codec', () => {
  it('round-trips every packet type', () => {
    expectRoundTrip(tftp, { op: 'rrq', filename: 'undionly.kpxe', mode: 'octet', options: [] });
    expectRoundTrip(tftp, { op: 'rrq', filename: 'ipxe/entry.ipxe', mode: 'netascii', options: [{ name: 'blksize', value: '1468' }, { name: 'tsize', value: '0' }] });
    expectRoundTrip(tftp, { op: 'wrq', filename: 'upload.bin', mode: 'octet', options: [{ name: 'windowsize', value: '16' }] });
    expectRoundTrip(tftp, { op: 'data', block: 1, data: Buffer.from('hello') });
    expectRoundTrip(tftp, { op: 'data', block: 65535, data: Buffer.alloc(0) });
    expectRoundTrip(tftp, { op: 'data', block: 7, data: Buffer.alloc(65464, 0xab) });
    expectRoundTrip(tftp, { op: 'ack', block: 0 });
    expectRoundTrip(tftp, { op: 'ack', block: 65535 });
    expectRoundTrip(tftp, { op: 'error', code: 2, message: 'access violation' });
    expectRoundTrip(tftp, { op: 'error', code: 0, message: '' });
    expectRoundTrip(tftp, { op: 'oack', options: [{ name: 'blksize', value: '1468' }, { name: 'windowsize', value: '64' }] });
    expectRoundTrip(tftp, { op: 'oack', options: [] });
    expectRoundTrip(tftp, { op: 'rrq', filename: 'grüße/ファイル.efi', mode: 'octet', options: [] });
  });

  it('decodes and re-encodes packets captured from atftp, tftp-hpa and tftpd-hpa byte for byte', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(7);
    for (const fixture of FIXTURES) expectCapturedRoundTrip(tftp, fixture.bytes, fixture.name);
    const atftp = decode(FIXTURES[0]!.bytes);
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
      ...FIXTURES.map((fixture) => fixture.bytes),
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
