import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import type { UpstreamServer } from '../upstream.js';
import { FLAG_RD, HEADER_LENGTH, MAX_TCP_MESSAGE, RCODE } from './dns-wire.js';
import { ForwardCache, toCachedAnswer, type CachedAnswer } from './forward-cache.js';
import { OPT_RECORD } from './response-encoder.js';
import { scanResponse } from './response-scan.js';

export const UPSTREAM_TIMEOUT_MS = 2_000;
/** Distinct questions waiting for upstreams at once; beyond this, queries get SERVFAIL at once. */
export const MAX_PENDING = 1_024;

export interface ForwarderOptions {
  timeoutMs?: number;
  maxPending?: number;
  cache?: ForwardCache;
  /** Called for every failed try: timeout, network error, unusable or refusing answer. */
  onUpstreamFailure?: (upstream: UpstreamServer, reason: string) => void;
}

/** RCODEs after which the next upstream is tried (dnsmasq does the same). */
const TRY_NEXT = new Set<number>([RCODE.SERVFAIL, RCODE.NOTIMP, RCODE.REFUSED, RCODE.FORMERR]);

/**
 * Forwards questions outside local data to the upstream servers in order:
 * UDP first with a per-try timeout, TCP when the UDP answer is truncated,
 * the next upstream on timeout, error or SERVFAIL/REFUSED. Identical
 * questions in flight share one upstream exchange; answers are cached by TTL.
 *
 * Each UDP try uses a fresh connected socket (a random source port that
 * takes datagrams from the upstream only) and a random ID, and only an
 * answer with that ID and the same question is accepted: the usual defence
 * against spoofed answers.
 */
export class Forwarder {
  readonly upstreams: readonly UpstreamServer[];
  readonly cache: ForwardCache;
  private readonly timeoutMs: number;
  private readonly maxPending: number;
  private readonly onUpstreamFailure: (upstream: UpstreamServer, reason: string) => void;
  private readonly inflight = new Map<string, Promise<CachedAnswer | null>>();
  private readonly open = new Set<{ close(): void }>();
  private closed = false;

  constructor(upstreams: readonly UpstreamServer[], options: ForwarderOptions = {}) {
    this.upstreams = upstreams;
    this.timeoutMs = options.timeoutMs ?? UPSTREAM_TIMEOUT_MS;
    this.maxPending = options.maxPending ?? MAX_PENDING;
    this.cache = options.cache ?? new ForwardCache();
    this.onUpstreamFailure = options.onUpstreamFailure ?? (() => undefined);
  }

  /**
   * The upstream answer to `question` (wire bytes: lowercase name, type,
   * class), or null when every upstream failed. `key` identifies the question
   * for sharing and caching.
   */
  resolve(key: string, question: Buffer): Promise<CachedAnswer | null> {
    const pending = this.inflight.get(key);
    if (pending) return pending;
    if (this.inflight.size >= this.maxPending || this.closed) return Promise.resolve(null);
    const run = this.tryAll(question).then((answer) => {
      this.inflight.delete(key);
      if (answer) this.cache.set(key, answer);
      return answer;
    });
    this.inflight.set(key, run);
    return run;
  }

  /** Aborts every exchange in flight; their queries get null. */
  close(): void {
    this.closed = true;
    for (const handle of this.open) handle.close();
    this.open.clear();
  }

  private async tryAll(question: Buffer): Promise<CachedAnswer | null> {
    for (const upstream of this.upstreams) {
      if (this.closed) return null;
      try {
        let raw = await this.exchangeUdp(upstream, question);
        let answer = this.accept(raw);
        if (answer === 'truncated') {
          raw = await this.exchangeTcp(upstream, question);
          answer = this.accept(raw);
        }
        if (typeof answer === 'string') throw new Error(answer);
        return answer;
      } catch (err) {
        this.onUpstreamFailure(upstream, (err as Error).message);
      }
    }
    return null;
  }

  /** The cache entry of a usable answer, 'truncated', or the reason it is unusable. */
  private accept(raw: Buffer): CachedAnswer | string {
    const scan = scanResponse(raw);
    if (!scan) return 'malformed answer';
    if (scan.truncated) return 'truncated';
    if (TRY_NEXT.has(scan.rcode & 0x0f) || scan.rcode > 0x0f) return `answered with RCODE ${scan.rcode}`;
    const answer = toCachedAnswer(raw, scan, performance.now());
    return answer ?? 'answer could not be re-framed';
  }

