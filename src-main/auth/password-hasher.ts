import os from 'node:os';
import { AppError } from '../core/errors.js';
import { DEFAULT_SCRYPT_PARAMS, hashPassword, spendDummyVerification, verifyPassword, type DeriveKey } from './password-hash.js';
import { ScryptWorkers } from './scrypt-workers.js';

export interface PasswordHasherOptions {
  /**
   * Hashes running at once. Each holds 32 MiB and a core while it runs;
   * default 2, but 1 on a two-core machine, so one core stays for requests.
   */
  concurrency?: number;
  /** Unauthenticated callers (logins) waiting for a slot at most; beyond it they get 429. Default 8. */
  maxQueue?: number;
  /** Replaces the scrypt worker threads (tests count or hold derivations here). */
  derive?: DeriveKey;
}

/** Who asks for a hash: logins are unauthenticated and may be refused; everyone else waits for a slot. */
export type HashCaller = 'login' | 'trusted';

interface Waiter {
  resolve: () => void;
}

/**
 * Every password hash and verification of the auth area, through one gate:
 * at most `concurrency` run at once (in dedicated worker threads, so libuv's
 * pool stays free for file writes), and at most `maxQueue` logins wait
 * behind them; a further login is refused at once with 429 and never hashed.
 * Trusted callers (admins creating users, a user changing a password) are
 * never refused, and go ahead of waiting logins.
 */
export class PasswordHasher {
  readonly concurrency: number;
  readonly maxQueue: number;
  private readonly derive: DeriveKey;
  private readonly workers: ScryptWorkers | null;
  private active = 0;
  private readonly trustedWaiters: Waiter[] = [];
  private readonly loginWaiters: Waiter[] = [];
  /** Derivations started so far (hashes and verifications, dummy ones included). */
  private started = 0;

  constructor(options: PasswordHasherOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? Math.min(2, os.availableParallelism() - 1));
    this.maxQueue = Math.max(0, options.maxQueue ?? 8);
    this.workers = options.derive ? null : new ScryptWorkers({ size: this.concurrency });
    this.derive = options.derive ?? ((request) => this.workers!.derive(request));
  }

  /** Derivations running now, waiting now, and started since creation. */
  get stats(): { running: number; waiting: number; started: number } {
    return { running: this.active, waiting: this.trustedWaiters.length + this.loginWaiters.length, started: this.started };
  }

  hash(password: string): Promise<string> {
    return this.gated('trusted', (derive) => hashPassword(password, DEFAULT_SCRYPT_PARAMS, derive));
  }

  verify(password: string, encoded: string, caller: HashCaller): Promise<boolean> {
    return this.gated(caller, (derive) => verifyPassword(password, encoded, derive));
  }

  /** The work of one verification, for an unknown username (no timing difference). */
  spendDummy(password: string, caller: HashCaller): Promise<void> {
    return this.gated(caller, (derive) => spendDummyVerification(password, derive));
  }

  async close(): Promise<void> {
    await this.workers?.close();
  }

  private async gated<T>(caller: HashCaller, work: (derive: DeriveKey) => Promise<T>): Promise<T> {
    await this.acquire(caller);
    try {
      return await work((request) => {
        this.started += 1;
        return this.derive(request);
      });
    } finally {
      this.release();
    }
  }

  private acquire(caller: HashCaller): Promise<void> {
    if (this.active < this.concurrency) {
      this.active += 1;
      return Promise.resolve();
    }
    if (caller === 'login' && this.loginWaiters.length >= this.maxQueue) {
      return Promise.reject(
        new AppError('RATE_LIMITED', 'too many logins are being checked right now; retry in 1 s', { headers: { 'retry-after': '1' } }),
      );
    }
    return new Promise((resolve) => (caller === 'login' ? this.loginWaiters : this.trustedWaiters).push({ resolve }));
  }

  /** Hands the slot straight to the next waiter (trusted first), or frees it. */
  private release(): void {
    const next = this.trustedWaiters.shift() ?? this.loginWaiters.shift();
    if (next) next.resolve();
    else this.active -= 1;
  }
}
