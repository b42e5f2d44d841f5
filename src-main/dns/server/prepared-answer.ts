import { ADVERTISED_UDP_SIZE, CLASSIC_UDP_SIZE, HEADER_LENGTH, MAX_TCP_MESSAGE } from './dns-wire.js';
import type { ParsedQuery } from './query-parser.js';
import { encodeAnswer, headerOnlyResponse } from './response-encoder.js';
import type { LocalAnswer } from './resolver.js';
import type { QueryCell } from './worker-metrics.js';

/**
 * A local answer encoded once, in the four forms a query can need: without
 * and with OPT, each complete and truncated (TC, no records). ID, RD and CD
 * are 0 here; each query copies a form and patches them (the hot path).
 */
export interface PreparedAnswer {
  plain: Buffer;
  plainTc: Buffer;
  edns: Buffer;
  ednsTc: Buffer;
  cell: QueryCell;
}

export function prepareAnswer(question: Buffer, answer: LocalAnswer, recursionAvailable: boolean, cell: QueryCell): PreparedAnswer {
  const flags = { authoritative: answer.authoritative, recursionAvailable, truncated: true };
  const plainTc = headerOnlyResponse(question, answer.rcode, flags);
  const ednsTc = headerOnlyResponse(question, answer.rcode, { ...flags, edns: true });
  const plain = encodeAnswer(question, answer, { recursionAvailable, edns: false });
  const edns = encodeAnswer(question, answer, { recursionAvailable, edns: true });
  // Beyond what TCP's length prefix can carry, even TCP gets the truncated form.
  return {
    plain: plain.length > MAX_TCP_MESSAGE ? plainTc : plain,
    plainTc,
    edns: edns.length > MAX_TCP_MESSAGE ? ednsTc : edns,
    ednsTc,
    cell,
  };
}

/**
 * The bytes for one query: the form that fits (512 bytes without EDNS, the
 * client's size capped at 1232 with it, RFC 6891 §6.2.5; TCP takes all),
 * with the query's ID, RD and CD, and its question spelling when it had
 * capitals (resolvers using 0x20 case randomisation compare it).
 */
export function answerBytes(prepared: PreparedAnswer, query: ParsedQuery, msg: Buffer, tcp: boolean): Buffer {
  let source: Buffer;
  if (tcp) source = query.edns ? prepared.edns : prepared.plain;
  else if (!query.edns) source = prepared.plain.length <= CLASSIC_UDP_SIZE ? prepared.plain : prepared.plainTc;
  else source = prepared.edns.length <= (query.udpSize < ADVERTISED_UDP_SIZE ? query.udpSize : ADVERTISED_UDP_SIZE) ? prepared.edns : prepared.ednsTc;
  const out = Buffer.allocUnsafe(source.length);
  source.copy(out, 0);
  out[0] = msg[0]!;
  out[1] = msg[1]!;
  out[2] = out[2]! | query.rd;
  out[3] = out[3]! | query.cd;
  if (query.hasUpper) msg.copy(out, HEADER_LENGTH, HEADER_LENGTH, query.qnameEnd);
  prepared.cell.count++;
  return out;
}
