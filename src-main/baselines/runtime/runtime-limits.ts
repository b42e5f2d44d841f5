import { TokenBucket } from '../../core/token-bucket.js';

export interface RuntimeRateLimits {
  /** Requests one source (an address; IPv6 by /64 is not needed here: the runtime is reached on the LAN) may burst. */
  sourceBurst: number;
  sourcePerMinute: number;
  /** Requests one token may burst: a run of 64 scripts makes about 130 (list, script, report each, start, end). */
  tokenBurst: number;
  tokenPerMinute: number;
  /** Keys tracked at once per kind; the least recently used is forgotten first. */
  maxKeys: number;
}

export const RUNTIME_RATE_LIMITS: RuntimeRateLimits = { sourceBurst: 300, sourcePerMinute: 300, tokenBurst: 200, tokenPerMinute: 120, maxKeys: 4096 };

/** Token buckets by key (a source address, a token id), bounded in memory. */
export class KeyedLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly limits: { capacity: number; perMinute: number; maxKeys: number },
    private readonly now: () => number = Date.now,
  ) {}

  admit(key: string): boolean {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key);
    } else {
      bucket = new TokenBucket(this.limits, now);
      if (this.buckets.size >= this.limits.maxKeys) {
        const oldest = this.buckets.keys().next();
        if (!oldest.done) this.buckets.delete(oldest.value);
      }
    }
    // Map order is recency order: the used key moves to the end.
    this.buckets.set(key, bucket);
    return bucket.take(now);
  }

  /** Seconds until a key has a token again (Retry-After). */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(60 / this.limits.perMinute));
  }
}
