import { skipName } from './query-parser.js';
import { HEADER_LENGTH, QTYPE } from './dns-wire.js';

/** What the forward cache needs to know of an upstream response, read straight off the wire. */
export interface ScannedResponse {
  id: number;
  /** Header byte 2 (QR, opcode, AA, TC, RD) and byte 3 (RA, Z, AD, CD, RCODE). */
  flagsHigh: number;
  flagsLow: number;
  /** Full RCODE: the header's low 4 bits plus the OPT record's extended bits (RFC 6891 §6.1.3). */
  rcode: number;
  truncated: boolean;
  questionCount: number;
  /** Offset just past the question section. */
  questionEnd: number;
  answerCount: number;
  /** Offsets of the TTL field of every record except OPT (whose "TTL" holds EDNS flags). */
  ttlOffsets: number[];
  /** Smallest TTL of the answer and authority records; null when there are none. */
  minTtl: number | null;
  /** min(SOA TTL, SOA MINIMUM) of the first SOA in the authority section: the negative-caching TTL (RFC 2308 §5). */
  negativeTtl: number | null;
  opt: { start: number; end: number } | null;
}

/** A TTL with the top bit set counts as 0 (RFC 2181 §8). */
function ttlAt(buf: Buffer, offset: number): number {
  const ttl = buf.readUInt32BE(offset);
  return ttl > 0x7fffffff ? 0 : ttl;
}

/**
 * Walks a DNS message's sections without decoding the data; returns null for
 * anything that runs past the end or has a bad name. Never throws.
 */
export function scanResponse(buf: Buffer): ScannedResponse | null {
  if (buf.length < HEADER_LENGTH) return null;
  const questionCount = buf.readUInt16BE(4);
  const counts = [buf.readUInt16BE(6), buf.readUInt16BE(8), buf.readUInt16BE(10)] as const;
  let offset = HEADER_LENGTH;
  for (let i = 0; i < questionCount; i++) {
    const end = skipName(buf, offset);
    if (end < 0 || end + 4 > buf.length) return null;
    offset = end + 4;
  }
  const questionEnd = offset;
  const ttlOffsets: number[] = [];
  let minTtl: number | null = null;
  let negativeTtl: number | null = null;
  let opt: ScannedResponse['opt'] = null;
  let extendedRcode = 0;
  for (let section = 0; section < 3; section++) {
    for (let i = 0; i < counts[section]!; i++) {
      const start = offset;
      const nameEnd = skipName(buf, offset);
      if (nameEnd < 0 || nameEnd + 10 > buf.length) return null;
      const type = buf.readUInt16BE(nameEnd);
      const rdLength = buf.readUInt16BE(nameEnd + 8);
      const rdStart = nameEnd + 10;
      const end = rdStart + rdLength;
      if (end > buf.length) return null;
      if (type === QTYPE.OPT) {
        if (opt) return null;
        opt = { start, end };
        extendedRcode = buf[nameEnd + 4]!;
      } else {
        ttlOffsets.push(nameEnd + 4);
        const ttl = ttlAt(buf, nameEnd + 4);
        if (section < 2) minTtl = minTtl === null ? ttl : Math.min(minTtl, ttl);
        if (section === 1 && type === QTYPE.SOA && negativeTtl === null) {
          const mnameEnd = skipName(buf, rdStart);
          const rnameEnd = mnameEnd < 0 ? -1 : skipName(buf, mnameEnd);
          if (rnameEnd < 0 || rnameEnd + 20 > end) return null;
          negativeTtl = Math.min(ttl, ttlAt(buf, rnameEnd + 16));
        }
      }
      offset = end;
    }
  }
  const flagsLow = buf[3]!;
  return {
    id: buf.readUInt16BE(0),
    flagsHigh: buf[2]!,
    flagsLow,
    rcode: (extendedRcode << 4) | (flagsLow & 0x0f),
    truncated: (buf[2]! & 0x02) !== 0,
    questionCount,
    questionEnd,
    answerCount: counts[0],
    ttlOffsets,
    minTtl,
    negativeTtl,
    opt,
  };
}
