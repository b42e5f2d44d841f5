/**
 * Picks free addresses from a subnet's ranges. Addresses never used before
 * come first (a cursor walks each range once), so a returning client usually
 * finds its old address still free; when the cursor has passed the end,
 * freed addresses (expired, released, deleted) are reused, collected by a
 * rescan in address order (at most once a second while the pool is full). Whether an address is free is the caller's call: leases, offers,
 * reservations and quarantine live elsewhere.
 */
export interface PoolRange {
  start: number;
  end: number;
}

export interface PoolChecks {
  /** Nobody holds it now (no active lease, offer, reservation or quarantine; not ours). */
  isFree(ip: number): boolean;
  /** Free and never leased (no lease record at all). */
  isUnused(ip: number): boolean;
}

/** Freed addresses collected per rescan: bounds the memory of a nearly full /15. */
const REUSE_BATCH = 4096;
/** After a rescan found nothing, wait this long before scanning again (a full pool under a DISCOVER flood). */
const EXHAUSTED_RETRY_MS = 1000;

interface RangeState extends PoolRange {
  cursor: number;
}

export class AddressPool {
  private readonly ranges: RangeState[];
  private reusable: number[] = [];
  private exhaustedUntil = 0;

  constructor(ranges: readonly PoolRange[]) {
    this.ranges = ranges.map((range) => ({ ...range, cursor: range.start }));
  }

  get size(): number {
    return this.ranges.reduce((sum, range) => sum + (range.end - range.start + 1), 0);
  }

  has(ip: number): boolean {
    return this.ranges.some((range) => ip >= range.start && ip <= range.end);
  }

  /** A free address, or null when the ranges are exhausted. */
  allocate(checks: PoolChecks, now: number): number | null {
    for (const range of this.ranges) {
      while (range.cursor <= range.end) {
        const ip = range.cursor;
        range.cursor += 1;
        if (checks.isUnused(ip)) return ip;
      }
    }
    while (this.reusable.length > 0) {
      const ip = this.reusable.pop()!;
      if (checks.isFree(ip)) return ip;
    }
    if (now < this.exhaustedUntil) return null;
    this.rescan(checks);
    while (this.reusable.length > 0) {
      const ip = this.reusable.pop()!;
      if (checks.isFree(ip)) return ip;
    }
    this.exhaustedUntil = now + EXHAUSTED_RETRY_MS;
    return null;
  }

  /** Collects free addresses (unused ones first) in allocation order; popped from the end. */
  private rescan(checks: PoolChecks): void {
    const unused: number[] = [];
    const freed: number[] = [];
    for (const range of this.ranges) {
      for (let ip = range.start; ip <= range.end && unused.length + freed.length < REUSE_BATCH; ip += 1) {
        if (!checks.isFree(ip)) continue;
        if (checks.isUnused(ip)) unused.push(ip);
        else freed.push(ip);
      }
    }
    this.reusable = [...freed.reverse(), ...unused.reverse()];
  }
}
