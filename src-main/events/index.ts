import type { AreaModule } from '../core/area.js';
import type { EventLog } from './event-log.js';
import { eventRoutes } from './events-routes.js';

export { EventLog, DEFAULT_EVENT_RETENTION, type EventRetention, type EventListener } from './event-log.js';
export type { AppEvent, EventInput, EventKind, EventLevel, EventView, KnownEventKind } from './event-types.js';
export { EVENT_LEVELS, KNOWN_EVENT_KINDS, eventView } from './event-types.js';
export { matchesEvent, parseEventFilter, EVENT_FILTER_KEYS, type EventFilter, type EventFilterParams } from './event-filter.js';
export { eventMessage, openEventStream, parseEventStreamRequest, type EventStreamParams, type EventStreamRequest } from './event-stream.js';
export type { StreamClose, StreamMessage, StreamSend } from './stream-message.js';
export { PruneTimer, pruneRows, AGE_PRUNE_INTERVAL_MS, type Retention } from './retention.js';
export { EventSchema, type EventData } from './events-contract.js';
export { eventRoutes } from './events-routes.js';


/**
 * The events area (docs/architecture.md, "Area folders"): the facade is the
 * kernel's EventLog; the routes are GET /events and the SSE /events/stream.
 * While running, it prunes events past their retention age.
 */
export function eventsArea(): AreaModule<'events', EventLog, Record<string, never>> {
  return {
    name: 'events',
    needs: [],
    create(kernel) {
      const { events, log } = kernel;
      return {
        facade: events,
        routes: [eventRoutes(events, kernel.sse)],
        services: [],
        start: async () => events.startAgePrune(undefined, (err: unknown) => log.warn(`event retention prune failed: ${String(err)}`)),
        stop: async () => events.stopAgePrune(),
      };
    },
  };
}
