import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatRelative, formatUptime, localTimeZone, safeNextPath } from '../../../src-renderer/src/format.js';

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
    [null, '/'],
    ['', '/'],
    ['/services', '/services'],
    ['/services/dns?tab=1', '/services/dns?tab=1'],
    ['//evil.example/', '/'],
    ['/\\evil.example/', '/'],
    ['https://evil.example/', '/'],
    ['/login?next=/x', '/'],
  ])('%s → %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});

describe('formatBytes', () => {
  it.each([
    [null, '—'],
    [0, '0 B'],
    [512, '512 B'],
    [1536, '1.5 KiB'],
    [20 * 1024 * 1024, '20.0 MiB'],
    [3 * 1024 ** 4, '3.0 TiB'],
  ])('%s → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('formatRelative', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  it.each([
    ['2024-05-01T11:59:50Z', 'just now'],
    ['2024-05-01T11:55:00Z', '5 min ago'],
    ['2024-05-01T09:00:00Z', '3 h ago'],
    ['2024-04-30T12:00:00Z', '1 day ago'],
    ['2024-05-03T12:00:00Z', 'in 2 days'],
    ['2024-05-01T12:10:00Z', 'in 10 min'],
    [null, '—'],
    ['not a date', 'not a date'],
  ])('%s → %s', (iso, text) => {
    expect(formatRelative(iso, now)).toBe(text);
  });
});

describe('localTimeZone', () => {
  it("names the browser's zone with its UTC offset at that moment", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const at = new Date('2024-05-01T12:00:00Z');
    const offset = -at.getTimezoneOffset() || 0;
    const text = localTimeZone(at);
    expect(text.startsWith(`${zone} (UTC`)).toBe(true);
    const [, sign, hours, minutes] = /\(UTC([+-])(\d\d):(\d\d)\)$/.exec(text) ?? [];
    expect((sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes))).toBe(offset);
  });
});

describe('formatDateTime', () => {
  it('prints local time as YYYY-MM-DD HH:MM:SS and says "—" for none', () => {
    expect(formatDateTime('2024-05-01T12:00:00Z')).toMatch(/^2024-05-0[12] \d\d:\d\d:00$/);
    expect(formatDateTime(null)).toBe('—');
  });
});