  private query(question: Buffer): { id: number; message: Buffer } {
    const id = randomInt(0x10000);
    const message = Buffer.alloc(HEADER_LENGTH + question.length + OPT_RECORD.length);
    message.writeUInt16BE(id, 0);
    message[2] = FLAG_RD;
    message.writeUInt16BE(1, 4);
    message.writeUInt16BE(1, 10);
    question.copy(message, HEADER_LENGTH);
    OPT_RECORD.copy(message, HEADER_LENGTH + question.length);
    return { id, message };
  }

  private exchangeUdp(upstream: UpstreamServer, question: Buffer): Promise<Buffer> {
    const { id, message } = this.query(question);
    return new Promise<Buffer>((resolve, reject) => {
      const socket = dgram.createSocket(upstream.family === 6 ? 'udp6' : 'udp4');
      const handle = { close: () => finish(new Error('forwarder closed')) };
      const timer = setTimeout(() => finish(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      let settled = false;
      const finish = (error: Error | null, answer?: Buffer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.open.delete(handle);
        socket.removeAllListeners('message');
        socket.on('error', () => undefined);
        try {
          socket.close();
        } catch {
          // Already closed.
        }
        if (error) reject(error);
        else resolve(answer!);
      };
      this.open.add(handle);
      socket.on('error', (err) => finish(err));
      // A connected socket takes datagrams from the upstream only, and hears
      // ICMP port unreachable (ECONNREFUSED): a dead upstream fails at once.
      socket.on('message', (answer) => {
        if (matchesQuery(answer, id, question)) finish(null, answer);
      });
      socket.connect(upstream.port, upstream.host, () => {
        socket.send(message, (err) => {
          if (err) finish(err);
        });
      });
    });
  }

  private exchangeTcp(upstream: UpstreamServer, question: Buffer): Promise<Buffer> {
    const { id, message } = this.query(question);
    return new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect({ host: upstream.host, port: upstream.port });
      let received: Buffer = Buffer.alloc(0);
      const handle = { close: () => finish(new Error('forwarder closed')) };
      const timer = setTimeout(() => finish(new Error(`no TCP answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      let settled = false;
      const finish = (error: Error | null, answer?: Buffer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.open.delete(handle);
        socket.removeAllListeners('data');
        socket.on('error', () => undefined);
        socket.destroy();
        if (error) reject(error);
        else resolve(answer!);
      };
      this.open.add(handle);
      socket.on('error', (err) => finish(err));
      socket.on('close', () => finish(new Error('upstream closed the TCP connection')));
      socket.on('connect', () => {
        const framed = Buffer.alloc(2 + message.length);
        framed.writeUInt16BE(message.length, 0);
        message.copy(framed, 2);
        socket.write(framed);
      });
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.length > 2 + MAX_TCP_MESSAGE) return finish(new Error('TCP answer too long'));
        while (received.length >= 2) {
          const length = received.readUInt16BE(0);
          if (received.length < 2 + length) return;
          const answer = received.subarray(2, 2 + length);
          received = received.subarray(2 + length);
          if (matchesQuery(answer, id, question)) return finish(null, Buffer.from(answer));
        }
      });
    });
  }
}

/** True when `answer` is a response with our ID and exactly our question (names compared case-insensitively). */
export function matchesQuery(answer: Buffer, id: number, question: Buffer): boolean {
  if (answer.length < HEADER_LENGTH + question.length) return false;
  if (answer.readUInt16BE(0) !== id || (answer[2]! & 0x80) === 0 || answer.readUInt16BE(4) !== 1) return false;
  for (let i = 0; i < question.length; i++) {
    const a = answer[HEADER_LENGTH + i]!;
    const b = question[i]!;
    // Only ASCII letters may differ, and only in case (RFC 4343; resolvers may randomise case).
    if (a !== b && !(a >= 0x41 && a <= 0x5a && (a | 0x20) === b)) return false;
  }
  return true;
}

