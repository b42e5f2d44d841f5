/*
 * RFC 5531 §11 record marking: over TCP every RPC message is a record sent
 * as one or more fragments, each behind a 4-byte header whose top bit says
 * "last fragment" and whose other 31 bits give the fragment's length.
 *
 * The decoder refuses a record the moment a fragment header announces more
 * than the limit (counting the fragments before it): it never buffers what a
 * hostile peer merely claims it will send.
 */

const LAST_FRAGMENT = 0x8000_0000;
const MAX_FRAGMENT = 0x7fff_ffff;

/** A record (announced) over the limit: the connection must be closed. */
export class RecordTooLargeError extends Error {
  constructor(
    readonly announced: number,
    readonly limit: number,
  ) {
    super(`RPC record of at least ${announced} bytes is over the limit of ${limit}`);
    this.name = 'RecordTooLargeError';
  }
}

/** Turns a TCP byte stream into whole records. One decoder per connection. */
export class RecordDecoder {
  private readonly header = Buffer.alloc(4);
  private headerBytes = 0;
  /** Bytes of the current fragment still to come; -1 while reading a header. */
  private fragmentLeft = -1;
  private lastFragment = false;
  private pieces: Buffer[] = [];
  private recordBytes = 0;

  constructor(readonly maxRecordBytes: number) {}

  /** Bytes held for a record not complete yet. */
  get buffered(): number {
    return this.recordBytes;
  }

  /**
   * Feeds one chunk; returns the records it completed (views of the chunks
   * when a record came in one piece). Throws RecordTooLargeError; after that
   * the decoder is unusable (close the connection).
   */
  push(chunk: Buffer): Buffer[] {
    const records: Buffer[] = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.fragmentLeft < 0) {
        const take = Math.min(4 - this.headerBytes, chunk.length - at);
        chunk.copy(this.header, this.headerBytes, at, at + take);
        this.headerBytes += take;
        at += take;
        if (this.headerBytes < 4) break;
        this.headerBytes = 0;
        const word = this.header.readUInt32BE(0);
        const length = word & MAX_FRAGMENT;
        this.lastFragment = (word & LAST_FRAGMENT) !== 0;
        if (this.recordBytes + length > this.maxRecordBytes) throw new RecordTooLargeError(this.recordBytes + length, this.maxRecordBytes);
        this.fragmentLeft = length;
      }
      const take = Math.min(this.fragmentLeft, chunk.length - at);
      if (take > 0) {
        this.pieces.push(chunk.subarray(at, at + take));
        this.recordBytes += take;
        this.fragmentLeft -= take;
        at += take;
      }
      if (this.fragmentLeft === 0) {
        this.fragmentLeft = -1;
        if (this.lastFragment) records.push(this.takeRecord());
      }
    }
    return records;
  }

  private takeRecord(): Buffer {
    const record = this.pieces.length === 1 && this.pieces[0] ? this.pieces[0] : Buffer.concat(this.pieces, this.recordBytes);
    this.pieces = [];
    this.recordBytes = 0;
    return record;
  }
}

/** The 4-byte header of a fragment of `length` bytes. */
export function fragmentHeader(length: number, last = true): Buffer {
  if (!Number.isInteger(length) || length < 0 || length > MAX_FRAGMENT) throw new RangeError(`fragment length ${length} is out of range`);
  const header = Buffer.allocUnsafe(4);
  header.writeUInt32BE((last ? LAST_FRAGMENT : 0) + length, 0);
  return header;
}

/**
 * A record as chunks for writev: one last-fragment header, then `chunks` by
 * reference. `followingBytes`: bytes the caller sends after the chunks as
 * part of the same record (a READ's data by sendfile).
 */
export function encodeRecord(chunks: readonly Buffer[], followingBytes = 0): Buffer[] {
  let length = followingBytes;
  for (const chunk of chunks) length += chunk.length;
  return [fragmentHeader(length), ...chunks];
}
