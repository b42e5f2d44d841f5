import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import { SSE_RESPONSE, SseStreams } from '../api/sse.js';
import { paginate } from '../core/http-kit/list-query.js';
import { ListQueryProperties, OkList, StrictObject } from '../core/http-kit/schemas.js';
import type { SseSettings } from '../core/http-kit/sse-settings.js';
import { matchesEvent, parseEventFilter } from './event-filter.js';
import type { EventLog } from './event-log.js';
import { openEventStream, parseEventStreamRequest } from './event-stream.js';
import type { AppEvent } from './event-types.js';
import { EventFilterProperties, EventSchema } from './events-contract.js';

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
export const eventRoutes = (events: EventLog, sse: SseSettings): FastifyPluginAsync => async (app) => {
  const streams = new SseStreams(app, sse);

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
      const rows = events.all().filter((event) => matchesEvent(filter, event));
      const page = paginate(rows, request.query, {
        sortable: SORTABLE,
        defaultSort: '-id',
        searchText: (event) => [event.kind, event.message, event.mac, event.ip],
      });
      return { success: true as const, data: page.data.map((event) => events.view(event)), meta: page.meta };
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
      stream.onClose(openEventStream(events, streamRequest, (message) => stream.send(message)));
      return reply;
    },
  );
};
