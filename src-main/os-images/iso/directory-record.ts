import { corrupt, recordDateTime, slice, u32le, u8, ucs2be } from './iso-fields.js';
import { SECTOR_BYTES } from './iso-limits.js';

/*
 * ECMA-119 §9.1 directory records. Layout (byte offsets in the record):
 *   0 LEN_DR · 1 extended attribute record length · 2 extent location (both-endian 32)
 *   10 data length (both-endian 32) · 18 recording date (7 bytes, §9.1.5) · 25 file flags
 *   26 file unit size · 27 interleave gap · 28 volume sequence number (both-endian 16)
 *   32 LEN_FI · 33 file identifier · a padding byte when LEN_FI is even · System Use area.
 */

/** ECMA-119 §9.1.6 file flags. */
export const FILE_FLAGS = {
  hidden: 0x01,
  directory: 0x02,
  associated: 0x04,
  record: 0x08,
  protection: 0x10,
  multiExtent: 0x80,
} as const;

/** The fixed part of a record before the file identifier. */
export const RECORD_FIXED_BYTES = 33;

export interface DirectoryRecord {
  /** LEN_DR: bytes of the whole record. */
  length: number;
  /** Logical block of the extent (its extended attribute record comes first, §9.1.2). */
  extentBlock: number;
  /** Logical blocks of the extended attribute record before the data. */
  xarBlocks: number;
  dataLength: number;
  /** Milliseconds since the epoch, null when not recorded. */
  recordedAt: number | null;
  flags: number;
  isDirectory: boolean;
  /** More records of the same file follow (§9.1.6 bit 7: files of 4 GiB and more). */
  multiExtent: boolean;
  /** Interleaved recording (file unit size or gap set, §9.1.7-8): not supported for reading. */
  interleaved: boolean;
  /** The raw file identifier (d-characters, or UCS-2 BE in a Joliet tree; 0x00 is '.', 0x01 is '..'). */
  identifier: Buffer;
  /** The System Use area (§9.1.13), where SUSP/Rock Ridge entries live. */
  systemUse: Buffer;
}

/** Decodes the record at `offset`; null for LEN_DR 0 (the zero padding at a sector's end). TreeError CORRUPT when it does not fit. */
export function decodeDirectoryRecord(buf: Buffer, offset: number): DirectoryRecord | null {
  const length = u8(buf, offset, 'directory record length');
  if (length === 0) return null;
  if (length < RECORD_FIXED_BYTES + 1) throw corrupt(`directory record of ${length} bytes is shorter than its fixed part`);
  const record = slice(buf, offset, length, 'directory record');
  const identifierLength = u8(record, 32, 'file identifier length');
  if (identifierLength === 0) throw corrupt('directory record without a file identifier');
  const identifierEnd = RECORD_FIXED_BYTES + identifierLength;
  if (identifierEnd > length) throw corrupt(`file identifier (${identifierLength} bytes) runs past its ${length}-byte record`);
  // §9.1.12: a padding byte follows an even-length identifier.
  const systemUseStart = Math.min(length, identifierEnd + (identifierLength % 2 === 0 ? 1 : 0));
  const flags = u8(record, 25, 'file flags');
  return {
    length,
    extentBlock: u32le(record, 2, 'extent location'),
    xarBlocks: u8(record, 1, 'extended attribute record length'),
    dataLength: u32le(record, 10, 'data length'),
    recordedAt: recordDateTime(record, 18, 'recording date'),
    flags,
    isDirectory: (flags & FILE_FLAGS.directory) !== 0,
    multiExtent: (flags & FILE_FLAGS.multiExtent) !== 0,
    interleaved: u8(record, 26, 'file unit size') !== 0 || u8(record, 27, 'interleave gap') !== 0,
    identifier: record.subarray(RECORD_FIXED_BYTES, identifierEnd),
    systemUse: record.subarray(systemUseStart, length),
  };
}

export interface PlacedRecord {
  record: DirectoryRecord;
  /** Absolute byte position of the record in the image (node ids are built from it). */
  position: number;
}

/**
 * The records of a directory extent read into `buf` from absolute byte
 * `base`. §6.8.1.1: a record never crosses a logical sector's end; the rest
 * of a sector after the last record is zeros (LEN_DR 0 moves to the next
 * sector). Each step advances, so the walk ends.
 */
export function* directoryRecords(buf: Buffer, base: number): Generator<PlacedRecord> {
  let at = 0;
  while (at < buf.length) {
    const sectorEnd = Math.min(buf.length, (Math.floor((base + at) / SECTOR_BYTES) + 1) * SECTOR_BYTES - base);
    const length = buf.readUInt8(at);
    if (length === 0) {
      at = sectorEnd;
      continue;
    }
    if (at + length > sectorEnd) throw corrupt(`directory record at byte ${base + at} (${length} bytes) crosses the end of its sector`);
    const record = decodeDirectoryRecord(buf, at);
    if (record) yield { record, position: base + at };
    at += length;
  }
}

export type NameEncoding = 'iso9660' | 'joliet';

/** '.' and '..' records (§6.8.2.2: identifiers 0x00 and 0x01). */
export function isSelfOrParent(identifier: Buffer): boolean {
  return identifier.length === 1 && (identifier[0] === 0 || identifier[0] === 1);
}

/**
 * A record's name as a path segment: the version (";1", §7.5.1) and a
 * trailing dot of an extensionless name dropped; plain ISO 9660 names shown
 * in lower case (d-characters are upper case; Linux shows them the same way).
 */
export function recordName(identifier: Buffer, encoding: NameEncoding): string {
  let name = encoding === 'joliet' ? ucs2be(identifier) : identifier.toString('latin1');
  const version = name.lastIndexOf(';');
  if (version >= 0) name = name.slice(0, version);
  if (name.endsWith('.')) name = name.slice(0, -1);
  return encoding === 'iso9660' ? name.toLowerCase() : name;
}

/** Whether a decoded name can be a path segment (a crafted image may hold '/', NUL, '.' or '..'). */
export function usableName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name !== '' && name !== '.' && name !== '..' && !/[/\u0000]/.test(name);
}
