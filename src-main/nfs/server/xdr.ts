/*
 * XDR (RFC 4506) primitives: the encoding every ONC RPC message, portmapper,
 * MOUNT and NFS v3 structure is written in. Big-endian, every item padded to
 * a multiple of four bytes.
 *
 * The reader never trusts a length: every variable-length item names its
 * own maximum, and a length past that maximum or past the end of the message
 * is an XdrError (the RPC layer answers GARBAGE_ARGS), never an allocation
 * of what a hostile peer asked for. Opaque data is returned as a view of the
 * message, not copied.
 *
 * The writer collects chunks: `attach` places a large buffer (a READ's data)
 * into the output by reference, so the reply is sent with one writev and
 * the file's bytes are not copied through JavaScript a second time.
 */

/** XDR's basic block (RFC 4506 §3). */
export const XDR_UNIT = 4;

/** `length` rounded up to the next multiple of four (RFC 4506 §4.9, §4.10). */
export function paddedLength(length: number): number {
  return (length + 3) & ~3;
}

const ZERO_PAD = Buffer.alloc(XDR_UNIT);
const MAX_UINT32 = 0xffff_ffff;
const MAX_UINT64 = (1n << 64n) - 1n;

/** A message that does not decode: too short, a length over its limit, a bad enum or boolean. */
export class XdrError extends Error {
  constructor(
    message: string,
    /** Where in the message the reader was. */
    readonly offset: number,
  ) {
    super(`${message} (at byte ${offset})`);
    this.name = 'XdrError';
  }
}

export class XdrReader {
  offset: number;

  constructor(
    readonly buf: Buffer,
    offset = 0,
    readonly end = buf.length,
  ) {
    if (offset < 0 || end > buf.length || offset > end) throw new RangeError(`XdrReader: offset ${offset} and end ${end} do not fit a ${buf.length}-byte buffer`);
    this.offset = offset;
  }

  remaining(): number {
    return this.end - this.offset;
  }

  private need(bytes: number, what: string): void {
    if (bytes > this.end - this.offset) throw new XdrError(`${what}: ${bytes} bytes needed, ${this.end - this.offset} left`, this.offset);
  }

