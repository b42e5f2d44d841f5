/**
 * Time as the scheduler sees it. The system clock in production; tests pass
 * a manual clock and advance it, so schedules are tested without sleeping.
 */
export interface SchedulerClock {
  now(): Date;
  /** Calls `fn` after `ms`; the handle goes to clearTimer. Must not keep the process alive. */
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const systemClock: SchedulerClock = {
  now: () => new Date(),
  setTimer: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * A clock that moves only when told: `advance(ms)` runs every timer that
 * falls due, in order, awaiting what they start. For tests.
 */
export class ManualClock implements SchedulerClock {
  private current: number;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private nextHandle = 1;

  constructor(start: Date | string) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimer(fn: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.current + Math.max(0, ms), fn });
    return handle;
  }

  clearTimer(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers waiting, for assertions. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward, firing due timers one by one (with a settle after each). */
  async advance(ms: number, settle: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))): Promise<void> {
    const target = this.current + ms;
    // Bounded: a timer re-arming itself at the same instant cannot loop forever.
    for (let fired = 0; fired < 10_000; fired += 1) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = Math.max(this.current, due[1].at);
      due[1].fn();
      await settle();
    }
    this.current = target;
  }

  /** Jumps without firing anything (a stopped app does not run its timers). */
  set(time: Date | string): void {
    this.current = new Date(time).getTime();
  }
}
