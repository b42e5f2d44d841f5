import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/**
 * The codec shape of docs/STYLE.md (as mafintosh/dns-packet): `encode` and
 * `decode` report the bytes the last call wrote or read in `.bytes`. A decoder
 * without an `end` parameter (IPMI) fits too: it reads to the buffer's end.
 */
export interface Codec<T> {
  encode: ((value: T, buf?: Buffer, offset?: number) => Buffer) & { bytes: number };
  decode: ((buf: Buffer, offset?: number, end?: number) => T) & { bytes: number };
  encodingLength(value: T): number;
}

/** One codec as the round-trip checks see it: the codec and how it differs from the plain shape. */
export interface CodecAdapter<T> {
  codec: Codec<T>;
  /**
   * `decode(buf, offset, end)` stops at `end` (DHCP, TFTP). When false (IPMI),
   * a decoder reads to the end of the buffer, so the offset check hands it a
   * view that ends where the value does.
   */
  decodeTakesEnd: boolean;
  /**
   * The bytes `encode(decode(captured))` must give; the capture itself unless
   * given (a codec that writes a canonical form, e.g. DHCP's 300-byte minimum).
   */
  reencoded?: (captured: Buffer) => Buffer;
}

/** Where a value is put inside a larger buffer, and what surrounds it. */
const OFFSET = 7;
const TAIL = 9;
const FILL = 0xa5;

/**
 * The shared round-trip check of a value: decode(encode(v)) deep-equals v;
 * the buffer length, `encode.bytes`, `decode.bytes` and encodingLength agree;
 * re-encoding the decoded value gives the same bytes; encoding at an offset
 * inside a larger buffer writes the same bytes there, touches nothing around
 * them, and decodes back from there. Returns the encoding.
 */
export function expectRoundTrip<T>(adapter: CodecAdapter<T>, value: T): Buffer {
  const { codec } = adapter;
  const length = codec.encodingLength(value);
  const bytes = codec.encode(value);
  expect(bytes.length, 'encoded length vs encodingLength').toBe(length);
  expect(codec.encode.bytes, 'encode.bytes').toBe(length);
  const decoded = codec.decode(bytes);
  expect(codec.decode.bytes, 'decode.bytes').toBe(length);
  expect(decoded, 'decode(encode(value))').toEqual(value);
  expect(codec.encode(decoded).equals(bytes), 're-encoding the decoded value').toBe(true);

  const big = Buffer.alloc(OFFSET + length + TAIL, FILL);
  expect(codec.encode(value, big, OFFSET), 'encode returns the buffer it was given').toBe(big);
  expect(codec.encode.bytes, 'encode.bytes at an offset').toBe(length);
  expect(big.subarray(OFFSET, OFFSET + length).equals(bytes), 'bytes written at an offset').toBe(true);
  expect(big.subarray(0, OFFSET).every((byte) => byte === FILL), 'bytes before the offset untouched').toBe(true);
  expect(big.subarray(OFFSET + length).every((byte) => byte === FILL), 'bytes after the value untouched').toBe(true);
  const atOffset = adapter.decodeTakesEnd ? codec.decode(big, OFFSET, OFFSET + length) : codec.decode(big.subarray(0, OFFSET + length), OFFSET);
  expect(codec.decode.bytes, 'decode.bytes at an offset').toBe(length);
  expect(atOffset, 'decoded at an offset').toEqual(value);
  return bytes;
}

/**
 * The check of a captured packet: it decodes using every byte, re-encodes to
 * the same bytes (or the codec's canonical form of them, see `reencoded`), and
 * the decoded value passes `expectRoundTrip`. Returns the decoded value.
 */
export function expectCapturedRoundTrip<T>(adapter: CodecAdapter<T>, captured: Buffer, name = 'the capture'): T {
  const decoded = adapter.codec.decode(captured);
  expect(adapter.codec.decode.bytes, `decode.bytes of ${name}`).toBe(captured.length);
  const expected = adapter.reencoded ? adapter.reencoded(captured) : captured;
  const reencoded = adapter.codec.encode(decoded);
  // Compared as hex so a failure shows where the bytes differ.
  expect(reencoded.toString('hex'), `re-encoding of ${name}`).toBe(expected.toString('hex'));
  expectRoundTrip(adapter, decoded);
  return decoded;
}

/** One captured packet from tests/fixtures/<proto>/. */
export interface HexFixture {
  /** The fixture file it came from. */
  file: string;
  /** `file` for a `.hex` file; `file #index` and the packet's name or direction for a capture in JSON. */
  name: string;
  bytes: Buffer;
}

interface JsonCapture {
  packets?: { hex?: unknown; name?: unknown; direction?: unknown }[];
}

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/**
 * Every captured packet under tests/fixtures/<proto>/, in file-name order:
 * one per `*.hex` file (whitespace ignored), and each `packets[].hex` of a
 * `*.json` capture. Throws on a file it cannot read as hex, so a broken
 * fixture fails the tests instead of silently dropping out of them.
 */
export function loadHexFixtures(proto: string, root = FIXTURES): HexFixture[] {
  const dir = path.join(root, proto);
  const fixtures: HexFixture[] = [];
  for (const file of readdirSync(dir).sort()) {
    const text = (): string => readFileSync(path.join(dir, file), 'utf8');
    if (file.endsWith('.hex')) {
      fixtures.push({ file, name: file, bytes: fromHex(text().replace(/\s+/g, ''), file) });
    } else if (file.endsWith('.json')) {
      const capture = JSON.parse(text()) as JsonCapture;
      if (!Array.isArray(capture.packets)) continue;
      capture.packets.forEach((packet, index) => {
        const label = typeof packet.name === 'string' ? packet.name : typeof packet.direction === 'string' ? packet.direction : '';
        const name = `${file} #${index}${label ? ` ${label}` : ''}`;
        if (typeof packet.hex !== 'string') throw new Error(`${proto} fixture ${name} has no hex string`);
        fixtures.push({ file, name, bytes: fromHex(packet.hex, name) });
      });
    }
  }
  return fixtures;
}

function fromHex(hex: string, name: string): Buffer {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(hex)) throw new Error(`fixture ${name} is not an even-length hex string`);
  return Buffer.from(hex, 'hex');
}
