import { Type, type Static } from 'typebox';
import { eventView, EVENT_LEVELS, type AppEvent } from '../../events/event-types.js';
import { matchesEvent, parseEventFilter } from '../../events/event-filter.js';
import { openEventStream, parseEventStreamRequest } from '../../events/event-stream.js';
import { paginate } from '../../core/http-kit/list-query.js';
import { ListQueryProperties, OkList, StrictObject } from '../../core/http-kit/schemas.js';
import { SSE_RESPONSE, SseStreams } from '../sse.js';
import type { RoutePluginFactory } from './index.js';

export const EventSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Monotonic, never reused; the SSE id' }),
    kind: Type.String({ description: 'Dotted kind, area first, e.g. service.started' }),
    level: Type.Union(EVENT_LEVELS.map((level) => Type.Literal(level))),
    message: Type.String(),
    mac: Type.Union([Type.String(), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
    host_id: Type.Union([Type.Integer(), Type.Null()]),
    detail: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Event' },
);

/** The filters GET /events and GET /events/stream share (parsed by parseEventFilter, like the IPC stream's). */
const EventFilterProperties = {
  kind: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Exact kind or prefix (`service.` or `service.*`); comma-separated list' }),
  ),
  level: Type.Optional(Type.Enum([...EVENT_LEVELS], { description: 'Minimum level' })),
  mac: Type.Optional(Type.String({ maxLength: 32, description: 'MAC address in any common spelling' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; events at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; events before this time' })),
  after_id: Type.Optional(Type.Integer({ minimum: 0, description: 'Events with a greater id' })),
};

const EventListQuery = StrictObject({ ...ListQueryProperties, ...EventFilterProperties });
const EventStreamQuery = StrictObject({
  ...EventFilterProperties,
  last_event_id: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Replay events after this id (for clients that cannot send Last-Event-ID)' }),
  ),
});
const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(Type.String({ description: 'Replay events after this id, then go live (sent by EventSource on reconnect)' })),
});

const SORTABLE = ['id', 'created_at', 'kind', 'level'] as const satisfies readonly (keyof AppEvent)[];

/** The event log: list with filters, and the live stream (SSE). */
export const eventRoutes: RoutePluginFactory = (ctx) => async (app) => {
  const streams = new SseStreams(app, ctx.sse);

  app.get<{ Querystring: Static<typeof EventListQuery> }>(
    '/events',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['events'],
        summary: 'List events (newest first by default)',
        querystring: EventListQuery,
        response: { 200: OkList(EventSchema) },
      },
    },
    async (request) => {
      const filter = parseEventFilter(request.query);
      const rows = ctx.events.all().filter((event) => matchesEvent(filter, event));
      const page = paginate(rows, request.query, {
        sortable: SORTABLE,
        defaultSort: '-id',
        searchText: (event) => [event.kind, event.message, event.mac, event.ip],
      });
      return { success: true as const, data: page.data.map(eventView), meta: page.meta };
    },
  );

  app.get<{ Querystring: Static<typeof EventStreamQuery>; Headers: Static<typeof StreamHeaders> }>(
    '/events/stream',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['events'],
        summary: 'Live events as server-sent events; replays what the client missed (Last-Event-ID)',
        querystring: EventStreamQuery,
        headers: StreamHeaders,
        response: { 200: SSE_RESPONSE },
      },
    },
    async (request, reply) => {
      const streamRequest = parseEventStreamRequest(request.query, 'querystring', {
        field: 'headers.last-event-id',
        value: request.headers['last-event-id'],
      });
      const stream = streams.start(request, reply);
      stream.onClose(openEventStream(ctx.events, streamRequest, (message) => stream.send(message)));
      return reply;
    },
  );
};
