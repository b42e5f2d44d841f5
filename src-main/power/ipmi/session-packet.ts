import { checkLength, checkRange, defineCodec, IpmiDecodeError, IpmiEncodeError, type ByteReader } from './codec.js';
import { RMCP_HEADER_LENGTH, RMCP_NO_ACK_SEQUENCE, RmcpClass, rmcpHeader } from './rmcp.js';

/** Authentication Type / Format byte (IPMI v2.0 §13.6, Table 13-8). */
export const AuthType = { NONE: 0x00, MD2: 0x01, MD5: 0x02, PASSWORD: 0x04, OEM: 0x05, RMCP_PLUS: 0x06 } as const;

/** RMCP+ payload types (IPMI v2.0 §13.27.3, Table 13-16). */
export const PayloadType = {
  IPMI: 0x00,
  SOL: 0x01,
  OEM_EXPLICIT: 0x02,
  OPEN_SESSION_REQUEST: 0x10,
  OPEN_SESSION_RESPONSE: 0x11,
  RAKP1: 0x12,
  RAKP2: 0x13,
  RAKP3: 0x14,
  RAKP4: 0x15,
} as const;

/** "Next Header" of the RMCP+ session trailer: always 07h (Table 13-8). */
const NEXT_HEADER = 0x07;
const INTEGRITY_PAD_BYTE = 0xff;
/** Longest AuthCode any integrity algorithm produces (HMAC-SHA256-128 / MD5-128: 16). */
const MAX_AUTH_CODE = 32;

/** An IPMI v1.5 session wrapper (Table 13-8, left column). */
export interface Session15Packet {
  format: 'v15';
  authType: number;
  sequence: number;
  sessionId: number;
  /** 16 bytes, present exactly when authType is not NONE. */
  authCode?: Buffer;
  /** The IPMI LAN message. */
  message: Buffer;
}

/** An IPMI v2.0 / RMCP+ session wrapper (Table 13-8, right column). */
export interface Session20Packet {
  format: 'v20';
  payloadType: number;
  encrypted: boolean;
  authenticated: boolean;
  /** Present exactly for payload type OEM_EXPLICIT. */
  oem?: { iana: number; payloadId: number };
  sessionId: number;
  sequence: number;
  /** The payload as on the wire (ciphertext when `encrypted`). */
  payload: Buffer;
  /** The session trailer's AuthCode, present exactly when `authenticated`. */
  authCode?: Buffer;
}

export type SessionPacket = Session15Packet | Session20Packet;

function session15Length(value: Session15Packet): number {
  return 1 + 4 + 4 + (value.authType === AuthType.NONE ? 0 : 16) + 1 + value.message.length;
}

/** Integrity pad bytes so that auth type through next header is a multiple of 4 (Table 13-8). */
function integrityPadLength(headerLength: number, payloadLength: number): number {
  return (4 - ((headerLength + payloadLength + 2) % 4)) % 4;
}

function session20HeaderLength(value: { payloadType: number }): number {
  return 1 + 1 + (value.payloadType === PayloadType.OEM_EXPLICIT ? 6 : 0) + 4 + 4 + 2;
}

function session20Length(value: Session20Packet): number {
  const header = session20HeaderLength(value);
  if (!value.authenticated) return header + value.payload.length;
  return header + value.payload.length + integrityPadLength(header, value.payload.length) + 2 + (value.authCode?.length ?? 0);
}

function writeSession15(value: Session15Packet, buf: Buffer, offset: number): number {
  let at = offset;
  buf[at++] = checkRange(value.authType, 0, 0x05, 'auth type');
  buf.writeUInt32LE(checkRange(value.sequence, 0, 0xffffffff, 'session sequence'), at);
  buf.writeUInt32LE(checkRange(value.sessionId, 0, 0xffffffff, 'session id'), at + 4);
  at += 8;
  if (value.authType !== AuthType.NONE) {
    checkLength(value.authCode ?? Buffer.alloc(0), 16, 'v1.5 AuthCode');
    value.authCode!.copy(buf, at);
    at += 16;
  }
  buf[at++] = checkRange(value.message.length, 0, 0xff, 'message length');
  value.message.copy(buf, at);
  return at + value.message.length - offset;
}

function writeSession20(value: Session20Packet, buf: Buffer, offset: number): number {
  let at = offset;
  buf[at++] = AuthType.RMCP_PLUS;
  buf[at++] = (value.encrypted ? 0x80 : 0) | (value.authenticated ? 0x40 : 0) | checkRange(value.payloadType, 0, 0x3f, 'payload type');
  if (value.payloadType === PayloadType.OEM_EXPLICIT) {
    if (!value.oem) throw new IpmiEncodeError('OEM explicit payload needs oem.iana and oem.payloadId');
    buf.writeUInt32LE(checkRange(value.oem.iana, 0, 0xffffff, 'OEM IANA'), at);
    buf.writeUInt16LE(checkRange(value.oem.payloadId, 0, 0xffff, 'OEM payload id'), at + 4);
    at += 6;
  }
  buf.writeUInt32LE(checkRange(value.sessionId, 0, 0xffffffff, 'session id'), at);
  buf.writeUInt32LE(checkRange(value.sequence, 0, 0xffffffff, 'session sequence'), at + 4);
  buf.writeUInt16LE(checkRange(value.payload.length, 0, 0xffff, 'payload length'), at + 8);
  at += 10;
  value.payload.copy(buf, at);
  at += value.payload.length;
  if (value.authenticated) {
    const authCode = value.authCode ?? Buffer.alloc(0);
    checkRange(authCode.length, 1, MAX_AUTH_CODE, 'AuthCode length');
    const pad = integrityPadLength(session20HeaderLength(value), value.payload.length);
    buf.fill(INTEGRITY_PAD_BYTE, at, at + pad);
    at += pad;
    buf[at++] = pad;
    buf[at++] = NEXT_HEADER;
    authCode.copy(buf, at);
    at += authCode.length;
  }
  return at - offset;
}

