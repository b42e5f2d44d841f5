import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { matchesEvent, parseEventFilter } from '../../../src-main/events/event-filter.js';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { parseNamePatterns, parseTimestamp } from '../../../src-main/events/filter-params.js';

function event(overrides: Partial<AppEvent>): AppEvent {
  return {
    id: 10,
    kind: 'service.started',
    level: 'info',
    message: 'm',
    mac: null,
    ip: null,
    host_id: null,
    detail: null,
    created_at: '2024-05-01T12:00:00.000Z',
    updated_at: '2024-05-01T12:00:00.000Z',
    ...overrides,
  };
}

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err.details?.[0]?.field;
    throw err;
  }
  return undefined;
}

describe('name patterns', () => {
  it('matches exact names, prefixes ending in . or *, lists and the lone *', () => {
    const match = parseNamePatterns('f', 'dhcp.lease.granted, boot.,auth.*')!;
    expect(match('dhcp.lease.granted')).toBe(true);
    expect(match('dhcp.lease.released')).toBe(false);
    expect(match('boot.script_served')).toBe(true);
    expect(match('auth.login_failed')).toBe(true);
    expect(match('authx.login')).toBe(false);
    expect(match('boot')).toBe(false);
    expect(parseNamePatterns('f', '*')!('anything.at.all')).toBe(true);
    expect(parseNamePatterns('f', '')).toBeNull();
  });

  it('rejects entries that are not dotted names', () => {
    expect(fieldOf(() => parseNamePatterns('querystring.kind', 'a b'))).toBe('querystring.kind');
    expect(fieldOf(() => parseNamePatterns('querystring.kind', 'a..b'))).toBe('querystring.kind');
    expect(fieldOf(() => parseNamePatterns('querystring.kind', '*.x'))).toBe('querystring.kind');
  });
});

describe('timestamps', () => {
  it('accepts RFC 3339 with any offset and returns UTC', () => {
    expect(parseTimestamp('f', '2024-05-01T14:00:00+02:00')).toBe('2024-05-01T12:00:00.000Z');
    expect(parseTimestamp('f', '2024-05-01t12:00:00.5z')).toBe('2024-05-01T12:00:00.500Z');
  });

  it('rejects dates without a time or zone and impossible dates', () => {
    for (const bad of ['2024-05-01', '2024-05-01T12:00:00', 'yesterday', '2024-13-01T00:00:00Z']) {
      expect(fieldOf(() => parseTimestamp('querystring.since', bad)), bad).toBe('querystring.since');
    }
  });
});

describe('event filter', () => {
  it('lets everything through when empty', () => {
    expect(matchesEvent(parseEventFilter({}), event({}))).toBe(true);
  });

  it('keeps the minimum level and above', () => {
    const filter = parseEventFilter({ level: 'warn' });
    expect(matchesEvent(filter, event({ level: 'info' }))).toBe(false);
    expect(matchesEvent(filter, event({ level: 'warn' }))).toBe(true);
    expect(matchesEvent(filter, event({ level: 'error' }))).toBe(true);
  });

  it('compares MACs canonically', () => {
    const filter = parseEventFilter({ mac: 'AABB.CCDD.EEFF' });
    expect(matchesEvent(filter, event({ mac: 'aa:bb:cc:dd:ee:ff' }))).toBe(true);
    expect(matchesEvent(filter, event({ mac: null }))).toBe(false);
  });

  it('keeps since (inclusive) to until (exclusive) and ids after after_id', () => {
    const filter = parseEventFilter({ since: '2024-05-01T12:00:00Z', until: '2024-05-01T13:00:00Z', after_id: '9' });
    expect(matchesEvent(filter, event({}))).toBe(true);
    expect(matchesEvent(filter, event({ created_at: '2024-05-01T13:00:00.000Z' }))).toBe(false);
    expect(matchesEvent(filter, event({ created_at: '2024-05-01T11:59:59.999Z' }))).toBe(false);
    expect(matchesEvent(filter, event({ id: 9 }))).toBe(false);
  });

  it('names the offending field with the caller\'s prefix', () => {
    expect(fieldOf(() => parseEventFilter({ level: 'debug' }, 'params'))).toBe('params.level');
    expect(fieldOf(() => parseEventFilter({ mac: 'nope' }))).toBe('querystring.mac');
    expect(fieldOf(() => parseEventFilter({ after_id: '1.5' }))).toBe('querystring.after_id');
  });
});
