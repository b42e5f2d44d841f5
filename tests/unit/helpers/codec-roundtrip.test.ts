import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectCapturedRoundTrip, expectRoundTrip, loadHexFixtures, type Codec, type CodecAdapter } from '../../helpers/codec-roundtrip.js';

/*
 * The round-trip helper must catch each way a codec can be wrong, or every
 * codec test built on it proves less than it says. A toy codec (a string
 * behind a one-byte length) is broken one way at a time.
 */
interface Flaws {
  lengthOff?: number;
  encodeIgnoresOffset?: boolean;
  encodeSpills?: boolean;
  decodeBytesOff?: number;
  decodeIgnoresOffset?: boolean;
  decodeUpperCases?: boolean;
}

function toyCodec(flaws: Flaws = {}): Codec<string> {
  const encodingLength = (value: string): number => 1 + Buffer.byteLength(value) + (flaws.lengthOff ?? 0);
  const encode = Object.assign(
    (value: string, buf?: Buffer, offset = 0): Buffer => {
      const body = Buffer.from(value);
      const out = buf ?? Buffer.alloc(1 + body.length);
      const at = flaws.encodeIgnoresOffset ? 0 : offset;
      out[at] = body.length;
      body.copy(out, at + 1);
      if (flaws.encodeSpills && at + 1 + body.length < out.length) out[at + 1 + body.length] = 0;
      encode.bytes = 1 + body.length;
      return out;
    },
    { bytes: 0 },
  );
  const decode = Object.assign(
    (buf: Buffer, offset = 0): string => {
      const at = flaws.decodeIgnoresOffset ? 0 : offset;
      const length = buf[at] ?? 0;
      const text = buf.toString('utf8', at + 1, at + 1 + length);
      decode.bytes = 1 + length + (flaws.decodeBytesOff ?? 0);
      return flaws.decodeUpperCases ? text.toUpperCase() : text;
    },
    { bytes: 0 },
  );
  return { encode, decode, encodingLength };
}

const adapter = (flaws?: Flaws): CodecAdapter<string> => ({ codec: toyCodec(flaws), decodeTakesEnd: false });

describe('codec round-trip helper', () => {
  it('passes a correct codec and returns its encoding', () => {
    expect(expectRoundTrip(adapter(), 'pxelinux.0').toString('hex')).toBe('0a' + Buffer.from('pxelinux.0').toString('hex'));
    expect(expectCapturedRoundTrip(adapter(), Buffer.from('026869', 'hex'))).toBe('hi');
  });

  it.each<[string, Flaws]>([
    ['encodingLength disagrees with the encoding', { lengthOff: 1 }],
    ['encode ignores the offset', { encodeIgnoresOffset: true }],
    ['encode writes past its value', { encodeSpills: true }],
    ['decode reports the wrong byte count', { decodeBytesOff: 1 }],
    ['decode ignores the offset', { decodeIgnoresOffset: true }],
    ['decode(encode(v)) differs from v', { decodeUpperCases: true }],
  ])('fails a codec whose %s', (_name, flaws) => {
    expect(() => expectRoundTrip(adapter(flaws), 'ipxe')).toThrow();
  });

  it('fails a capture that decodes without all its bytes or re-encodes differently, unless the codec says how', () => {
    expect(() => expectCapturedRoundTrip(adapter(), Buffer.from('026869ff', 'hex'))).toThrow(/decode.bytes/);
    const padded = { ...adapter(), reencoded: (captured: Buffer) => Buffer.concat([captured, Buffer.alloc(1)]) };
    expect(() => expectCapturedRoundTrip(padded, Buffer.from('026869', 'hex'), 'toy')).toThrow(/re-encoding of toy/);
  });
});

describe('hex fixture loader', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'codec-fixtures-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads .hex files and the packets of JSON captures, in file order', () => {
    mkdirSync(path.join(root, 'toy'));
    writeFileSync(path.join(root, 'toy', 'b.hex'), '02 68\n69\n');
    writeFileSync(path.join(root, 'toy', 'a.json'), JSON.stringify({ packets: [{ name: 'first', hex: '00' }, { direction: 'to_bmc', hex: '0161' }] }));
    writeFileSync(path.join(root, 'toy', 'c.json'), JSON.stringify({ other: true }));
    writeFileSync(path.join(root, 'toy', 'README.md'), 'not a fixture');
    expect(loadHexFixtures('toy', root)).toEqual([
      { file: 'a.json', name: 'a.json #0 first', bytes: Buffer.from([0]) },
      { file: 'a.json', name: 'a.json #1 to_bmc', bytes: Buffer.from([1, 0x61]) },
      { file: 'b.hex', name: 'b.hex', bytes: Buffer.from('026869', 'hex') },
    ]);
  });

  it('refuses a fixture that is not hex instead of dropping it', () => {
    mkdirSync(path.join(root, 'bad'));
    writeFileSync(path.join(root, 'bad', 'odd.hex'), 'abc');
    expect(() => loadHexFixtures('bad', root)).toThrow(/odd.hex is not an even-length hex string/);
  });

  it('finds the captures of DHCP, TFTP and IPMI', () => {
    expect(loadHexFixtures('dhcp').length).toBeGreaterThanOrEqual(10);
    expect(loadHexFixtures('tftp').length).toBeGreaterThanOrEqual(7);
    expect(loadHexFixtures('ipmi').length).toBeGreaterThanOrEqual(22);
  });
});
