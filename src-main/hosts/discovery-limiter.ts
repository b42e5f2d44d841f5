import { ipFamily, subnetOf } from '../network/ip-math.js';
import { TokenBucket } from '../core/token-bucket.js';

/**
 * Bounds on recording unknown machines as discovered hosts. The boot script
 * request that triggers a discovery is unauthenticated, and every discovery
 * rewrites the configuration file on the main thread (which also answers
 * DHCP), so a flood of invented MACs must not grow the store without bound.
 */
export interface DiscoveryLimits {
  /** Discovered hosts not yet adopted; at this many no further one is recorded. */
  maxPending: number;
  /** New discoveries per minute from all clients together (also the burst). */
  perMinute: number;
  /** New discoveries per minute from one client address (an IPv6 client: its /64), also the burst. */
  perSourcePerMinute: number;
  /** Client addresses tracked at once; the least recently seen is forgotten first. */
  maxSources: number;
  /** At most one `host.discovery_limited` warning per this many ms. */
  warnEveryMs: number;
}

/** The defaults (docs/hosts-and-profiles.md, "Limits"). */
export const DISCOVERY_LIMITS: Readonly<DiscoveryLimits> = {
  maxPending: 1000,
  perMinute: 30,
  perSourcePerMinute: 5,
  maxSources: 4096,
  warnEveryMs: 60_000,
};

export type DiscoveryRefusal = 'pending_cap' | 'rate_global' | 'rate_source';

/** Unrecorded discoveries since the last warning, by reason. */
export type RefusalCounts = Record<DiscoveryRefusal, number>;

export type DiscoveryVerdict =
  | { admitted: true }
  /** `warn`: the counts to report now (at most once per `warnEveryMs`), else null. */
  | { admitted: false; reason: DiscoveryRefusal; warn: RefusalCounts | null };

/**
 * Decides whether one more unknown machine may be recorded: under the cap
 * of pending discovered hosts, and within both token buckets (global and
 * per client). Refusals are counted and handed back for one warning per
 * interval, so the warning itself cannot become the flood.
 */
export class DiscoveryLimiter {
  readonly limits: Readonly<DiscoveryLimits>;
  private readonly global: TokenBucket;
  /** Map order is recency order: a used entry is moved to the end. */
  private readonly sources = new Map<string, TokenBucket>();
  private refused: RefusalCounts = emptyCounts();
  private lastWarnAt: number | null = null;

  constructor(limits: Readonly<DiscoveryLimits>, now: number) {
    this.limits = limits;
    this.global = new TokenBucket({ capacity: limits.perMinute, perMinute: limits.perMinute }, now);
  }

  /** `pending`: discovered hosts not yet adopted. Takes the tokens when admitted. */
  admit(sourceIp: string, pending: number, now: number): DiscoveryVerdict {
    if (pending >= this.limits.maxPending) return this.refuse('pending_cap', now);
    const source = this.sourceBucket(sourceKey(sourceIp), now);
    // Both buckets are checked before either is drawn, so a refusal by one costs the other nothing.
    if (!source.available(now)) return this.refuse('rate_source', now);
    if (!this.global.available(now)) return this.refuse('rate_global', now);
    source.take(now);
    this.global.take(now);
    return { admitted: true };
  }

  private refuse(reason: DiscoveryRefusal, now: number): DiscoveryVerdict {
    this.refused[reason] += 1;
    const due = this.lastWarnAt === null || now - this.lastWarnAt >= this.limits.warnEveryMs || now < this.lastWarnAt;
    if (!due) return { admitted: false, reason, warn: null };
    const warn = this.refused;
    this.refused = emptyCounts();
    this.lastWarnAt = now;
    return { admitted: false, reason, warn };
  }

  private sourceBucket(key: string, now: number): TokenBucket {
    let bucket = this.sources.get(key);
    if (bucket) {
      this.sources.delete(key);
    } else {
      bucket = new TokenBucket({ capacity: this.limits.perSourcePerMinute, perMinute: this.limits.perSourcePerMinute }, now);
      // Bounded memory under a flood from many addresses; the global bucket still bounds what they record.
      if (this.sources.size >= this.limits.maxSources) {
        const oldest = this.sources.keys().next();
        if (!oldest.done) this.sources.delete(oldest.value);
      }
    }
    this.sources.set(key, bucket);
    return bucket;
  }
}

function emptyCounts(): RefusalCounts {
  return { pending_cap: 0, rate_global: 0, rate_source: 0 };
}

/** One IPv6 client usually holds a whole /64, so it counts as one source. */
function sourceKey(ip: string): string {
  if (ipFamily(ip) !== 'ipv6') return ip;
  try {
    return subnetOf(ip, 64).cidr;
  } catch {
    // A spelling ipaddr.js does not take (a zone id): the address itself is still a key.
    return ip;
  }
}
