import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../src-main/core/token-bucket.js';

const MINUTE = 60_000;

describe('TokenBucket', () => {
  it('starts full, empties, refills at its rate up to its capacity, and gains nothing from a clock stepped back', () => {
    const bucket = new TokenBucket({ capacity: 3, perMinute: 6 }, 1_000_000);
    expect([1, 2, 3, 4].map(() => bucket.take(1_000_000))).toEqual([true, true, true, false]);
    // 6 a minute: one token every 10 s.
    expect(bucket.take(1_000_000 + 9_999)).toBe(false);
    expect(bucket.take(1_000_000 + 10_000)).toBe(true);
    expect(bucket.available(1_000_000 + 10_000)).toBe(false);
    // A long quiet spell refills to the capacity, not beyond.
    const later = 1_000_000 + 60 * MINUTE;
    expect([1, 2, 3, 4].map(() => bucket.take(later))).toEqual([true, true, true, false]);
    expect(bucket.take(later - 5 * MINUTE)).toBe(false);
    expect(bucket.take(later - 5 * MINUTE + 10_000)).toBe(true);
  });
});
