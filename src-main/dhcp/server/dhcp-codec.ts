import { OPT } from '../dhcp-options.js';

/**
 * DHCPv4 packet codec (RFC 2131 §2 message format, RFC 2132 options,
 * RFC 3396 long options). Shaped like dns-packet: `encode(packet, buf?,
 * offset?)`, `decode(buf, offset?, end?)` and `encodingLength(packet)`, each
 * reporting the bytes it used in `.bytes`.
 */

export interface DhcpOption {
  code: number;
  data: Buffer;
}

export interface DhcpPacket {
  /** 1 BOOTREQUEST, 2 BOOTREPLY. */
  op: number;
  htype: number;
  hlen: number;
  hops: number;
  xid: number;
  secs: number;
  /** Bit 15 is the broadcast flag (RFC 2131 §2, figure 2). */
  flags: number;
  ciaddr: string;
  yiaddr: string;
  siaddr: string;
  giaddr: string;
  /** The 16-byte client hardware address field. */
  chaddr: Buffer;
  sname: string;
  file: string;
  /** In wire order; repeated codes are merged (RFC 3396); pad and end are not listed. */
  options: DhcpOption[];
}

/** The fixed BOOTP header (236 bytes) plus the magic cookie. */
export const HEADER_LENGTH = 240;
/** RFC 1542 §3.2.1: BOOTP relays may drop shorter messages, so replies are padded to this. */
export const MIN_PACKET_LENGTH = 300;
export const MAGIC_COOKIE = 0x63825363;
export const BROADCAST_FLAG = 0x8000;
const SNAME_OFFSET = 44;
const FILE_OFFSET = 108;
const SNAME_LENGTH = 64;
const FILE_LENGTH = 128;

/** The one error a decoder throws for malformed input. */
export class DhcpDecodeError extends Error {
  override name = 'DhcpDecodeError';
}

function fail(message: string): never {
  throw new DhcpDecodeError(message);
}

export function encodingLength(packet: DhcpPacket): number {
  let length = HEADER_LENGTH + 1; // options, then END
  for (const option of packet.options) length += optionLength(option);
  return Math.max(length, MIN_PACKET_LENGTH);
}

function optionLength(option: DhcpOption): number {
  const size = option.data.length;
  if (size === 0) return 2;
  // RFC 3396 §5: a value longer than 255 bytes is split into several instances.
  return size + 2 * Math.ceil(size / 255);
}

export function encode(packet: DhcpPacket, buf?: Buffer, offset = 0): Buffer {
  const length = encodingLength(packet);
  const out = buf ?? Buffer.allocUnsafe(length + offset);
  if (out.length - offset < length) throw new RangeError(`buffer has ${out.length - offset} bytes at offset ${offset}; the packet needs ${length}`);
  out.fill(0, offset, offset + length);
  out[offset] = packet.op;
  out[offset + 1] = packet.htype;
  out[offset + 2] = packet.hlen;
  out[offset + 3] = packet.hops;
  out.writeUInt32BE(packet.xid >>> 0, offset + 4);
  out.writeUInt16BE(packet.secs, offset + 8);
  out.writeUInt16BE(packet.flags, offset + 10);
  writeIp(out, offset + 12, packet.ciaddr);
  writeIp(out, offset + 16, packet.yiaddr);
  writeIp(out, offset + 20, packet.siaddr);
  writeIp(out, offset + 24, packet.giaddr);
  if (packet.chaddr.length > 16) throw new RangeError('chaddr is longer than 16 bytes');
  packet.chaddr.copy(out, offset + 28);
  writeField(out, offset + SNAME_OFFSET, SNAME_LENGTH, packet.sname, 'sname');
  writeField(out, offset + FILE_OFFSET, FILE_LENGTH, packet.file, 'file');
  out.writeUInt32BE(MAGIC_COOKIE, offset + 236);
  let at = offset + HEADER_LENGTH;
  for (const option of packet.options) {
    if (option.code === OPT.PAD || option.code === OPT.END || option.code < 0 || option.code > 255) {
      throw new RangeError(`option code ${option.code} cannot be encoded as an option`);
    }
    const data = option.data;
    if (data.length === 0) {
      out[at] = option.code;
      out[at + 1] = 0;
      at += 2;
      continue;
    }
    for (let start = 0; start < data.length; start += 255) {
      const chunk = Math.min(255, data.length - start);
      out[at] = option.code;
      out[at + 1] = chunk;
      data.copy(out, at + 2, start, start + chunk);
      at += 2 + chunk;
    }
  }
  out[at] = OPT.END;
  encode.bytes = length;
  return out;
}
encode.bytes = 0;

