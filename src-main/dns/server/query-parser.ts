import { CLASSIC_UDP_SIZE, HEADER_LENGTH, QTYPE, RCODE } from './dns-wire.js';

/** A well-formed standard query with one question (what the fast path answers). */
export interface ParsedQuery {
  ok: true;
  id: number;
  /** The RD bit (0 or 1) and the CD bit (0 or 0x10), copied into the answer (RFC 1035 §4.1.1, RFC 4035 §3.2.2). */
  rd: number;
  cd: number;
  /** Offset just past the question name (where QTYPE starts). */
  qnameEnd: number;
  /** Offset just past QCLASS. */
  questionEnd: number;
  qtype: number;
  qclass: number;
  /**
   * The lowercase question name in wire form followed by the two QTYPE bytes,
   * as a latin1 string: the lookup key of answers and of the forward cache.
   */
  key: string;
  /** The name had upper-case letters: the answer must echo the question as asked. */
  hasUpper: boolean;
  /** The query carried an OPT record (RFC 6891). */
  edns: boolean;
  /** The requestor's UDP payload size; 512 without EDNS. */
  udpSize: number;
  /** The DO bit (RFC 3225); we sign nothing, it is recorded for completeness. */
  dnssecOk: boolean;
}

/** A packet that is not a query we answer normally: drop it, or answer with just `rcode`. */
export interface QueryProblem {
  ok: false;
  /** null: send nothing (too short to answer, or a response, which we never answer: loops). */
  rcode: number | null;
  id: number;
  /** Header byte 2 of the query (opcode and RD are echoed). */
  flags: number;
  /** The query had a valid OPT record (the answer then carries one too). */
  edns: boolean;
  reason: string;
}

/** One object per packet, no wrapper: this runs for every query. */
export type QueryParse = ParsedQuery | QueryProblem;

/** Longest name on the wire (RFC 1035 §3.1). */
const MAX_WIRE_NAME = 255;
/** Enough for any question name plus QTYPE; reused so the common lower-casing allocates nothing but the key. */
const scratch = Buffer.allocUnsafe(MAX_WIRE_NAME + 2);

function problem(msg: Buffer, rcode: number | null, reason: string, edns = false): QueryParse {
  return { ok: false, rcode, id: msg.length >= 2 ? msg.readUInt16BE(0) : 0, flags: msg.length >= 3 ? msg[2]! : 0, edns, reason };
}

/**
 * Reads the header, the one question and the additional section of a query
 * (RFC 1035 §4.1). Checks bounds on every step: any input ends in a result,
 * never in a throw. Not handled here (the answer is a problem): opcodes other
 * than QUERY (NOTIMP), QDCOUNT other than 1 or records in the answer or
 * authority sections (FORMERR), a compression pointer in the question
 * (FORMERR: it can only point into the header), EDNS versions above 0 (BADVERS).
 */
