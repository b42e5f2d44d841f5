import { TreeError } from '../../core/read-only-tree.js';

/*
 * Field decoders shared by the descriptor, directory and SUSP codecs.
 * Both-endian numbers (ECMA-119 §7.2.3, §7.3.3) are read from their
 * little-endian half only, as Linux does: some mastering tools wrote a wrong
 * big-endian half, and a mismatch is never treated as corruption. Every
 * helper checks its range against the buffer and throws TreeError CORRUPT,
 * so a short buffer never surfaces as a RangeError.
 */

export function corrupt(what: string, treePath = ''): TreeError {
  return new TreeError('CORRUPT', treePath, what);
}

function need(buf: Buffer, offset: number, length: number, what: string): void {
  if (!Number.isInteger(offset) || offset < 0 || offset + length > buf.length) {
    throw corrupt(`${what}: ${length} bytes at ${offset} run past the ${buf.length}-byte field`);
  }
}

export function u8(buf: Buffer, offset: number, what: string): number {
  need(buf, offset, 1, what);
  return buf.readUInt8(offset);
}

export function s8(buf: Buffer, offset: number, what: string): number {
  need(buf, offset, 1, what);
  return buf.readInt8(offset);
}

/** ECMA-119 §7.2.1 (little-endian) and the LE half of §7.2.3 (both-endian 16-bit). */
export function u16le(buf: Buffer, offset: number, what: string): number {
  need(buf, offset, 2, what);
  return buf.readUInt16LE(offset);
}

/** ECMA-119 §7.3.1 and the LE half of §7.3.3 (both-endian 32-bit). */
export function u32le(buf: Buffer, offset: number, what: string): number {
  need(buf, offset, 4, what);
  return buf.readUInt32LE(offset);
}

export function slice(buf: Buffer, offset: number, length: number, what: string): Buffer {
  need(buf, offset, length, what);
  return buf.subarray(offset, offset + length);
}

/** An a-/d-character field (ECMA-119 §7.4): ASCII, padded with spaces (or NULs in practice), trimmed. */
export function textField(buf: Buffer, offset: number, length: number, what: string): string {
  // eslint-disable-next-line no-control-regex
  return slice(buf, offset, length, what).toString('latin1').replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
}

/** UCS-2 big-endian (Joliet names and identifiers); an odd trailing byte is ignored. */
export function ucs2be(bytes: Buffer): string {
  const units: number[] = [];
  for (let at = 0; at + 1 < bytes.length; at += 2) units.push(bytes.readUInt16BE(at));
  return String.fromCharCode(...units);
}

function isValidDate(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60 && year >= 1900 && year <= 9999;
}

/**
 * ECMA-119 §8.4.26.1: "YYYYMMDDHHMMSScc" in digits plus the offset from GMT
 * in 15-minute steps (signed byte). All zeros means "not specified": null.
 * Values that are not a date are null too: a bad date never fails an image.
 */
export function decDateTime(buf: Buffer, offset: number, what: string): number | null {
  const field = slice(buf, offset, 17, what);
  const digits = field.subarray(0, 16).toString('latin1');
  if (!/^\d{16}$/.test(digits) || /^0{16}$/.test(digits)) return null;
  const num = (from: number, to: number): number => Number.parseInt(digits.slice(from, to), 10);
  const [year, month, day, hour, minute, second, centis] = [num(0, 4), num(4, 6), num(6, 8), num(8, 10), num(10, 12), num(12, 14), num(14, 16)];
  if (!isValidDate(year, month, day, hour, minute, second)) return null;
  const gmtOffset = field.readInt8(16);
  return Date.UTC(year, month - 1, day, hour, minute, second, centis * 10) - gmtOffset * 15 * 60_000;
}

/** ECMA-119 §9.1.5: years since 1900, month, day, hour, minute, second, GMT offset (15-minute steps). Null when zero or not a date. */
export function recordDateTime(buf: Buffer, offset: number, what: string): number | null {
  const field = slice(buf, offset, 7, what);
  const [years, month, day, hour, minute, second] = [0, 1, 2, 3, 4, 5].map((at) => field.readUInt8(at)) as [number, number, number, number, number, number];
  const year = 1900 + years;
  if (month === 0 && day === 0) return null;
  if (!isValidDate(year, month, day, hour, minute, second)) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second) - field.readInt8(6) * 15 * 60_000;
}
