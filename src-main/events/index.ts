export { EventLog, DEFAULT_EVENT_RETENTION, type EventRetention, type EventListener } from './event-log.js';
export type { AppEvent, EventInput, EventKind, EventLevel, EventView, KnownEventKind } from './event-types.js';
export { EVENT_LEVELS, KNOWN_EVENT_KINDS, eventView } from './event-types.js';
export { matchesEvent, parseEventFilter, EVENT_FILTER_KEYS, type EventFilter, type EventFilterParams } from './event-filter.js';
export { eventMessage, openEventStream, parseEventStreamRequest, type EventStreamParams, type EventStreamRequest } from './event-stream.js';
export type { StreamClose, StreamMessage, StreamSend } from './stream-message.js';
export { PruneTimer, pruneRows, AGE_PRUNE_INTERVAL_MS, type Retention } from './retention.js';
