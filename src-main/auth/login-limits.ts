import { AppError } from '../core/errors.js';
import { LoginThrottle, type LoginThrottleOptions } from './login-throttle.js';
import { requestSource } from '../network/source-address.js';

export interface LoginLimitsOptions {
  /** Failures per username (ignoring case) and client address; default 5 per 15 minutes. */
  perUser?: LoginThrottleOptions;
  /** Failures per source (IPv4 address, IPv6 /64), whatever the username; default 30 per 15 minutes. */
  perSource?: LoginThrottleOptions;
  /** Failures across every source; default 120 per minute. */
  global?: LoginThrottleOptions;
}

export const DEFAULT_PER_SOURCE_LIMIT = { maxFailures: 30, windowMs: 15 * 60 * 1000 } as const;
export const DEFAULT_GLOBAL_LIMIT = { maxFailures: 120, windowMs: 60 * 1000 } as const;

/** One admitted login attempt; exactly one of its methods is called when the attempt ends. */
export interface LoginAttempt {
  /** Wrong credentials: the attempt stays counted; `locked` tells whether this username+address is now refused. */
  failed(): { locked: boolean };
  /** Right credentials: the username+address count resets, and this attempt no longer counts against its source. */
  succeeded(): void;
  /** Ended without checking the password (the hasher was busy, an error): it does not count. */
  abandoned(): void;
}

const GLOBAL_KEY = '*';

/**
 * The three login throttles, all checked before any password is hashed, so a
 * refused attempt costs no scrypt work:
 *
 * - per username+address: guessing one account's password;
 * - per source: one client trying many usernames (the per-username limit
 *   never sees two tries of a random username);
 * - global: many sources at once. While it is reached every login waits,
 *   legitimate ones too; that is the price of bounding the hashing work.
 *
 * The source and global counts take an attempt as a failure as soon as it is
 * admitted and give it back if it succeeds, so concurrent attempts count each
 * other and a burst cannot slip past the limit before its failures land.
 */
export class LoginLimits {
  readonly perUser: LoginThrottle;
  readonly perSource: LoginThrottle;
  readonly global: LoginThrottle;

  constructor(options: LoginLimitsOptions = {}) {
    this.perUser = new LoginThrottle(options.perUser);
    this.perSource = new LoginThrottle({ ...DEFAULT_PER_SOURCE_LIMIT, ...options.perSource });
    this.global = new LoginThrottle({ ...DEFAULT_GLOBAL_LIMIT, maxKeys: 1, ...options.global });
  }

  /** Admits an attempt or throws 429 RATE_LIMITED (with Retry-After) naming the limit that was reached. */
  admit(username: string, ip: string): LoginAttempt {
    const userKey = LoginThrottle.key(username, ip);
    const sourceKey = requestSource(ip);
    refuseIfLimited(this.perUser.retryAfterSeconds(userKey), 'too many failed logins for this username from your address');
    refuseIfLimited(this.perSource.retryAfterSeconds(sourceKey), 'too many failed logins from your address');
    refuseIfLimited(this.global.retryAfterSeconds(GLOBAL_KEY), 'too many failed logins on this server right now');
    this.perSource.recordFailure(sourceKey);
    this.global.recordFailure(GLOBAL_KEY);
    let ended = false;
    const end = (): boolean => {
      if (ended) return false;
      ended = true;
      return true;
    };
    const giveBack = () => {
      this.perSource.refund(sourceKey);
      this.global.refund(GLOBAL_KEY);
    };
    return {
      failed: () => {
        if (end()) this.perUser.recordFailure(userKey);
        return { locked: this.perUser.retryAfterSeconds(userKey) > 0 };
      },
      succeeded: () => {
        if (!end()) return;
        this.perUser.reset(userKey);
        giveBack();
      },
      abandoned: () => {
        if (end()) giveBack();
      },
    };
  }
}

function refuseIfLimited(retryAfter: number, reason: string): void {
  if (retryAfter <= 0) return;
  throw new AppError('RATE_LIMITED', `${reason}; retry in ${retryAfter} s`, { headers: { 'retry-after': String(retryAfter) } });
}
