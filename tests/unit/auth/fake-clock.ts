/** A settable clock for expiry tests (no sleeping). */
export class FakeClock {
  private time: number;

  constructor(start = Date.parse('2030-01-01T00:00:00.000Z')) {
    this.time = start;
  }

  readonly now = (): Date => new Date(this.time);
  readonly nowMs = (): number => this.time;

  advance(ms: number): void {
    this.time += ms;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
