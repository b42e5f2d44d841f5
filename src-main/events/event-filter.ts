import { invalid } from '../core/errors.js';
import { normalizeMac } from '../core/mac.js';
import { EVENT_LEVELS, type AppEvent } from './event-types.js';
import { parseId, parseMinLevel, parseNamePatterns, parseTimestamp, type NameMatcher, type ParamValue } from './filter-params.js';

/** The filter parameters of GET /events, GET /events/stream and the IPC `events` stream. */
export interface EventFilterParams {
  /** Exact kind or prefix (`service.`, `service.*`); comma-separated list. */
  kind?: ParamValue;
  /** Minimum level: info (all), warn (warn and error), error. */
  level?: ParamValue;
  /** Any accepted MAC spelling; compared in canonical form. */
  mac?: ParamValue;
  /** RFC 3339; events at or after this instant. */
  since?: ParamValue;
  /** RFC 3339; events before this instant. */
  until?: ParamValue;
  /** Events with a greater id. */
  after_id?: ParamValue;
}

export interface EventFilter {
  kind: NameMatcher | null;
  minLevel: number | null;
  mac: string | null;
  since: string | null;
  until: string | null;
  afterId: number | null;
}

export const EVENT_FILTER_KEYS = ['kind', 'level', 'mac', 'since', 'until', 'after_id'] as const;

/**
 * Parses the filters; `fieldPrefix` names where they came from in a 400
 * (`querystring` over HTTP, `params` over IPC).
 */
export function parseEventFilter(params: EventFilterParams, fieldPrefix = 'querystring'): EventFilter {
  const field = (name: string) => `${fieldPrefix}.${name}`;
  let mac: string | null = null;
  if (params.mac !== undefined && params.mac !== '') {
    mac = normalizeMac(String(params.mac));
    if (!mac) throw invalid(field('mac'), `"${String(params.mac)}" is not a MAC address (e.g. 52:54:00:12:34:56)`);
  }
  return {
    kind: parseNamePatterns(field('kind'), params.kind),
    minLevel: parseMinLevel(field('level'), params.level, EVENT_LEVELS),
    mac,
    since: parseTimestamp(field('since'), params.since),
    until: parseTimestamp(field('until'), params.until),
    afterId: parseId(field('after_id'), params.after_id),
  };
}

export function matchesEvent(filter: EventFilter, event: AppEvent): boolean {
  if (filter.afterId !== null && event.id <= filter.afterId) return false;
  if (filter.minLevel !== null && EVENT_LEVELS.indexOf(event.level) < filter.minLevel) return false;
  if (filter.mac !== null && event.mac !== filter.mac) return false;
  if (filter.since !== null && event.created_at < filter.since) return false;
  if (filter.until !== null && event.created_at >= filter.until) return false;
  if (filter.kind !== null && !filter.kind(event.kind)) return false;
  return true;
}

