import { describe, expect, it } from 'vitest';
import { progressThrottle } from '../../../src-main/os-images/progress-throttle.js';

describe('progress throttle', () => {
  it('emits at most once per interval and the newest held-back value on flush', () => {
    let clock = 0;
    const seen: number[] = [];
    const report = progressThrottle(500, (value: number) => seen.push(value), () => clock);
    report(1);
    clock = 100;
    report(2);
    clock = 400;
    report(3);
    expect(seen).toEqual([1]);
    clock = 500;
    report(4);
    expect(seen).toEqual([1, 4]);
    clock = 600;
    report(5);
    report.flush();
    report.flush();
    expect(seen).toEqual([1, 4, 5]);
  });
});
