import { HEADER_LENGTH, QCLASS, RCODE } from './dns-wire.js';
import { Forwarder } from './forwarder.js';
import { replyFromCache } from './forward-cache.js';
import { answerBytes, prepareAnswer, type PreparedAnswer } from './prepared-answer.js';
import { keyName, parseQuery, type ParsedQuery, type QueryProblem } from './query-parser.js';
import { bareAnswer, resolve } from './resolver.js';
import { headerOnlyResponse } from './response-encoder.js';
import { WorkerMetrics } from './worker-metrics.js';
import { TrackedView, Zone, type ClientView, type ViewLike } from './zone.js';
import type { ZoneSnapshot } from './zone-snapshot.js';

/** Where answers go: a UDP socket or a TCP connection. */
export interface ReplyChannel {
  readonly tcp: boolean;
  send(message: Buffer, port: number, address: string): void;
  /** The view of the client at `address` (cached per listener: it depends on the address the query arrived on). */
  viewFor(address: string): ClientView;
}

/** Local and cache answers are timed one in this many (a power of two). */
export const LATENCY_SAMPLE = 16;

/** Memoised answers per zone and per view. */
export const MAX_MEMO_ENTRIES = 20_000;

/** Memo marker of a name outside local data while upstreams are configured. */
const FORWARD = Symbol('forward');
/** Zone memo marker of a name whose answer depends on the client's view: look in the view's memo. */
const PER_VIEW = Symbol('per-view');
type MemoEntry = PreparedAnswer | typeof FORWARD | typeof PER_VIEW;

/** Memoises; a flood of distinct names clears the memo rather than growing it without bound. */
function remember(memo: Map<string, unknown>, key: string, entry: unknown): void {
  if (memo.size >= MAX_MEMO_ENTRIES) memo.clear();
  memo.set(key, entry);
}

/**
 * Turns one DNS message into its answer. The fast path (a well-formed IN
 * query whose answer was prepared before) is: parse the header and
 * question, one Map lookup (two when the answer depends on the client's
 * view), a copy and four patched bytes.
 * Everything else (the first query of a name, other classes, errors,
 * forwarding) takes the slower paths.
 */
export class QueryHandler {
  readonly metrics = new WorkerMetrics();
  private tick = 0;
  private zone: Zone | null = null;
  private forwarder: Forwarder | null = null;

  /** Starts answering from a new snapshot: earlier memos and views belong to the old zone and fall away. */
  setZone(snapshot: ZoneSnapshot): void {
    this.zone = new Zone(snapshot);
    const labels = snapshot.upstreams.map((upstream) => upstream.label).join(',');
    const current = this.forwarder?.upstreams.map((upstream) => upstream.label).join(',') ?? '';
    if (labels !== current) {
      this.forwarder?.close();
      this.forwarder =
        snapshot.upstreams.length > 0
          ? new Forwarder(snapshot.upstreams, { onUpstreamFailure: (upstream) => this.metrics.upstreamFailed(upstream.label) })
          : null;
    }
  }

  currentZone(): Zone | null {
    return this.zone;
  }

  close(): void {
    this.forwarder?.close();
    this.forwarder = null;
  }

  handle(msg: Buffer, address: string, port: number, channel: ReplyChannel): void {
    // Reading the clock twice is a sizeable share of the fast path, so local
    // and cache answers are timed 1 in LATENCY_SAMPLE (uniformly: the
    // histogram's shape holds, its count is a sample); upstream ones always.
    const timed = (++this.tick & (LATENCY_SAMPLE - 1)) === 0;
    const started = timed ? performance.now() : 0;
    const zone = this.zone;
    if (zone === null) return;
    const query = parseQuery(msg);
    if (!query.ok) {
      const reply = this.problemReply(query);
      if (reply) {
        channel.send(reply, port, address);
        if (timed) this.metrics.observe('local', performance.now() - started);
      }
      return;
    }
    if (query.qclass !== QCLASS.IN) {
      channel.send(this.answerOtherClass(zone, channel.viewFor(address), query, msg, channel.tcp), port, address);
      if (timed) this.metrics.observe('local', performance.now() - started);
      return;
    }
    // Most answers are the same for every client: one lookup in the zone's memo.
    // The others are kept per view (our address, record subnets).
    let entry = zone.memo.get(query.key) as MemoEntry | undefined;
    if (entry === undefined || entry === PER_VIEW) entry = this.perView(zone, channel.viewFor(address), query, msg, entry);
    if (entry !== FORWARD) {
      channel.send(answerBytes(entry, query, msg, channel.tcp), port, address);
      if (timed) this.metrics.observe('local', performance.now() - started);
      return;
    }
    this.forward(query, msg, address, port, channel, timed);
  }

