import { describe, expect, it } from 'vitest';
import { encodeRecord, fragmentHeader, RecordDecoder, RecordTooLargeError } from '../../../../src-main/nfs/server/record-marking.js';
import { prng } from '../../../helpers/prng.js';

const LIMIT = 1024 * 1024 + 4096;

function fragments(record: Buffer, sizes: number[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let i = 0; i < sizes.length; i += 1) {
    const size = sizes[i] ?? 0;
    parts.push(fragmentHeader(size, i === sizes.length - 1), record.subarray(at, at + size));
    at += size;
  }
  return Buffer.concat(parts);
}

describe('record marking (RFC 5531 §11)', () => {
  it('writes one last fragment: header then the chunks by reference', () => {
    const a = Buffer.from('abcd');
    const b = Buffer.from('efgh1234');
    const out = encodeRecord([a, b]);
    expect(out[0]?.toString('hex')).toBe('8000000c');
    expect(out[1]).toBe(a);
    expect(out[2]).toBe(b);
    expect(fragmentHeader(5, false).toString('hex')).toBe('00000005');
    expect(() => fragmentHeader(0x8000_0000)).toThrow(RangeError);
  });

  it('yields whole records from one chunk, several records per chunk and a byte at a time', () => {
    const one = Buffer.from('first record!');
    const two = Buffer.alloc(4096, 0x42);
    const stream = Buffer.concat([...encodeRecord([one]), ...encodeRecord([two]), ...encodeRecord([])]);
    expect(new RecordDecoder(LIMIT).push(stream)).toEqual([one, two, Buffer.alloc(0)]);
    const decoder = new RecordDecoder(LIMIT);
    const records: Buffer[] = [];
    for (const byte of stream) records.push(...decoder.push(Buffer.from([byte])));
    expect(records).toEqual([one, two, Buffer.alloc(0)]);
    expect(decoder.buffered).toBe(0);
  });

  it('joins a multi-fragment record, including empty fragments, across chunk boundaries', () => {
    const record = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    const stream = fragments(record, [1, 0, 499, 300, 200]);
    const random = prng(42);
    for (let round = 0; round < 50; round += 1) {
      const decoder = new RecordDecoder(LIMIT);
      const out: Buffer[] = [];
      let at = 0;
      while (at < stream.length) {
        const size = 1 + Math.floor(random() * 64);
        out.push(...decoder.push(stream.subarray(at, at + size)));
        at += size;
      }
      expect(out).toEqual([record]);
    }
  });

  it('refuses a record as soon as a fragment header announces more than the limit, before any data', () => {
    const decoder = new RecordDecoder(LIMIT);
    expect(() => decoder.push(fragmentHeader(LIMIT + 1))).toThrow(RecordTooLargeError);
    expect(() => new RecordDecoder(LIMIT).push(fragmentHeader(0x7fff_ffff, false))).toThrow(/over the limit/);
    // The limit counts the whole record: two fragments that each fit but together do not.
    const split = new RecordDecoder(1000);
    expect(split.push(Buffer.concat([fragmentHeader(600, false), Buffer.alloc(600)]))).toEqual([]);
    expect(() => split.push(fragmentHeader(401))).toThrow(RecordTooLargeError);
    // Exactly the limit passes.
    const exact = new RecordDecoder(1000);
    expect(exact.push(Buffer.concat([fragmentHeader(1000), Buffer.alloc(1000)]))).toHaveLength(1);
  });

  it('never throws anything but RecordTooLargeError, never loops, and never holds more than the limit on random streams', () => {
    const random = prng(0xf00d);
    for (let round = 0; round < 300; round += 1) {
      const decoder = new RecordDecoder(4096);
      const chunk = Buffer.alloc(1 + Math.floor(random() * 512));
      for (let i = 0; i < chunk.length; i += 1) chunk[i] = random() < 0.7 ? 0 : Math.floor(random() * 256);
      try {
        for (let i = 0; i < 8; i += 1) decoder.push(chunk);
        expect(decoder.buffered).toBeLessThanOrEqual(4096);
      } catch (error) {
        expect(error).toBeInstanceOf(RecordTooLargeError);
      }
    }
  });
});