  uint32(what = 'unsigned int'): number {
    this.need(4, what);
    const value = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  int32(what = 'int'): number {
    this.need(4, what);
    const value = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  uint64(what = 'unsigned hyper'): bigint {
    this.need(8, what);
    const value = this.buf.readBigUInt64BE(this.offset);
    this.offset += 8;
    return value;
  }

  int64(what = 'hyper'): bigint {
    this.need(8, what);
    const value = this.buf.readBigInt64BE(this.offset);
    this.offset += 8;
    return value;
  }

  /** A uint64 that must fit a JavaScript number (offsets and counts a server can act on). */
  safeUint64(what = 'unsigned hyper'): number {
    const at = this.offset;
    const value = this.uint64(what);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new XdrError(`${what}: ${value} is too large`, at);
    return Number(value);
  }

  /** RFC 4506 §4.4: exactly 0 or 1. */
  bool(what = 'bool'): boolean {
    const at = this.offset;
    const value = this.uint32(what);
    if (value > 1) throw new XdrError(`${what}: ${value} is not a boolean`, at);
    return value === 1;
  }

  /** An enum value that must be one of `allowed`. */
  enumOf<T extends number>(allowed: ReadonlySet<number>, what: string): T {
    const at = this.offset;
    const value = this.int32(what);
    if (!allowed.has(value)) throw new XdrError(`${what}: ${value} is not a known value`, at);
    return value as T;
  }

  /** RFC 4506 §4.9: `length` bytes and their padding; a view, not a copy. */
  fixedOpaque(length: number, what = 'fixed opaque'): Buffer {
    this.need(paddedLength(length), what);
    const value = this.buf.subarray(this.offset, this.offset + length);
    this.offset += paddedLength(length);
    return value;
  }

  /** RFC 4506 §4.10: a length (at most `max`), the bytes and their padding; a view, not a copy. */
  opaque(max: number, what = 'opaque'): Buffer {
    const at = this.offset;
    const length = this.uint32(`${what} length`);
    if (length > max) throw new XdrError(`${what}: ${length} bytes is over the limit of ${max}`, at);
    return this.fixedOpaque(length, what);
  }

  /** RFC 4506 §4.11, decoded as UTF-8 (invalid sequences become U+FFFD; use `opaque` where the raw bytes matter). */
  string(max: number, what = 'string'): string {
    return this.opaque(max, what).toString('utf8');
  }

  /** RFC 4506 §4.19 optional-data: a boolean, then the value when it is true. */
  optional<T>(read: (reader: XdrReader) => T, what = 'optional'): T | null {
    return this.bool(what) ? read(this) : null;
  }

  /** RFC 4506 §4.13 variable-length array of at most `max` items. */
  array<T>(max: number, read: (reader: XdrReader) => T, what = 'array'): T[] {
    const at = this.offset;
    const count = this.uint32(`${what} count`);
    if (count > max) throw new XdrError(`${what}: ${count} items is over the limit of ${max}`, at);
    // Each item takes at least four bytes: a count the message cannot hold is refused before the loop.
    if (count * XDR_UNIT > this.remaining()) throw new XdrError(`${what}: ${count} items cannot fit in ${this.remaining()} bytes`, at);
    const items: T[] = [];
    for (let index = 0; index < count; index += 1) items.push(read(this));
    return items;
  }
}

export class XdrWriter {
  private readonly chunks: Buffer[] = [];
  private current: Buffer;
  private position = 0;
  private flushedBytes = 0;

  constructor(initialBytes = 256) {
    this.current = Buffer.allocUnsafe(Math.max(XDR_UNIT, paddedLength(initialBytes)));
  }

  /** Bytes written so far. */
  get length(): number {
    return this.flushedBytes + this.position;
  }

  private room(bytes: number): void {
    if (this.current.length - this.position >= bytes) return;
    this.flush();
    this.current = Buffer.allocUnsafe(Math.max(bytes, this.current.length * 2));
  }

  private flush(): void {
    if (this.position === 0) return;
    this.chunks.push(this.current.subarray(0, this.position));
    this.flushedBytes += this.position;
    this.current = this.current.subarray(this.position);
    this.position = 0;
  }

  uint32(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > MAX_UINT32) throw new RangeError(`XDR unsigned int out of range: ${value}`);
    this.room(4);
    this.current.writeUInt32BE(value, this.position);
    this.position += 4;
    return this;
  }

  int32(value: number): this {
    this.room(4);
    this.current.writeInt32BE(value, this.position);
    this.position += 4;
    return this;
  }

  uint64(value: bigint | number): this {
    const big = BigInt(value);
    if (big < 0n || big > MAX_UINT64) throw new RangeError(`XDR unsigned hyper out of range: ${value}`);
    this.room(8);
    this.current.writeBigUInt64BE(big, this.position);
    this.position += 8;
    return this;
  }

  int64(value: bigint | number): this {
    this.room(8);
    this.current.writeBigInt64BE(BigInt(value), this.position);
    this.position += 8;
    return this;
  }

  bool(value: boolean): this {
    return this.uint32(value ? 1 : 0);
  }

  /** The bytes and their padding, copied into the writer. */
  fixedOpaque(bytes: Uint8Array): this {
    const padded = paddedLength(bytes.length);
    this.room(padded);
    this.current.set(bytes, this.position);
    this.current.fill(0, this.position + bytes.length, this.position + padded);
    this.position += padded;
    return this;
  }

  /** Bytes already in XDR (a whole number of 4-byte units, e.g. an encoded entry kept for reuse), copied into the writer. */
  raw(bytes: Uint8Array): this {
    if (bytes.length % XDR_UNIT !== 0) throw new RangeError(`XDR raw bytes: ${bytes.length} is not a multiple of ${XDR_UNIT}`);
    this.room(bytes.length);
    this.current.set(bytes, this.position);
    this.position += bytes.length;
    return this;
  }

  /** Length, bytes and padding, copied into the writer. */
  opaque(bytes: Uint8Array): this {
    return this.uint32(bytes.length).fixedOpaque(bytes);
  }

  string(value: string): this {
    return this.opaque(Buffer.from(value, 'utf8'));
  }

  /**
   * Length, bytes and padding, with the bytes placed by reference (no copy):
   * for a READ's data. The caller must not change `bytes` until the reply is sent.
   */
  attach(bytes: Buffer): this {
    this.uint32(bytes.length);
    if (bytes.length === 0) return this;
    this.flush();
    this.chunks.push(bytes);
    this.flushedBytes += bytes.length;
    const pad = paddedLength(bytes.length) - bytes.length;
    if (pad > 0) {
      this.room(pad);
      ZERO_PAD.copy(this.current, this.position, 0, pad);
      this.position += pad;
    }
    return this;
  }

  /** Everything written, as chunks in order (for writev); the writer may still be written to afterwards. */
  toBuffers(): Buffer[] {
    this.flush();
    return [...this.chunks];
  }

  /** Everything written, as one buffer (copies when there is more than one chunk). */
  toBuffer(): Buffer {
    const chunks = this.toBuffers();
    return chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks);
  }
}
