export type EventLevel = 'info' | 'warn' | 'error';
export const EVENT_LEVELS: readonly EventLevel[] = ['info', 'warn', 'error'];

/** What a module hands to `events.emit`. `kind` is dotted: `service.started`, `dhcp.lease.granted`. */
export interface EventInput {
  kind: string;
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