  /** The view's memoised answer, preparing it (and learning whether it depends on the view) on first use. */
  private perView(zone: Zone, view: ClientView, query: ParsedQuery, msg: Buffer, shared: MemoEntry | undefined): PreparedAnswer | typeof FORWARD {
    if (shared === PER_VIEW) {
      const known = view.memo.get(query.key) as PreparedAnswer | undefined;
      if (known) return known;
    }
    const tracked = new TrackedView(view);
    const entry = this.prepare(zone, tracked, query, msg);
    if (tracked.used) {
      remember(zone.memo, query.key, PER_VIEW);
      remember(view.memo, query.key, entry);
    } else {
      remember(zone.memo, query.key, entry);
    }
    return entry;
  }

  private prepare(zone: Zone, view: ViewLike, query: ParsedQuery, msg: Buffer): PreparedAnswer | typeof FORWARD {
    const resolution = resolve(zone, keyName(query.key), query.qtype, query.qclass, view);
    if (resolution.kind === 'outside' && this.forwarder) return FORWARD;
    const answer = resolution.kind === 'answer' ? resolution : bareAnswer(RCODE.REFUSED);
    return prepareAnswer(questionOf(query, msg), answer, this.forwarder !== null, this.metrics.cell(query.qtype, answer.rcode));
  }

  /** CH, HS, ANY class queries: answered (mostly REFUSED) each time, never memoised or forwarded. */
  private answerOtherClass(zone: Zone, view: ViewLike, query: ParsedQuery, msg: Buffer, tcp: boolean): Buffer {
    const resolution = resolve(zone, keyName(query.key), query.qtype, query.qclass, view);
    const answer = resolution.kind === 'answer' ? resolution : bareAnswer(RCODE.REFUSED);
    return answerBytes(prepareAnswer(questionOf(query, msg), answer, this.forwarder !== null, this.metrics.cell(query.qtype, answer.rcode)), query, msg, tcp);
  }

  private forward(query: ParsedQuery, msg: Buffer, address: string, port: number, channel: ReplyChannel, timed: boolean): void {
    const forwarder = this.forwarder!;
    const started = performance.now();
    const cached = forwarder.cache.get(query.key, started);
    if (cached) {
      this.metrics.cacheHits++;
      (cached.cell ??= this.metrics.cell(query.qtype, cached.rcode)).count++;
      channel.send(replyFromCache(cached, query, msg, channel.tcp, started), port, address);
      if (timed) this.metrics.observe('cache', performance.now() - started);
      return;
    }
    this.metrics.forwarded++;
    const question = questionOf(query, msg);
    void forwarder.resolve(query.key, question).then((answer) => {
      const now = performance.now();
      let reply: Buffer;
      if (answer) {
        reply = replyFromCache(answer, query, msg, channel.tcp, now);
        this.metrics.cell(query.qtype, answer.rcode).count++;
      } else {
        reply = headerOnlyResponse(question, RCODE.SERVFAIL, { recursionAvailable: true, edns: query.edns });
        reply[0] = msg[0]!;
        reply[1] = msg[1]!;
        reply[2] = reply[2]! | query.rd;
        reply[3] = reply[3]! | query.cd;
        if (query.hasUpper) msg.copy(reply, HEADER_LENGTH, HEADER_LENGTH, query.qnameEnd);
        this.metrics.cell(query.qtype, RCODE.SERVFAIL).count++;
      }
      channel.send(reply, port, address);
      this.metrics.observe('upstream', now - started);
    });
  }

  /** FORMERR, NOTIMP or BADVERS with just the header (and OPT when the query had EDNS); null drops the packet. */
  private problemReply(problem: QueryProblem): Buffer | null {
    if (problem.rcode === null) return null;
    const reply = headerOnlyResponse(null, problem.rcode, { edns: problem.edns, recursionAvailable: this.forwarder !== null });
    reply.writeUInt16BE(problem.id, 0);
    // Echo the opcode and RD (RFC 1035 §4.1.1).
    reply[2] = reply[2]! | (problem.flags & 0x79);
    this.metrics.cell(-1, problem.rcode).count++;
    return reply;
  }
}

/** The question as wire bytes: lowercase name, type, class. */
function questionOf(query: ParsedQuery, msg: Buffer): Buffer {
  const question = Buffer.allocUnsafe(query.questionEnd - HEADER_LENGTH);
  question.write(query.key, 0, 'latin1');
  msg.copy(question, query.key.length, query.qnameEnd + 2, query.questionEnd);
  return question;
}