function readSession15(reader: ByteReader, authType: number): Session15Packet {
  if (authType > AuthType.OEM || authType === 0x03) throw new IpmiDecodeError(`unknown v1.5 auth type 0x${authType.toString(16)}`);
  const sequence = reader.u32le('session sequence');
  const sessionId = reader.u32le('session id');
  const authCode = authType === AuthType.NONE ? undefined : reader.bytes(16, 'v1.5 AuthCode');
  const length = reader.u8('message length');
  const message = reader.bytes(length, 'IPMI message');
  // Some stacks append a "legacy pad" byte (Table 13-8 note); it is not ours to keep.
  if (reader.remaining === 1) reader.skip(1, 'legacy pad');
  return authCode ? { format: 'v15', authType, sequence, sessionId, authCode, message } : { format: 'v15', authType, sequence, sessionId, message };
}

function readSession20(reader: ByteReader): Session20Packet {
  const typeByte = reader.u8('payload type');
  const payloadType = typeByte & 0x3f;
  const encrypted = (typeByte & 0x80) !== 0;
  const authenticated = (typeByte & 0x40) !== 0;
  let oem: Session20Packet['oem'];
  if (payloadType === PayloadType.OEM_EXPLICIT) {
    const iana = reader.u32le('OEM IANA');
    const payloadId = reader.u16le('OEM payload id');
    oem = { iana, payloadId };
  }
  const sessionId = reader.u32le('session id');
  const sequence = reader.u32le('session sequence');
  const length = reader.u16le('payload length');
  const payload = reader.bytes(length, 'payload');
  const packet: Session20Packet = { format: 'v20', payloadType, encrypted, authenticated, sessionId, sequence, payload };
  if (oem) packet.oem = oem;
  if (authenticated) {
    const pad = integrityPadLength(session20HeaderLength(packet), length);
    const padBytes = reader.bytes(pad, 'integrity pad');
    if (padBytes.some((byte) => byte !== INTEGRITY_PAD_BYTE)) throw new IpmiDecodeError('integrity pad bytes are not FFh');
    const padLength = reader.u8('pad length');
    if (padLength !== pad) throw new IpmiDecodeError(`pad length ${padLength} does not match the ${pad} pad bytes the payload length implies`);
    const nextHeader = reader.u8('next header');
    if (nextHeader !== NEXT_HEADER) throw new IpmiDecodeError(`next header 0x${nextHeader.toString(16)}, expected 07h`);
    const authLength = reader.remaining;
    if (authLength < 1 || authLength > MAX_AUTH_CODE) throw new IpmiDecodeError(`AuthCode of ${authLength} bytes`);
    packet.authCode = reader.bytes(authLength, 'AuthCode');
  }
  return packet;
}

/**
 * A whole IPMI-over-LAN datagram: RMCP header (class IPMI) and the session
 * wrapper, v1.5 or v2.0 by the auth type byte. In a v2.0 packet the AuthCode
 * is whatever is left after the trailer (its length depends on the
 * negotiated integrity algorithm, which the codec does not know).
 */
export const ipmiDatagram = defineCodec<SessionPacket>({
  encodingLength: (value) =>
    RMCP_HEADER_LENGTH + (value.format === 'v15' ? session15Length(value) : session20Length(value)),
  write(value, buf, offset) {
    rmcpHeader.encode({ sequence: RMCP_NO_ACK_SEQUENCE, messageClass: RmcpClass.IPMI, ack: false }, buf, offset);
    const at = offset + RMCP_HEADER_LENGTH;
    return RMCP_HEADER_LENGTH + (value.format === 'v15' ? writeSession15(value, buf, at) : writeSession20(value, buf, at));
  },
  read(reader) {
    const header = rmcpHeader.decode(reader.buf, reader.offset);
    reader.skip(rmcpHeader.decode.bytes, 'RMCP header');
    if (header.messageClass !== RmcpClass.IPMI) throw new IpmiDecodeError(`RMCP class ${header.messageClass} is not IPMI`);
    const authType = reader.u8('auth type');
    return authType === AuthType.RMCP_PLUS ? readSession20(reader) : readSession15(reader, authType);
  },
});

/**
 * Where the RMCP+ integrity AuthCode is computed over in an encoded
 * datagram: from the auth type byte through the next header (Table 13-8),
 * i.e. everything after the RMCP header and before the AuthCode.
 */
export function integrityRange(datagramLength: number, authCodeLength: number): { start: number; end: number } {
  return { start: RMCP_HEADER_LENGTH, end: datagramLength - authCodeLength };
}
