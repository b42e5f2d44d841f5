/**
 * The codec shape every IPMI wire format follows (as mafintosh/dns-packet):
 * `encode(value, buf?, offset?)`, `decode(buf, offset?)`, `encodingLength(value)`,
 * with `encode.bytes` / `decode.bytes` reporting how many bytes the last call
 * wrote or read, so composite codecs advance their offset and callers can
 * encode into a buffer of their own.
 */
export interface Codec<T> {
  encode: ((value: T, buf?: Buffer, offset?: number) => Buffer) & { bytes: number };
  decode: ((buf: Buffer, offset?: number) => T) & { bytes: number };
  encodingLength(value: T): number;
}

/**
 * The one error every decoder throws on hostile or malformed input
 * (truncated, lengths past the end, bad checksums, unknown formats). Callers
 * catch this and nothing else; anything else escaping a decoder is a bug.
 */
export class IpmiDecodeError extends Error {
  override name = 'IpmiDecodeError';
}

/** Encoder misuse (a value that cannot be put on the wire). */
export class IpmiEncodeError extends Error {
  override name = 'IpmiEncodeError';
}

interface CodecParts<T> {
  encodingLength(value: T): number;
  /** Writes `value` at `offset` (the buffer is large enough); returns the bytes written. */
  write(value: T, buf: Buffer, offset: number): number;
  /** Reads a value at `offset`; returns it with the bytes read. */
  read(reader: ByteReader): T;
}

/** Builds a dns-packet style codec from a length, a writer and a reader. */
export function defineCodec<T>(parts: CodecParts<T>): Codec<T> {
  const encode = Object.assign(
    (value: T, buf?: Buffer, offset = 0): Buffer => {
      const length = parts.encodingLength(value);
      const target = buf ?? Buffer.alloc(length);
      if (offset < 0 || target.length - offset < length) {
        throw new IpmiEncodeError(`buffer too small: need ${length} bytes at offset ${offset}, have ${target.length - offset}`);
      }
      encode.bytes = parts.write(value, target, offset);
      return target;
    },
    { bytes: 0 },
  );
  const decode = Object.assign(
    (buf: Buffer, offset = 0): T => {
      const reader = new ByteReader(buf, offset);
      const value = parts.read(reader);
      decode.bytes = reader.offset - offset;
      return value;
    },
    { bytes: 0 },
  );
  return { encode, decode, encodingLength: parts.encodingLength };
}

/** Bounds-checked little-endian reads (IPMI is little-endian except where noted). */
export class ByteReader {
  readonly buf: Buffer;
  offset: number;
  /** Reads stop here (a length field may narrow it). */
  end: number;

  constructor(buf: Buffer, offset = 0, end = buf.length) {
    if (!Buffer.isBuffer(buf)) throw new IpmiDecodeError('input is not a buffer');
    if (!Number.isInteger(offset) || offset < 0 || offset > buf.length) throw new IpmiDecodeError(`offset ${offset} is outside the buffer`);
    this.buf = buf;
    this.offset = offset;
    this.end = Math.min(end, buf.length);
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  need(count: number, what: string): void {
    if (count < 0 || this.remaining < count) {
      throw new IpmiDecodeError(`truncated: ${what} needs ${count} bytes, ${Math.max(this.remaining, 0)} left`);
    }
  }

  u8(what: string): number {
    this.need(1, what);
    const value = this.buf[this.offset]!;
    this.offset += 1;
    return value;
  }

  u16le(what: string): number {
    this.need(2, what);
    const value = this.buf.readUInt16LE(this.offset);
    this.offset += 2;
    return value;
  }

  u32le(what: string): number {
    this.need(4, what);
    const value = this.buf.readUInt32LE(this.offset);
    this.offset += 4;
    return value;
  }

  u32be(what: string): number {
    this.need(4, what);
    const value = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  /** A copy, so decoded values never alias the receive buffer. */
  bytes(count: number, what: string): Buffer {
    this.need(count, what);
    const out = Buffer.from(this.buf.subarray(this.offset, this.offset + count));
    this.offset += count;
    return out;
  }

  skip(count: number, what: string): void {
    this.need(count, what);
    this.offset += count;
  }

  rest(): Buffer {
    return this.bytes(this.remaining, 'rest');
  }
}

/** Throws unless `value` is an integer in [min, max]; used by encoders. */
export function checkRange(value: number, min: number, max: number, what: string): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new IpmiEncodeError(`${what} must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

/** Throws unless `value` has exactly `length` bytes. */
export function checkLength(value: Buffer, length: number, what: string): Buffer {
  if (value.length !== length) throw new IpmiEncodeError(`${what} must be ${length} bytes, got ${value.length}`);
  return value;
}
