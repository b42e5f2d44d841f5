import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../../src-main/auth/login-throttle.js';
import { FakeClock, MINUTE, SECOND } from './fake-clock.js';

describe('LoginThrottle', () => {
  it('refuses after five failures within 15 minutes, with the seconds to wait', () => {
    const clock = new FakeClock();
    const throttle = new LoginThrottle({ now: clock.nowMs });
    const key = LoginThrottle.key('Admin', '192.0.2.1');
    for (let i = 0; i < 5; i += 1) {
      expect(throttle.retryAfterSeconds(key)).toBe(0);
      throttle.recordFailure(key);
      clock.advance(MINUTE);
    }
    // First failure at t=0, now t=5 min: it leaves the window at t=15 min.
    expect(throttle.retryAfterSeconds(key)).toBe(10 * 60);
    clock.advance(10 * MINUTE - SECOND);
    expect(throttle.retryAfterSeconds(key)).toBe(1);
    clock.advance(SECOND);
    expect(throttle.retryAfterSeconds(key)).toBe(0);
  });

  it('counts usernames case-insensitively and per address', () => {
    const throttle = new LoginThrottle({ maxFailures: 2 });
    throttle.recordFailure(LoginThrottle.key('Admin', '192.0.2.1'));
    throttle.recordFailure(LoginThrottle.key('admin', '192.0.2.1'));
    expect(throttle.retryAfterSeconds(LoginThrottle.key('ADMIN', '192.0.2.1'))).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds(LoginThrottle.key('admin', '192.0.2.2'))).toBe(0);
    expect(throttle.retryAfterSeconds(LoginThrottle.key('other', '192.0.2.1'))).toBe(0);
  });

  it('forgets failures after a success (reset)', () => {
    const throttle = new LoginThrottle({ maxFailures: 2 });
    const key = LoginThrottle.key('u', '::1');
    throttle.recordFailure(key);
    throttle.reset(key);
    throttle.recordFailure(key);
    expect(throttle.retryAfterSeconds(key)).toBe(0);
  });

  it('holds a bounded number of keys', () => {
    const clock = new FakeClock();
    const throttle = new LoginThrottle({ maxKeys: 100, now: clock.nowMs });
    for (let i = 0; i < 1000; i += 1) {
      throttle.recordFailure(LoginThrottle.key(`user${i}`, '192.0.2.9'));
      clock.advance(1);
    }
    expect(throttle.size).toBeLessThanOrEqual(100);
    // The most recent keys are the ones kept.
    const last = LoginThrottle.key('user999', '192.0.2.9');
    for (let i = 0; i < 4; i += 1) throttle.recordFailure(last);
    expect(throttle.retryAfterSeconds(last)).toBeGreaterThan(0);
  });

  it('takes back the newest failure on refund (an attempt counted up front that succeeded)', () => {
    const throttle = new LoginThrottle({ maxFailures: 2 });
    const key = 'source';
    throttle.recordFailure(key);
    throttle.recordFailure(key);
    expect(throttle.retryAfterSeconds(key)).toBeGreaterThan(0);
    throttle.refund(key);
    expect(throttle.retryAfterSeconds(key)).toBe(0);
    throttle.refund(key);
    throttle.refund(key);
    expect(throttle.size).toBe(0);
  });
});
