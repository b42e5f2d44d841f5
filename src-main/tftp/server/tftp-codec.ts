import { MAX_OPTIONS, TFTP_OPCODES } from './tftp-constants.js';

/** One negotiated option as sent on the wire (names are case-insensitive, RFC 2347). */
export interface TftpOption {
  name: string;
  value: string;
}

export type TftpPacket =
  | { op: 'rrq' | 'wrq'; filename: string; mode: string; options: TftpOption[] }
  | { op: 'data'; block: number; data: Buffer }
  | { op: 'ack'; block: number }
  | { op: 'error'; code: number; message: string }
  | { op: 'oack'; options: TftpOption[] };

/** The one error every malformed packet ends in. */
export class TftpDecodeError extends Error {
  override name = 'TftpDecodeError';
}

const OP_NAMES = new Map<number, TftpPacket['op']>(Object.entries(TFTP_OPCODES).map(([name, code]) => [code, name as TftpPacket['op']]));

function stringLength(text: string): number {
  return Buffer.byteLength(text, 'utf8') + 1;
}

function optionsLength(options: readonly TftpOption[]): number {
  let length = 0;
  for (const option of options) length += stringLength(option.name) + stringLength(option.value);
  return length;
}

/** Bytes `packet` takes on the wire. */
export function encodingLength(packet: TftpPacket): number {
  switch (packet.op) {
    case 'rrq':
    case 'wrq':
      return 2 + stringLength(packet.filename) + stringLength(packet.mode) + optionsLength(packet.options);
    case 'data':
      return 4 + packet.data.length;
    case 'ack':
      return 4;
    case 'error':
      return 4 + stringLength(packet.message);
    case 'oack':
      return 2 + optionsLength(packet.options);
  }
}

function writeString(buf: Buffer, offset: number, text: string): number {
  if (text.includes('\0')) throw new TypeError('TFTP strings cannot contain NUL');
  const written = buf.write(text, offset, 'utf8');
  buf[offset + written] = 0;
  return offset + written + 1;
}

function writeOptions(buf: Buffer, offset: number, options: readonly TftpOption[]): number {
  let at = offset;
  for (const option of options) {
    at = writeString(buf, at, option.name);
    at = writeString(buf, at, option.value);
  }
  return at;
}

/**
 * Encodes `packet` into `buf` at `offset` (a new buffer when omitted);
 * `encode.bytes` is set to the bytes written.
 */
export function encode(packet: TftpPacket, buf?: Buffer, offset = 0): Buffer {
  const length = encodingLength(packet);
  const out = buf ?? Buffer.allocUnsafe(length);
  if (out.length - offset < length) throw new RangeError(`buffer too small: need ${length} bytes at offset ${offset}`);
  out.writeUInt16BE(TFTP_OPCODES[packet.op], offset);
  let at = offset + 2;
  switch (packet.op) {
    case 'rrq':
    case 'wrq':
      at = writeString(out, at, packet.filename);
      at = writeString(out, at, packet.mode);
      at = writeOptions(out, at, packet.options);
      break;
    case 'data':
      out.writeUInt16BE(packet.block, at);
      packet.data.copy(out, at + 2);
      at += 2 + packet.data.length;
      break;
    case 'ack':
      out.writeUInt16BE(packet.block, at);
      at += 2;
      break;
    case 'error':
      out.writeUInt16BE(packet.code, at);
      at = writeString(out, at + 2, packet.message);
      break;
    case 'oack':
      at = writeOptions(out, at, packet.options);
      break;
  }
  encode.bytes = at - offset;
  return out;
}
encode.bytes = 0;

/** Reads NUL-terminated strings from `start` to `end`; a missing final NUL is an error unless `lenientTail`. */
function readStrings(buf: Buffer, start: number, end: number, lenientTail: boolean): string[] {
  const out: string[] = [];
  let at = start;
  while (at < end) {
    const nul = buf.indexOf(0, at);
    if (nul === -1 || nul >= end) {
      if (!lenientTail) throw new TftpDecodeError('string without terminating NUL');
      out.push(buf.toString('utf8', at, end));
      return out;
    }
    out.push(buf.toString('utf8', at, nul));
    at = nul + 1;
    if (out.length > 2 + MAX_OPTIONS * 2) throw new TftpDecodeError('too many strings in packet');
  }
  return out;
}

function pairOptions(strings: readonly string[]): TftpOption[] {
  // Some PXE ROMs pad requests with NUL bytes: empty strings after the last pair are padding.
  let count = strings.length;
  while (count > 0 && strings[count - 1] === '') count--;
  if (count % 2 !== 0) throw new TftpDecodeError(`option "${strings[count - 1] ?? ''}" has no value`);
  const options: TftpOption[] = [];
  for (let i = 0; i < count; i += 2) {
    const name = strings[i]!;
    if (name === '') throw new TftpDecodeError('empty option name');
    options.push({ name, value: strings[i + 1]! });
  }
  if (options.length > MAX_OPTIONS) throw new TftpDecodeError(`more than ${MAX_OPTIONS} options`);
  return options;
}

/**
 * Decodes one packet from `buf[offset, end)`; `decode.bytes` is set to the
 * bytes used. Malformed input throws TftpDecodeError and nothing else.
 * DATA payloads are views into `buf` (no copy).
 */
export function decode(buf: Buffer, offset = 0, end = buf.length): TftpPacket {
  if (offset < 0 || end > buf.length || offset > end) throw new TftpDecodeError('offset out of range');
  if (end - offset < 2) throw new TftpDecodeError('packet shorter than its opcode');
  const op = OP_NAMES.get(buf.readUInt16BE(offset));
  if (!op) throw new TftpDecodeError(`unknown opcode ${buf.readUInt16BE(offset)}`);
  const body = offset + 2;
  let packet: TftpPacket;
  let used = end - offset;
  switch (op) {
    case 'rrq':
    case 'wrq': {
      const strings = readStrings(buf, body, end, false);
      if (strings.length < 2) throw new TftpDecodeError('request without file name and mode');
      const [filename, mode, ...rest] = strings as [string, string, ...string[]];
      if (filename === '') throw new TftpDecodeError('empty file name');
      packet = { op, filename, mode, options: pairOptions(rest) };
      break;
    }
    case 'data':
      if (end - body < 2) throw new TftpDecodeError('DATA without block number');
      packet = { op, block: buf.readUInt16BE(body), data: buf.subarray(body + 2, end) };
      break;
    case 'ack':
      if (end - body < 2) throw new TftpDecodeError('ACK without block number');
      packet = { op, block: buf.readUInt16BE(body) };
      used = 4;
      break;
    case 'error': {
      if (end - body < 2) throw new TftpDecodeError('ERROR without code');
      // Some peers omit the final NUL of the message; take what is there.
      const [message = ''] = readStrings(buf, body + 2, end, true);
      packet = { op, code: buf.readUInt16BE(body), message };
      break;
    }
    case 'oack':
      packet = { op, options: pairOptions(readStrings(buf, body, end, false)) };
      break;
  }
  decode.bytes = used;
  return packet;
}
decode.bytes = 0;

/** The codec as one object, in the dns-packet style. */
export const tftpCodec = { encode, decode, encodingLength };
