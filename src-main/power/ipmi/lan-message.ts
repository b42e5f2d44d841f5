import { checkRange, defineCodec, IpmiDecodeError } from './codec.js';

/** The BMC's slave address and the remote console's software ID (IPMI v2.0 §5.5, §13.8). */
export const BMC_ADDRESS = 0x20;
export const REMOTE_CONSOLE_SWID = 0x81;

/**
 * An IPMI message as carried on LAN (IPMI v2.0 §13.8, Tables 13-4/13-5).
 * Requests and responses share the framing; in a response the net function
 * is odd and `data[0]` is the completion code.
 *
 *   to | netFn<<2|toLun | chk1 | from | seq<<2|fromLun | cmd | data… | chk2
 */
export interface LanMessage {
  /** rsAddr of a request, rqAddr of a response. */
  to: number;
  netFn: number;
  toLun: number;
  from: number;
  /** The 6-bit rqSeq that pairs a response with its request. */
  seq: number;
  fromLun: number;
  cmd: number;
  data: Buffer;
}

/** Two's-complement checksum: the bytes plus the checksum sum to 0 mod 256 (§13.8). */
export function ipmiChecksum(buf: Buffer, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i += 1) sum = (sum + buf[i]!) & 0xff;
  return (0x100 - sum) & 0xff;
}

const OVERHEAD = 7;

export const lanMessage = defineCodec<LanMessage>({
  encodingLength: (value) => OVERHEAD + value.data.length,
  write(value, buf, offset) {
    buf[offset] = checkRange(value.to, 0, 0xff, 'target address');
    buf[offset + 1] = (checkRange(value.netFn, 0, 0x3f, 'netFn') << 2) | checkRange(value.toLun, 0, 3, 'target LUN');
    buf[offset + 2] = ipmiChecksum(buf, offset, offset + 2);
    buf[offset + 3] = checkRange(value.from, 0, 0xff, 'source address');
    buf[offset + 4] = (checkRange(value.seq, 0, 0x3f, 'rqSeq') << 2) | checkRange(value.fromLun, 0, 3, 'source LUN');
    buf[offset + 5] = checkRange(value.cmd, 0, 0xff, 'command');
    value.data.copy(buf, offset + 6);
    const end = offset + 6 + value.data.length;
    buf[end] = ipmiChecksum(buf, offset + 3, end);
    return OVERHEAD + value.data.length;
  },
  read(reader) {
    const start = reader.offset;
    reader.need(OVERHEAD, 'IPMI message');
    const to = reader.u8('target address');
    const netFnLun = reader.u8('netFn/LUN');
    const check1 = reader.u8('header checksum');
    if (ipmiChecksum(reader.buf, start, start + 2) !== check1) throw new IpmiDecodeError('IPMI message header checksum mismatch');
    const from = reader.u8('source address');
    const seqLun = reader.u8('rqSeq/LUN');
    const cmd = reader.u8('command');
    // The message fills the rest of its buffer: the session header gave its length.
    const dataLength = reader.remaining - 1;
    const data = reader.bytes(dataLength, 'message data');
    const check2 = reader.u8('data checksum');
    if (ipmiChecksum(reader.buf, start + 3, reader.offset - 1) !== check2) throw new IpmiDecodeError('IPMI message data checksum mismatch');
    return { to, netFn: netFnLun >> 2, toLun: netFnLun & 3, from, seq: seqLun >> 2, fromLun: seqLun & 3, cmd, data };
  },
});

/** A request from the remote console to the BMC (LUN 0). */
export function bmcRequest(netFn: number, cmd: number, seq: number, data: Buffer = Buffer.alloc(0)): LanMessage {
  return { to: BMC_ADDRESS, netFn, toLun: 0, from: REMOTE_CONSOLE_SWID, seq, fromLun: 0, cmd, data };
}

/** The response a BMC gives to `request`: completion code first, then data. */
export function bmcResponse(request: LanMessage, completionCode: number, data: Buffer = Buffer.alloc(0)): LanMessage {
  return {
    to: request.from,
    netFn: request.netFn | 1,
    toLun: request.fromLun,
    from: request.to,
    seq: request.seq,
    fromLun: request.toLun,
    cmd: request.cmd,
    data: Buffer.concat([Buffer.from([completionCode]), data]),
  };
}
