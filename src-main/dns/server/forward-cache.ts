import packet from 'dns-packet';
import { ADVERTISED_UDP_SIZE, CLASSIC_UDP_SIZE, FLAG_CD, FLAG_RA, FLAG_RD, FLAG_TC, HEADER_LENGTH, MAX_TCP_MESSAGE, RCODE } from './dns-wire.js';
import type { ParsedQuery } from './query-parser.js';
import { OPT_RECORD } from './response-encoder.js';
import { scanResponse, type ScannedResponse } from './response-scan.js';
import type { QueryCell } from './worker-metrics.js';

/** An upstream answer kept for reuse: two wire forms and where their TTLs are. */
export interface CachedAnswer {
  rcode: number;
  /** The upstream message without its OPT record (for clients without EDNS). */
  plain: Buffer;
  /** `plain` with our OPT record appended (for clients with EDNS). */
  edns: Buffer;
  /** TTL fields, the same in both forms (the OPT goes last). */
  ttlOffsets: number[];
  /** Offset just past the question. */
  questionEnd: number;
  /** performance.now() when stored. */
  storedAt: number;
  /** How long it may be reused, in seconds (0: not cached, used once). */
  ttl: number;
  /** The query counter this answer increments, set on first use (the hot path then skips the label lookup). */
  cell?: QueryCell;
}

/** Cached answers live at most a day whatever upstream says. */
export const MAX_CACHE_TTL = 86_400;
export const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * Turns a validated upstream response into a cache entry: the OPT record is
 * removed (a client without EDNS must not get one, RFC 6891 §7) and ours is
 * appended for clients with EDNS. The cache TTL is the smallest record TTL of
 * a positive answer, or the SOA-derived negative TTL of NXDOMAIN/NODATA
 * (RFC 2308 §5); other answers are used once and not kept. Null when the
 * message cannot be handled.
 */
export function toCachedAnswer(raw: Buffer, scan: ScannedResponse, now: number): CachedAnswer | null {
  let plain = raw;
  if (scan.opt) {
    plain = Buffer.concat([raw.subarray(0, scan.opt.start), raw.subarray(scan.opt.end)]);
    plain.writeUInt16BE(plain.readUInt16BE(10) - 1, 10);
    if (scan.opt.end !== raw.length) {
      // Records after the OPT moved: make sure their names still decode.
      try {
        packet.decode(plain);
      } catch {
        return null;
      }
    }
  }
  const rescanned = plain === raw ? scan : scanResponse(plain);
  if (!rescanned) return null;
  const edns = Buffer.concat([plain, OPT_RECORD]);
  edns.writeUInt16BE(edns.readUInt16BE(10) + 1, 10);
  let ttl = 0;
  if (scan.rcode === RCODE.NOERROR && scan.answerCount > 0) ttl = scan.minTtl ?? 0;
  else if (scan.rcode === RCODE.NXDOMAIN || scan.rcode === RCODE.NOERROR) ttl = scan.negativeTtl ?? 0;
  return {
    rcode: scan.rcode,
    plain,
    edns,
    ttlOffsets: rescanned.ttlOffsets,
    questionEnd: rescanned.questionEnd,
    storedAt: now,
    ttl: Math.min(ttl, MAX_CACHE_TTL),
  };
}

/**
 * A bounded TTL cache of forwarded answers, keyed like the local answers
 * (lowercase question name and type). When full, the oldest entry goes.
 */
export class ForwardCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private readonly maxEntries: number;

  constructor(maxEntries = DEFAULT_CACHE_ENTRIES) {
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (now - entry.storedAt >= entry.ttl * 1000) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: CachedAnswer): void {
    if (entry.ttl <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, entry);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The answer to one client from a cached (or just received) upstream answer:
 * its ID, RD and CD bits, the question as the client spelled it, TTLs aged
 * by the time spent in the cache, RA set; TC with no records when it does not
 * fit the client's UDP size.
 */
export function replyFromCache(entry: CachedAnswer, query: ParsedQuery, msg: Buffer, tcp: boolean, now: number): Buffer {
  const source = query.edns ? entry.edns : entry.plain;
  const limit = tcp ? MAX_TCP_MESSAGE : query.edns ? Math.min(query.udpSize, ADVERTISED_UDP_SIZE) : CLASSIC_UDP_SIZE;
  let out: Buffer;
  if (source.length > limit) {
    const opt = query.edns ? OPT_RECORD : null;
    out = Buffer.alloc(entry.questionEnd + (opt?.length ?? 0));
    source.copy(out, 0, 0, entry.questionEnd);
    out.writeUInt16BE(0, 6);
    out.writeUInt16BE(0, 8);
    out.writeUInt16BE(opt ? 1 : 0, 10);
    if (opt) opt.copy(out, entry.questionEnd);
    out[2] = out[2]! | FLAG_TC;
  } else {
    out = Buffer.allocUnsafe(source.length);
    source.copy(out, 0);
    const elapsed = Math.floor((now - entry.storedAt) / 1000);
    if (elapsed > 0) {
      for (const offset of entry.ttlOffsets) {
        const ttl = source.readUInt32BE(offset);
        out.writeUInt32BE(ttl > elapsed ? ttl - elapsed : 0, offset);
      }
    }
  }
  out[0] = msg[0]!;
  out[1] = msg[1]!;
  out[2] = (out[2]! & ~FLAG_RD) | query.rd;
  out[3] = (out[3]! & ~FLAG_CD) | query.cd | FLAG_RA;
  if (query.hasUpper) msg.copy(out, HEADER_LENGTH, HEADER_LENGTH, query.qnameEnd);
  return out;
}
