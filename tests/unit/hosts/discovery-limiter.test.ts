import { describe, expect, it } from 'vitest';
import { DISCOVERY_LIMITS, DiscoveryLimiter } from '../../../src-main/hosts/discovery-limiter.js';

const MINUTE = 60_000;

describe('DiscoveryLimiter', () => {
  const limits = { ...DISCOVERY_LIMITS, maxPending: 100, perMinute: 10, perSourcePerMinute: 3, maxSources: 4, warnEveryMs: MINUTE };

  it('admits at most the per-source burst from one address and the global burst from many', () => {
    const limiter = new DiscoveryLimiter({ ...limits, maxSources: 100 }, 0);
    const fromOne = Array.from({ length: 8 }, () => limiter.admit('10.0.0.1', 0, 0).admitted);
    expect(fromOne.filter(Boolean)).toHaveLength(3);
    const fromMany = Array.from({ length: 20 }, (_, i) => limiter.admit(`10.0.1.${i}`, 0, 0).admitted);
    // 10 globally, 3 of them already taken by 10.0.0.1.
    expect(fromMany.filter(Boolean)).toHaveLength(7);
    // A refusal by the per-source bucket costs the global bucket nothing: after 6 s one global token is back.
    expect(limiter.admit('10.0.0.1', 0, 6_000)).toMatchObject({ admitted: false, reason: 'rate_source' });
    expect(limiter.admit('10.0.2.1', 0, 6_000)).toEqual({ admitted: true });
  });

  it('refuses everything at the pending cap without drawing tokens', () => {
    const limiter = new DiscoveryLimiter(limits, 0);
    for (let i = 0; i < 50; i += 1) expect(limiter.admit(`10.0.0.${i}`, 100, 0)).toMatchObject({ admitted: false, reason: 'pending_cap' });
    expect(Array.from({ length: 3 }, () => limiter.admit('10.0.0.1', 99, 0).admitted)).toEqual([true, true, true]);
  });

  it('hands back the refusal counts for one warning per interval', () => {
    const limiter = new DiscoveryLimiter(limits, 0);
    const warnings: unknown[] = [];
    for (let i = 0; i < 30; i += 1) {
      const verdict = limiter.admit('10.0.0.1', 0, i * 1_000);
      if (!verdict.admitted && verdict.warn) warnings.push({ at: i * 1_000, ...verdict.warn });
    }
    // 3 admitted at once, the 4th refused and reported; then 1 per 20 s refills (at 20 s), the rest are counted.
    expect(warnings).toEqual([{ at: 3_000, pending_cap: 0, rate_global: 0, rate_source: 1 }]);
    const next = limiter.admit('10.0.0.1', 100, MINUTE + 3_000);
    expect(next).toEqual({ admitted: false, reason: 'pending_cap', warn: { pending_cap: 1, rate_global: 0, rate_source: 25 } });
  });

  it('tracks a bounded number of sources, forgetting the least recently seen, and one IPv6 /64 as one source', () => {
    const limiter = new DiscoveryLimiter({ ...limits, perMinute: 1000 }, 0);
    for (let i = 0; i < 3; i += 1) expect(limiter.admit('10.0.0.1', 0, 0).admitted).toBe(true);
    expect(limiter.admit('10.0.0.1', 0, 0).admitted).toBe(false);
    // Four more sources push 10.0.0.1 out (at most 4 tracked); it starts afresh.
    for (let i = 2; i <= 5; i += 1) limiter.admit(`10.0.0.${i}`, 0, 0);
    expect(limiter.admit('10.0.0.1', 0, 0).admitted).toBe(true);
    const v6 = ['2001:db8::1', '2001:db8::2', '2001:db8:0:0:ffff::3', '2001:db8::4'].map((ip) => limiter.admit(ip, 0, 0).admitted);
    expect(v6).toEqual([true, true, true, false]);
    expect(limiter.admit('2001:db8:0:1::1', 0, 0).admitted).toBe(true);
  });
});
