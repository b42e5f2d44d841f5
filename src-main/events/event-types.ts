export type EventLevel = 'info' | 'warn' | 'error';
/** Levels in rising severity; a `level` filter keeps this level and the ones after it. */
export const EVENT_LEVELS: readonly EventLevel[] = ['info', 'warn', 'error'];

/**
 * The kinds emitted so far, with what they mean. A kind is dotted, area first
 * (`service.started`, `dhcp.lease.granted`); docs/events-and-logs.md lists them.
 */
export const KNOWN_EVENT_KINDS = {
  'service.started': 'A managed service started; detail: service, listen',
  'service.stopped': 'A managed service stopped; detail: service',
  'service.failed': 'A managed service failed to start (error); detail: service, error',
  'store.recovered': 'A store file was unreadable at start and was moved aside and restored (error)',
  'auth.login': 'A user logged in; ip; detail: user_id, username, role',
  'auth.login_failed': 'A login was refused (warn); ip; detail: username, locked',
  'auth.logout': 'A user logged out; ip; detail: user_id, username',
  'settings.changed': 'Settings sections were saved; detail: sections',
  'network.interfaces_changed': 'Network interfaces appeared or went away; detail: added, removed, interfaces',
  'update.download.progress': 'An update download advanced; detail: version, bytes, total, percent',
  'update.download.failed': 'An update download failed (warn); detail: version',
  'update.downloaded': 'An update was downloaded and its SHA-256 verified; detail: version, file, bytes, sha256',
} as const satisfies Record<string, string>;

export type KnownEventKind = keyof typeof KNOWN_EVENT_KINDS;

/** Any dotted kind; the known ones autocomplete. */
export type EventKind = KnownEventKind | (string & {});

/** What a module hands to `events.emit`. `kind` is dotted: `service.started`, `dhcp.lease.granted`. */
export interface EventInput {
  kind: EventKind;
  level?: EventLevel;
  message: string;
  mac?: string;
  ip?: string;
  host_id?: number;
  detail?: Record<string, unknown>;
}

/** A stored event. `id` is monotonic and never reused (it is the SSE `id:`). */
export interface AppEvent {
  id: number;
  kind: string;
  level: EventLevel;
  message: string;
  mac: string | null;
  ip: string | null;
  host_id: number | null;
  detail: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

/** An event as the API and the streams show it (events never change, so no updated_at). */
export type EventView = Omit<AppEvent, 'updated_at'>;

export function eventView(event: AppEvent): EventView {
  return {
    id: event.id,
    kind: event.kind,
    level: event.level,
    message: event.message,
    mac: event.mac,
    ip: event.ip,
    host_id: event.host_id,
    detail: event.detail,
    created_at: event.created_at,
  };
}
