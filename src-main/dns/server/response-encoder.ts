import packet, { type Answer } from 'dns-packet';
import { ADVERTISED_UDP_SIZE, FLAG_AA, FLAG_QR, FLAG_RA, FLAG_TC, HEADER_LENGTH } from './dns-wire.js';
import type { LocalAnswer } from './resolver.js';

/**
 * Our OPT record (RFC 6891 §6.1.2): root owner, UDP payload size 1232,
 * extended RCODE 0, version 0, no flags, no options. 11 bytes.
 */
export function optRecord(extendedRcode = 0): Buffer {
  const opt = Buffer.alloc(11);
  opt.writeUInt16BE(41, 1); // TYPE OPT after the root name byte
  opt.writeUInt16BE(ADVERTISED_UDP_SIZE, 3);
  opt[5] = extendedRcode;
  return opt;
}

export const OPT_RECORD = optRecord();

/** Header bytes 2 and 3 of an answer: QR, AA, TC as asked, RA when we forward, the low RCODE bits. */
function flagBytes(rcode: number, authoritative: boolean, recursionAvailable: boolean, truncated: boolean): [number, number] {
  const high = FLAG_QR | (authoritative ? FLAG_AA : 0) | (truncated ? FLAG_TC : 0);
  const low = (recursionAvailable ? FLAG_RA : 0) | (rcode & 0x0f);
  return [high, low];
}

/**
 * A response with no records but the question (and an OPT when `edns`):
 * the TC answer for UDP, and the shape of error answers. ID and the RD/CD
 * bits stay 0 here; the caller patches them per query.
 */
export function headerOnlyResponse(question: Buffer | null, rcode: number, options: { authoritative?: boolean; recursionAvailable?: boolean; truncated?: boolean; edns?: boolean } = {}): Buffer {
  const opt = options.edns ? optRecord(rcode >> 4) : null;
  const out = Buffer.alloc(HEADER_LENGTH + (question?.length ?? 0) + (opt?.length ?? 0));
  const [high, low] = flagBytes(rcode, options.authoritative ?? false, options.recursionAvailable ?? false, options.truncated ?? false);
  out[2] = high;
  out[3] = low;
  if (question) {
    out.writeUInt16BE(1, 4);
    question.copy(out, HEADER_LENGTH);
  }
  if (opt) {
    out.writeUInt16BE(1, 10);
    opt.copy(out, HEADER_LENGTH + (question?.length ?? 0));
  }
  return out;
}

/**
 * Encodes a local answer with dns-packet, then puts `question` (the wire
 * bytes of the question as asked, lowercased) in front of the records, so
 * the question is exact even for names dns-packet cannot spell.
 */
export function encodeAnswer(question: Buffer, answer: LocalAnswer, options: { recursionAvailable: boolean; edns: boolean }): Buffer {
  const additionals: Answer[] = [...answer.additionals];
  if (options.edns) {
    additionals.push({
      name: '.',
      type: 'OPT',
      udpPayloadSize: ADVERTISED_UDP_SIZE,
      extendedRcode: answer.rcode >> 4,
      ednsVersion: 0,
      flags: 0,
      flag_do: false,
      options: [],
    });
  }
  const body = packet.encode({ type: 'response', id: 0, flags: 0, questions: [], answers: answer.answers, authorities: answer.authorities, additionals });
  const out = Buffer.allocUnsafe(body.length + question.length);
  body.copy(out, 0, 0, HEADER_LENGTH);
  question.copy(out, HEADER_LENGTH);
  body.copy(out, HEADER_LENGTH + question.length, HEADER_LENGTH);
  const [high, low] = flagBytes(answer.rcode, answer.authoritative, options.recursionAvailable, false);
  out[2] = high;
  out[3] = low;
  out.writeUInt16BE(1, 4);
  return out;
}