export function decode(buf: Buffer, offset = 0, end = buf.length): DhcpPacket {
  if (offset < 0 || end > buf.length || offset > end) fail('offset or end lies outside the buffer');
  if (end - offset < HEADER_LENGTH) fail(`packet of ${end - offset} bytes is shorter than the ${HEADER_LENGTH}-byte DHCP header`);
  if (buf.readUInt32BE(offset + 236) !== MAGIC_COOKIE) fail('no DHCP magic cookie (a plain BOOTP packet?)');
  const hlen = buf[offset + 2]!;
  // Few options per packet: a linear search beats a Map, and repeats (RFC 3396) are rare.
  const options: DhcpOption[] = [];
  const collect = (from: number, to: number, where: string) => {
    let at = from;
    while (at < to) {
      const code = buf[at]!;
      if (code === OPT.PAD) {
        at += 1;
        continue;
      }
      if (code === OPT.END) return;
      if (at + 1 >= to) fail(`option ${code} in ${where} has no length byte`);
      const size = buf[at + 1]!;
      if (at + 2 + size > to) fail(`option ${code} in ${where} runs past the end (${size} bytes)`);
      // Views into the datagram (each received message has its own buffer).
      const data = buf.subarray(at + 2, at + 2 + size);
      let existing: DhcpOption | undefined;
      for (const option of options) {
        if (option.code === code) {
          existing = option;
          break;
        }
      }
      if (existing) existing.data = Buffer.concat([existing.data, data]);
      else options.push({ code, data });
      at += 2 + size;
    }
  };
  collect(offset + HEADER_LENGTH, end, 'options');
  // RFC 2131 §4.1: with option 52 the file and then the sname field carry options too.
  let overloadValue = 0;
  for (const option of options) if (option.code === OPT.OVERLOAD && option.data.length === 1) overloadValue = option.data[0]!;
  const fileHasOptions = overloadValue === 1 || overloadValue === 3;
  const snameHasOptions = overloadValue === 2 || overloadValue === 3;
  if (fileHasOptions) collect(offset + FILE_OFFSET, offset + FILE_OFFSET + FILE_LENGTH, 'file');
  if (snameHasOptions) collect(offset + SNAME_OFFSET, offset + SNAME_OFFSET + SNAME_LENGTH, 'sname');
  const packet: DhcpPacket = {
    op: buf[offset]!,
    htype: buf[offset + 1]!,
    hlen,
    hops: buf[offset + 3]!,
    xid: buf.readUInt32BE(offset + 4),
    secs: buf.readUInt16BE(offset + 8),
    flags: buf.readUInt16BE(offset + 10),
    ciaddr: readIp(buf, offset + 12),
    yiaddr: readIp(buf, offset + 16),
    siaddr: readIp(buf, offset + 20),
    giaddr: readIp(buf, offset + 24),
    chaddr: buf.subarray(offset + 28, offset + 44),
    sname: snameHasOptions ? '' : readField(buf, offset + SNAME_OFFSET, SNAME_LENGTH),
    file: fileHasOptions ? '' : readField(buf, offset + FILE_OFFSET, FILE_LENGTH),
    options,
  };
  decode.bytes = end - offset;
  return packet;
}
decode.bytes = 0;

/** The codec as one object, the dns-packet way. */
export const dhcpPacket = { encode, decode, encodingLength };

/** The first option with this code, or undefined. */
export function findOption(packet: DhcpPacket, code: number): Buffer | undefined {
  for (const option of packet.options) if (option.code === code) return option.data;
  return undefined;
}

/** The client's hardware address as a MAC (Ethernet: htype 1, hlen 6), or null. */
export function clientMac(packet: DhcpPacket): string | null {
  if (packet.htype !== 1 || packet.hlen !== 6) return null;
  const c = packet.chaddr;
  return `${hex(c[0]!)}:${hex(c[1]!)}:${hex(c[2]!)}:${hex(c[3]!)}:${hex(c[4]!)}:${hex(c[5]!)}`;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
function hex(byte: number): string {
  return HEX[byte]!;
}

/** The chaddr field for a MAC in canonical form. */
export function chaddrFromMac(mac: string): Buffer {
  const out = Buffer.alloc(16);
  Buffer.from(mac.replace(/:/g, ''), 'hex').copy(out);
  return out;
}

function readIp(buf: Buffer, at: number): string {
  return `${buf[at]}.${buf[at + 1]}.${buf[at + 2]}.${buf[at + 3]}`;
}

/** Dotted quad into 4 bytes; a hand-rolled parser (per packet, 4 times) that accepts only strict a.b.c.d. */
function writeIp(out: Buffer, at: number, text: string): void {
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : 46;
    if (code >= 48 && code <= 57 && digits < 3) {
      value = value * 10 + (code - 48);
      digits += 1;
    } else if (code === 46 && digits > 0 && value <= 255 && part < 4) {
      out[at + part] = value;
      part += 1;
      value = 0;
      digits = 0;
    } else {
      throw new RangeError(`"${text}" is not an IPv4 address`);
    }
  }
  if (part !== 4) throw new RangeError(`"${text}" is not an IPv4 address`);
}

function readField(buf: Buffer, at: number, length: number): string {
  const field = buf.subarray(at, at + length);
  const nul = field.indexOf(0);
  return field.subarray(0, nul < 0 ? length : nul).toString('latin1');
}

function writeField(out: Buffer, at: number, length: number, text: string, name: string): void {
  const bytes = Buffer.from(text, 'latin1');
  if (bytes.length > length) throw new RangeError(`${name} is ${bytes.length} bytes; the field holds ${length}`);
  if (bytes.includes(0)) throw new RangeError(`${name} must not contain NUL`);
  bytes.copy(out, at);
}
