export interface LoginThrottleOptions {
  /** Failures allowed within the window; the next attempt is refused. */
  maxFailures?: number;
  windowMs?: number;
  /** Bound on tracked username+IP keys, so a flood of guesses cannot grow memory without limit. */
  maxKeys?: number;
  now?: () => number;
}

/**
 * Counts failed logins per key (username+IP, source address, or one key for
 * the whole server: see LoginLimits) in a sliding window. After
 * `maxFailures` failures, attempts are refused until the oldest failure
 * leaves the window. Held in memory only: a restart forgets it.
 */
export class LoginThrottle {
  readonly maxFailures: number;
  readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;
  /** Failure times per key; Map order is least recently failed first, which is the eviction order. */
  private readonly failures = new Map<string, number[]>();

  constructor(options: LoginThrottleOptions = {}) {
    this.maxFailures = options.maxFailures ?? 5;
    this.windowMs = options.windowMs ?? 15 * 60 * 1000;
    this.maxKeys = options.maxKeys ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  static key(username: string, ip: string): string {
    return `${username.toLowerCase()}\u0000${ip}`;
  }

  get size(): number {
    return this.failures.size;
  }

  /** Seconds until another attempt is allowed, or 0 when one is allowed now. */
  retryAfterSeconds(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.maxFailures) return 0;
    // The attempt is allowed again once enough failures have aged out of the window.
    const unlockAt = recent[recent.length - this.maxFailures]! + this.windowMs;
    return Math.max(1, Math.ceil((unlockAt - this.now()) / 1000));
  }

  recordFailure(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    this.failures.delete(key);
    if (this.failures.size >= this.maxKeys) this.evict();
    this.failures.set(key, recent.slice(-this.maxFailures));
  }

  /**
   * Takes back the newest failure of `key`: for callers that count an attempt
   * as a failure up front (so concurrent attempts see each other) and learn
   * later that it was not one.
   */
  refund(key: string): void {
    const times = this.failures.get(key);
    if (!times) return;
    times.pop();
    if (times.length === 0) this.failures.delete(key);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const times = (this.failures.get(key) ?? []).filter((time) => time > cutoff);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }

  private evict(): void {
    const cutoff = this.now() - this.windowMs;
    for (const [key, times] of this.failures) {
      if (times.every((time) => time <= cutoff)) this.failures.delete(key);
    }
    // Still full: forget the key whose last failure is oldest.
    while (this.failures.size >= this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }
}
