import { checkRange, defineCodec, IpmiDecodeError } from './codec.js';

/**
 * RMCP (DMTF ASF 2.0 §3.2.2): the 4-byte header in front of every IPMI LAN
 * packet, UDP port 623. IPMI messages use class 7 with sequence 0xFF ("no
 * RMCP ACK", IPMI v2.0 §13.1.3); the ASF class carries the presence ping.
 */
export const RMCP_VERSION = 0x06;
export const RMCP_NO_ACK_SEQUENCE = 0xff;
export const RMCP_PORT = 623;

export const RmcpClass = { ASF: 0x06, IPMI: 0x07, OEM: 0x08 } as const;

export interface RmcpHeader {
  sequence: number;
  /** Class of message, bits 4:0. */
  messageClass: number;
  ack: boolean;
}

export const RMCP_HEADER_LENGTH = 4;

export const rmcpHeader = defineCodec<RmcpHeader>({
  encodingLength: () => RMCP_HEADER_LENGTH,
  write(value, buf, offset) {
    buf[offset] = RMCP_VERSION;
    buf[offset + 1] = 0;
    buf[offset + 2] = checkRange(value.sequence, 0, 0xff, 'RMCP sequence');
    buf[offset + 3] = (value.ack ? 0x80 : 0) | checkRange(value.messageClass, 0, 0x1f, 'RMCP class');
    return RMCP_HEADER_LENGTH;
  },
  read(reader) {
    const version = reader.u8('RMCP version');
    if (version !== RMCP_VERSION) throw new IpmiDecodeError(`not an RMCP packet (version 0x${version.toString(16)})`);
    reader.skip(1, 'RMCP reserved');
    const sequence = reader.u8('RMCP sequence');
    const classByte = reader.u8('RMCP class');
    return { sequence, messageClass: classByte & 0x1f, ack: (classByte & 0x80) !== 0 };
  },
});

/** The ASF IANA enterprise number 4542 (ASF 2.0 §3.2.4), big-endian on the wire. */
export const ASF_IANA = 4542;
export const AsfMessageType = { PRESENCE_PONG: 0x40, PRESENCE_PING: 0x80 } as const;

/** What a presence pong says about the managed system (ASF 2.0 §3.2.4.3). */
export interface AsfPongData {
  iana: number;
  oem: number;
  /** Supported Entities bit 7. */
  ipmiSupported: boolean;
  /** Supported Entities bits 3:0 (1 = ASF 1.0). */
  asfVersion: number;
  /** Supported Interactions bit 5: RMCP security extensions. */
  securityExtensions: boolean;
  /** Supported Interactions bit 7: DASH. */
  dash: boolean;
}

export interface AsfMessage {
  type: number;
  tag: number;
  /** Present for a pong (16 data bytes); absent for a ping (no data). */
  pong?: AsfPongData;
  /** Data of other message types, kept as bytes. */
  data?: Buffer;
}

const ASF_HEADER_LENGTH = 8;
const PONG_DATA_LENGTH = 16;

/** An ASF message (after the RMCP header). */
export const asfMessage = defineCodec<AsfMessage>({
  encodingLength: (value) => ASF_HEADER_LENGTH + (value.pong ? PONG_DATA_LENGTH : (value.data?.length ?? 0)),
  write(value, buf, offset) {
    const dataLength = value.pong ? PONG_DATA_LENGTH : (value.data?.length ?? 0);
    buf.writeUInt32BE(ASF_IANA, offset);
    buf[offset + 4] = checkRange(value.type, 0, 0xff, 'ASF message type');
    buf[offset + 5] = checkRange(value.tag, 0, 0xff, 'ASF message tag');
    buf[offset + 6] = 0;
    buf[offset + 7] = checkRange(dataLength, 0, 0xff, 'ASF data length');
    const at = offset + ASF_HEADER_LENGTH;
    if (value.pong) {
      const pong = value.pong;
      buf.writeUInt32BE(checkRange(pong.iana, 0, 0xffffffff, 'pong IANA'), at);
      buf.writeUInt32BE(checkRange(pong.oem, 0, 0xffffffff, 'pong OEM'), at + 4);
      buf[at + 8] = (pong.ipmiSupported ? 0x80 : 0) | checkRange(pong.asfVersion, 0, 0x0f, 'ASF version');
      buf[at + 9] = (pong.dash ? 0x80 : 0) | (pong.securityExtensions ? 0x20 : 0);
      buf.fill(0, at + 10, at + PONG_DATA_LENGTH);
    } else if (value.data) {
      value.data.copy(buf, at);
    }
    return ASF_HEADER_LENGTH + dataLength;
  },
  read(reader) {
    const iana = reader.u32be('ASF IANA');
    if (iana !== ASF_IANA) throw new IpmiDecodeError(`ASF message with IANA ${iana}, expected ${ASF_IANA}`);
    const type = reader.u8('ASF message type');
    const tag = reader.u8('ASF message tag');
    reader.skip(1, 'ASF reserved');
    const dataLength = reader.u8('ASF data length');
    reader.need(dataLength, 'ASF data');
    if (type === AsfMessageType.PRESENCE_PONG) {
      if (dataLength < PONG_DATA_LENGTH) throw new IpmiDecodeError(`presence pong has ${dataLength} data bytes, expected ${PONG_DATA_LENGTH}`);
      const pongIana = reader.u32be('pong IANA');
      const oem = reader.u32be('pong OEM');
      const entities = reader.u8('pong supported entities');
      const interactions = reader.u8('pong supported interactions');
      reader.skip(dataLength - 10, 'pong reserved');
      return {
        type,
        tag,
        pong: {
          iana: pongIana,
          oem,
          ipmiSupported: (entities & 0x80) !== 0,
          asfVersion: entities & 0x0f,
          securityExtensions: (interactions & 0x20) !== 0,
          dash: (interactions & 0x80) !== 0,
        },
      };
    }
    const data = reader.bytes(dataLength, 'ASF data');
    return dataLength === 0 ? { type, tag } : { type, tag, data };
  },
});

/** A complete presence ping datagram (RMCP header + ASF ping). */
export function encodePresencePing(tag: number): Buffer {
  const buf = Buffer.alloc(RMCP_HEADER_LENGTH + ASF_HEADER_LENGTH);
  // ASF messages use a real RMCP sequence (not 0xFF), so the BMC may ACK them; we ignore ACKs.
  rmcpHeader.encode({ sequence: tag & 0xfe, messageClass: RmcpClass.ASF, ack: false }, buf, 0);
  asfMessage.encode({ type: AsfMessageType.PRESENCE_PING, tag }, buf, RMCP_HEADER_LENGTH);
  return buf;
}

/** Decodes a datagram as RMCP + ASF; throws IpmiDecodeError when it is something else. */
export function decodeAsfDatagram(buf: Buffer): { header: RmcpHeader; message: AsfMessage | null } {
  const header = rmcpHeader.decode(buf, 0);
  if (header.messageClass !== RmcpClass.ASF) throw new IpmiDecodeError(`RMCP class ${header.messageClass} is not ASF`);
  // An RMCP ACK carries no ASF body (ASF 2.0 §3.2.3).
  if (header.ack) return { header, message: null };
  return { header, message: asfMessage.decode(buf, RMCP_HEADER_LENGTH) };
}

