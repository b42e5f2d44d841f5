import { TokenBucket } from '../../core/token-bucket.js';
import { requestSource } from '../../network/source-address.js';

export interface RuntimeLimits {
  /** Requests one source may burst to the runtime endpoints. */
  burst: number;
  /** Their sustained rate per source. */
  perMinute: number;
  /** Sources tracked at once; the least recently seen is forgotten first. */
  maxSources: number;
  /** Refusal events (`netboot.answer_refused`) emitted at most this many a minute; the rest are counted into the next one. */
  refusalEventsPerMinute: number;
}

/**
 * An installation fetches its answer once or twice and calls back a few
 * times; a machine polling by-mac does so every few seconds at most. 200
 * machines installing at once come from 200 sources.
 */
export const RUNTIME_LIMITS: RuntimeLimits = { burst: 30, perMinute: 120, maxSources: 4096, refusalEventsPerMinute: 20 };

/**
 * Rate limits of the unauthenticated runtime endpoints: a token bucket per
 * source (IPv6 per /64), bounded in memory, and a budget for the refusal
 * events so that a flood of bad tokens does not flood the event log.
 */
export class RuntimeLimiter {
  private readonly limits: RuntimeLimits;
  private readonly sources = new Map<string, TokenBucket>();
  private readonly refusalEvents: TokenBucket;
  private suppressed = 0;
  private readonly now: () => number;

  constructor(limits: Partial<RuntimeLimits> = {}, now: () => number = Date.now) {
    this.limits = { ...RUNTIME_LIMITS, ...limits };
    this.now = now;
    this.refusalEvents = new TokenBucket({ capacity: this.limits.refusalEventsPerMinute, perMinute: this.limits.refusalEventsPerMinute }, now());
  }

  /** Takes a token of the source; false when it is over its rate. */
  admit(ip: string): boolean {
    const now = this.now();
    const key = requestSource(ip);
    let bucket = this.sources.get(key);
    if (bucket) {
      this.sources.delete(key);
    } else {
      bucket = new TokenBucket({ capacity: this.limits.burst, perMinute: this.limits.perMinute }, now);
      if (this.sources.size >= this.limits.maxSources) {
        const oldest = this.sources.keys().next();
        if (!oldest.done) this.sources.delete(oldest.value);
      }
    }
    // Map order is recency order: the used source moves to the end.
    this.sources.set(key, bucket);
    return bucket.take(now);
  }

  /** Seconds until the source has a token again (Retry-After). */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(60 / this.limits.perMinute));
  }

  /**
   * Whether a refusal event may be emitted now; when it may, how many were
   * suppressed since the last one (reported in its detail).
   */
  refusalEvent(): { emit: true; suppressed: number } | { emit: false } {
    if (!this.refusalEvents.take(this.now())) {
      this.suppressed += 1;
      return { emit: false };
    }
    const suppressed = this.suppressed;
    this.suppressed = 0;
    return { emit: true, suppressed };
  }
}
