import { expect } from 'vitest';

/** A codec in the dns-packet shape: encode/decode report the bytes they used. */
export interface Codec<T> {
  encode: ((value: T, buf?: Buffer, offset?: number) => Buffer) & { bytes: number };
  decode: ((buf: Buffer, offset?: number, end?: number) => T) & { bytes: number };
  encodingLength: (value: T) => number;
}

/**
 * The shared round-trip check: decode(encode(v)) equals v; the buffer length,
 * the bytes reported and encodingLength agree; re-encoding is byte-stable;
 * encoding into a larger buffer at an offset gives the same bytes and decodes
 * back from there.
 */
export function expectRoundTrip<T>(codec: Codec<T>, value: T): void {
  const bytes = codec.encode(value);
  expect(bytes.length).toBe(codec.encodingLength(value));
  expect(codec.encode.bytes).toBe(bytes.length);
  const decoded = codec.decode(bytes);
  expect(codec.decode.bytes).toBe(bytes.length);
  expect(decoded).toEqual(value);
  expect(codec.encode(decoded).equals(bytes)).toBe(true);

  const offset = 7;
  const big = Buffer.alloc(bytes.length + offset + 5, 0xaa);
  codec.encode(value, big, offset);
  expect(codec.encode.bytes).toBe(bytes.length);
  expect(big.subarray(offset, offset + bytes.length).equals(bytes)).toBe(true);
  expect(big[offset - 1]).toBe(0xaa);
  expect(big[offset + bytes.length]).toBe(0xaa);
  expect(codec.decode(big, offset, offset + bytes.length)).toEqual(value);
}

/** decode → encode → decode of real captured bytes: the second decode equals the first. */
export function expectStableDecode<T>(codec: Codec<T>, captured: Buffer): T {
  const first = codec.decode(captured);
  expect(codec.decode.bytes).toBe(captured.length);
  expectRoundTrip(codec, first);
  return first;
}
