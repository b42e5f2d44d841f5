/**
 * A token bucket on a caller-supplied clock (ms): `capacity` tokens at most,
 * refilled continuously at `perMinute`. Time is passed in so the limits are
 * tested by moving a number, not by sleeping.
 */
export class TokenBucket {
  private readonly capacity: number;
  private readonly perMs: number;
  private tokens: number;
  private refilledAt: number;

  constructor(limits: { capacity: number; perMinute: number }, now: number) {
    this.capacity = limits.capacity;
    this.perMs = limits.perMinute / 60_000;
    this.tokens = limits.capacity;
    this.refilledAt = now;
  }

  /** True when a token could be taken now (takes none). */
  available(now: number): boolean {
    this.refill(now);
    return this.tokens >= 1;
  }

  /** Takes a token; false (and nothing taken) when the bucket is empty. */
  take(now: number): boolean {
    if (!this.available(now)) return false;
    this.tokens -= 1;
    return true;
  }

  private refill(now: number): void {
    // A clock stepped back adds nothing; refilling restarts from the new reading.
    if (now > this.refilledAt) this.tokens = Math.min(this.capacity, this.tokens + (now - this.refilledAt) * this.perMs);
    this.refilledAt = now;
  }
}
