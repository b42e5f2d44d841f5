import { describe, expect, it } from 'vitest';
import { formatUptime, safeNextPath } from '../../../src-renderer/src/format.js';

describe('formatUptime', () => {
  it.each([
    [null, '—'],
    [-1, '—'],
    [0, '0s'],
    [59, '59s'],
    [60, '1m 00s'],
    [725, '12m 05s'],
    [3600, '1h 00m'],
    [11_220, '3h 07m'],
    [86_400, '1d 00h'],
    [187_200, '2d 04h'],
  ])('%s s → %s', (seconds, text) => {
    expect(formatUptime(seconds)).toBe(text);
  });
});

describe('safeNextPath', () => {
  it.each([
    [null, '/services'],
    ['', '/services'],
    ['/services', '/services'],
    ['/services/dns?tab=1', '/services/dns?tab=1'],
    ['//evil.example/', '/services'],
    ['/\\evil.example/', '/services'],
    ['https://evil.example/', '/services'],
    ['/login?next=/x', '/services'],
  ])('%s → %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});
