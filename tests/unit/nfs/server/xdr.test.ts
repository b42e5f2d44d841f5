import { describe, expect, it } from 'vitest';
import { paddedLength, XdrError, XdrReader, XdrWriter } from '../../../../src-main/nfs/server/xdr.js';
import { prng } from '../../../helpers/prng.js';

describe('XDR primitives (RFC 4506)', () => {
  it('writes and reads every primitive big-endian and padded to four bytes', () => {
    const writer = new XdrWriter(4)
      .uint32(0xdeadbeef)
      .int32(-2)
      .uint64(0x0102030405060708n)
      .int64(-1n)
      .bool(true)
      .opaque(Buffer.from('abcde'))
      .string('grüße')
      .fixedOpaque(Buffer.from([9, 9]));
    const bytes = writer.toBuffer();
    expect(bytes.length).toBe(writer.length);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('deadbeeffffffffe');
    expect(bytes.subarray(28, 40).toString('hex')).toBe('000000056162636465000000');
    const reader = new XdrReader(bytes);
    expect(reader.uint32()).toBe(0xdeadbeef);
    expect(reader.int32()).toBe(-2);
    expect(reader.uint64()).toBe(0x0102030405060708n);
    expect(reader.int64()).toBe(-1n);
    expect(reader.bool()).toBe(true);
    expect(reader.opaque(5).toString()).toBe('abcde');
    expect(reader.string(7)).toBe('grüße');
    expect([...reader.fixedOpaque(2)]).toEqual([9, 9]);
    expect(reader.remaining()).toBe(0);
    expect(paddedLength(5)).toBe(8);
    expect(paddedLength(8)).toBe(8);
  });

  it('copies raw XDR bytes as they are, whole 4-byte units only', () => {
    const entry = new XdrWriter().uint32(7).string('ab').toBuffer();
    const out = new XdrWriter(4).uint32(1).raw(entry).raw(entry).uint32(2).toBuffer();
    expect(out.equals(Buffer.concat([Buffer.from([0, 0, 0, 1]), entry, entry, Buffer.from([0, 0, 0, 2])]))).toBe(true);
    expect(() => new XdrWriter().raw(Buffer.alloc(6))).toThrow(RangeError);
  });

  it('places attached data by reference, between copied chunks', () => {
    const data = Buffer.alloc(1001, 7);
    const chunks = new XdrWriter().uint32(1).attach(data).uint32(2).toBuffers();
    expect(chunks).toContain(data);
    const joined = Buffer.concat(chunks);
    expect(joined.length).toBe(4 + 4 + 1004 + 4);
    const reader = new XdrReader(joined);
    expect(reader.uint32()).toBe(1);
    expect(reader.opaque(2000).equals(data)).toBe(true);
    expect(reader.uint32()).toBe(2);
  });

  it('refuses lengths over their maximum or past the end, bad booleans and counts the message cannot hold', () => {
    const long = new XdrWriter().opaque(Buffer.alloc(10)).toBuffer();
    expect(() => new XdrReader(long).opaque(9)).toThrow(/over the limit of 9/);
    expect(() => new XdrReader(long.subarray(0, 8)).opaque(100)).toThrow(XdrError);
    expect(() => new XdrReader(new XdrWriter().uint32(2).toBuffer()).bool()).toThrow(/not a boolean/);
    // A count of a million items in an 8-byte message is refused before any item is read.
    expect(() => new XdrReader(new XdrWriter().uint32(1_000_000).uint32(0).toBuffer()).array(2_000_000, (r) => r.uint32())).toThrow(/cannot fit/);
    expect(() => new XdrReader(new XdrWriter().uint32(3).toBuffer()).array(2, (r) => r.uint32())).toThrow(/over the limit of 2/);
    expect(() => new XdrReader(new XdrWriter().uint64(1n << 60n).toBuffer()).safeUint64()).toThrow(/too large/);
    expect(() => new XdrReader(Buffer.alloc(4), 0).enumOf(new Set([1, 2]), 'kind')).toThrow(/kind: 0/);
    expect(() => new XdrWriter().uint32(-1)).toThrow(RangeError);
  });

  it('ends random input in a value or an XdrError', () => {
    const random = prng(7);
    for (let round = 0; round < 500; round += 1) {
      const input = Buffer.alloc(Math.floor(random() * 40));
      for (let i = 0; i < input.length; i += 1) input[i] = random() < 0.5 ? 0 : Math.floor(random() * 256);
      const reader = new XdrReader(input);
      try {
        reader.optional((r) => r.string(64));
        reader.array(16, (r) => r.opaque(32));
        reader.uint64();
      } catch (error) {
        expect(error).toBeInstanceOf(XdrError);
      }
    }
  });
});
