import { describe, expect, it } from 'vitest';
import { RuntimeLimiter } from '../../../../src-main/netboot/tasks/runtime-limiter.js';

describe('RuntimeLimiter', () => {
  it('allows a burst per source, refills at its rate, and counts sources apart (IPv6 per /64)', () => {
    let now = 0;
    const limiter = new RuntimeLimiter({ burst: 3, perMinute: 6 }, () => now);
    expect([1, 2, 3, 4].map(() => limiter.admit('192.0.2.1'))).toEqual([true, true, true, false]);
    expect(limiter.admit('192.0.2.2')).toBe(true);
    expect(limiter.admit('::ffff:192.0.2.1')).toBe(false);
    now = 10_000;
    expect(limiter.admit('192.0.2.1')).toBe(true);
    expect([1, 2, 3, 4].map(() => limiter.admit('2001:db8::1'))).toEqual([true, true, true, false]);
    expect(limiter.admit('2001:db8::ffff')).toBe(false);
    expect(limiter.retryAfterSeconds()).toBe(10);
  });

  it('forgets the least recently seen source beyond its bound', () => {
    const limiter = new RuntimeLimiter({ burst: 1, perMinute: 1, maxSources: 2 }, () => 0);
    expect(limiter.admit('10.0.0.1')).toBe(true);
    expect(limiter.admit('10.0.0.2')).toBe(true);
    expect(limiter.admit('10.0.0.3')).toBe(true);
    // 10.0.0.1 was forgotten: a fresh bucket.
    expect(limiter.admit('10.0.0.1')).toBe(true);
    expect(limiter.admit('10.0.0.3')).toBe(false);
  });

  it('budgets refusal events and reports how many were held back', () => {
    let now = 0;
    const limiter = new RuntimeLimiter({ refusalEventsPerMinute: 2 }, () => now);
    const verdicts = Array.from({ length: 6 }, () => limiter.refusalEvent());
    expect(verdicts.filter((v) => v.emit)).toHaveLength(2);
    now = 30_000;
    expect(limiter.refusalEvent()).toEqual({ emit: true, suppressed: 4 });
    expect(limiter.refusalEvent()).toEqual({ emit: false });
  });
});
