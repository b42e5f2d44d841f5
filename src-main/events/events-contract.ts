import { Type, type Static } from 'typebox';
import { literalUnion } from '../core/http-kit/common-contract.js';

/*
 * The events API's contract (/api/v1/events, /events/stream): schemas and
 * constants, typebox and other contracts only, so the renderer imports it
 * too (alias @contracts/events).
 */

/** Levels in rising severity; a `level` filter keeps this level and the ones after it. */
export const EVENT_LEVELS = ['info', 'warn', 'error'] as const;
export type EventLevel = (typeof EVENT_LEVELS)[number];

export const EventSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Monotonic, never reused; the SSE id' }),
    kind: Type.String({ description: 'Dotted kind, area first, e.g. service.started' }),
    level: literalUnion(EVENT_LEVELS),
    message: Type.String(),
    mac: Type.Union([Type.String(), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
    host_id: Type.Union([Type.Integer(), Type.Null()]),
    host_name: Type.Optional(Type.String({ description: "The host's name (its host name, else its MAC), present when the event names a host that still exists" })),
    // Typed as a record (the schema's open object would be typed `object`); the schema itself is unchanged.
    detail: Type.Unsafe<Record<string, unknown> | null>(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Event' },
);
export type EventData = Static<typeof EventSchema>;

/** The filters GET /events and GET /events/stream share (parsed by parseEventFilter, like the IPC stream's). */
export const EventFilterProperties = {
  kind: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Exact kind or prefix (`service.` or `service.*`); comma-separated list' }),
  ),
  level: Type.Optional(Type.Enum([...EVENT_LEVELS], { description: 'Minimum level' })),
  mac: Type.Optional(Type.String({ maxLength: 32, description: 'MAC address in any common spelling' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; events at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; events before this time' })),
  after_id: Type.Optional(Type.Integer({ minimum: 0, description: 'Events with a greater id' })),
};
