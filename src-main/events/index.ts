export { EventLog, DEFAULT_EVENT_RETENTION, type EventRetention, type EventListener } from './event-log.js';
export type { AppEvent, EventInput, EventLevel } from './event-types.js';
export { EVENT_LEVELS } from './event-types.js';