export function parseQuery(msg: Buffer): QueryParse {
  const length = msg.length;
  if (length < HEADER_LENGTH) return problem(msg, null, 'shorter than a DNS header');
  const flags = msg[2]!;
  if (flags & 0x80) return problem(msg, null, 'a response, not a query');
  if (((flags >> 3) & 0x0f) !== 0) return problem(msg, RCODE.NOTIMP, `opcode ${(flags >> 3) & 0x0f} is not supported`);
  const qdcount = (msg[4]! << 8) | msg[5]!;
  const ancount = (msg[6]! << 8) | msg[7]!;
  const nscount = (msg[8]! << 8) | msg[9]!;
  const arcount = (msg[10]! << 8) | msg[11]!;
  if (qdcount !== 1) return problem(msg, RCODE.FORMERR, `QDCOUNT is ${qdcount}, not 1`);
  if (ancount !== 0 || nscount !== 0) return problem(msg, RCODE.FORMERR, 'a query with answer or authority records');

  let offset = HEADER_LENGTH;
  let hasUpper = false;
  for (;;) {
    if (offset >= length) return problem(msg, RCODE.FORMERR, 'question name runs past the end');
    const labelLength = msg[offset]!;
    if (labelLength === 0) {
      offset += 1;
      break;
    }
    if (labelLength & 0xc0) return problem(msg, RCODE.FORMERR, 'compression pointer or extended label in the question');
    const end = offset + 1 + labelLength;
    if (end > length) return problem(msg, RCODE.FORMERR, 'question label runs past the end');
    if (end - HEADER_LENGTH + 1 > MAX_WIRE_NAME) return problem(msg, RCODE.FORMERR, 'question name longer than 255 octets');
    for (let i = offset + 1; i < end; i++) {
      const c = msg[i]!;
      if (c >= 0x41 && c <= 0x5a) hasUpper = true;
    }
    offset = end;
  }
  const qnameEnd = offset;
  if (qnameEnd + 4 > length) return problem(msg, RCODE.FORMERR, 'question type and class run past the end');
  const qtype = (msg[qnameEnd]! << 8) | msg[qnameEnd + 1]!;
  const qclass = (msg[qnameEnd + 2]! << 8) | msg[qnameEnd + 3]!;
  const questionEnd = qnameEnd + 4;

  let edns = false;
  let udpSize = CLASSIC_UDP_SIZE;
  let dnssecOk = false;
  offset = questionEnd;
  for (let record = 0; record < arcount; record++) {
    const nameStart = offset;
    const nameEnd = skipName(msg, offset);
    if (nameEnd < 0 || nameEnd + 10 > length) return problem(msg, RCODE.FORMERR, 'additional record runs past the end', edns);
    const type = (msg[nameEnd]! << 8) | msg[nameEnd + 1]!;
    const rdLength = (msg[nameEnd + 8]! << 8) | msg[nameEnd + 9]!;
    const rdStart = nameEnd + 10;
    if (rdStart + rdLength > length) return problem(msg, RCODE.FORMERR, 'additional record data runs past the end', edns);
    if (type === QTYPE.OPT) {
      // RFC 6891 §6.1.1: at most one OPT, owned by the root.
      if (edns) return problem(msg, RCODE.FORMERR, 'more than one OPT record', true);
      if (nameEnd !== nameStart + 1 || msg[nameStart] !== 0) return problem(msg, RCODE.FORMERR, 'OPT record not owned by the root');
      if (!optionsWellFormed(msg, rdStart, rdStart + rdLength)) return problem(msg, RCODE.FORMERR, 'malformed EDNS option', true);
      edns = true;
      udpSize = Math.max(CLASSIC_UDP_SIZE, (msg[nameEnd + 2]! << 8) | msg[nameEnd + 3]!);
      const version = msg[nameEnd + 5]!;
      dnssecOk = (msg[nameEnd + 6]! & 0x80) !== 0;
      if (version !== 0) return problem(msg, RCODE.BADVERS, `EDNS version ${version} is not supported`, true);
    }
    offset = rdStart + rdLength;
  }

  let key: string;
  if (hasUpper) {
    const keyLength = qnameEnd + 2 - HEADER_LENGTH;
    for (let i = 0; i < keyLength; i++) {
      const c = msg[HEADER_LENGTH + i]!;
      // Only ASCII letters fold (RFC 4343 §3): bytes of other labels stay as they are.
      scratch[i] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
    }
    // The QTYPE bytes were folded too when they look like letters: put them back.
    scratch[keyLength - 2] = msg[qnameEnd]!;
    scratch[keyLength - 1] = msg[qnameEnd + 1]!;
    key = scratch.toString('latin1', 0, keyLength);
  } else {
    key = msg.toString('latin1', HEADER_LENGTH, qnameEnd + 2);
  }

  return {
    ok: true,
    id: (msg[0]! << 8) | msg[1]!,
    rd: flags & 0x01,
    cd: msg[3]! & 0x10,
    qnameEnd,
    questionEnd,
    qtype,
    qclass,
    key,
    hasUpper,
    edns,
    udpSize,
    dnssecOk,
  };
}

/** Offset after the name at `offset` (labels, or labels ending in a pointer), or -1 when it runs past the end. */
export function skipName(msg: Buffer, offset: number): number {
  let hops = 0;
  while (offset < msg.length) {
    const labelLength = msg[offset]!;
    if (labelLength === 0) return offset + 1;
    if ((labelLength & 0xc0) === 0xc0) return offset + 2 <= msg.length ? offset + 2 : -1;
    if (labelLength & 0xc0) return -1;
    offset += 1 + labelLength;
    if (++hops > 128) return -1;
  }
  return -1;
}

function optionsWellFormed(msg: Buffer, start: number, end: number): boolean {
  let offset = start;
  while (offset < end) {
    if (offset + 4 > end) return false;
    const optionLength = (msg[offset + 2]! << 8) | msg[offset + 3]!;
    offset += 4 + optionLength;
  }
  return offset === end;
}

/**
 * The key's name in dotted presentation form, lowercase, without the final
 * dot (`pxe.bootwright.local`; `.` is the root as ""). Bytes outside letters,
 * digits, `-` and `_` are escaped as `\DDD` (RFC 1035 §5.1), so such a name
 * can never equal a stored one and its labels stay apart.
 */
export function keyName(key: string): string {
  const labels: string[] = [];
  let offset = 0;
  const nameLength = key.length - 2;
  while (offset < nameLength) {
    const labelLength = key.charCodeAt(offset);
    if (labelLength === 0) break;
    let label = '';
    for (let i = offset + 1; i <= offset + labelLength; i++) {
      const c = key.charCodeAt(i);
      const plain = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;
      label += plain ? String.fromCharCode(c) : `\\${String(c).padStart(3, '0')}`;
    }
    labels.push(label);
    offset += 1 + labelLength;
  }
  return labels.join('.');
}

/** The QTYPE stored in the last two characters of a key. */
export function keyType(key: string): number {
  return (key.charCodeAt(key.length - 2) << 8) | key.charCodeAt(key.length - 1);
}
