import type { EventLog } from './event-log.js';
import { matchesEvent, parseEventFilter, type EventFilter, type EventFilterParams } from './event-filter.js';
import { eventView, type AppEvent, type EventView } from './event-types.js';
import { parseId, type ParamValue } from './filter-params.js';
import type { StreamClose, StreamMessage, StreamSend } from './stream-message.js';

/** What opens an event stream: filters plus the id to replay after. */
export interface EventStreamRequest {
  filter: EventFilter;
  /** Replay stored events after this id before going live; null: live only. */
  replayAfter: number | null;
}

export interface EventStreamParams extends EventFilterParams {
  /** For clients that cannot send the Last-Event-ID header (EventSource polyfills, IPC). */
  last_event_id?: ParamValue;
}

/**
 * Parses a stream request. The replay point is, first found: `lastEventId`
 * (the Last-Event-ID header or the IPC request's field), the `last_event_id`
 * parameter, then `after_id`.
 */
export function parseEventStreamRequest(
  params: EventStreamParams,
  fieldPrefix: string,
  lastEventId: { field: string; value: ParamValue } | null = null,
): EventStreamRequest {
  const filter = parseEventFilter(params, fieldPrefix);
  const fromHeader = lastEventId ? parseId(lastEventId.field, lastEventId.value) : null;
  const fromParam = parseId(`${fieldPrefix}.last_event_id`, params.last_event_id);
  return { filter, replayAfter: fromHeader ?? fromParam ?? filter.afterId };
}

// One message object per event, shared by every subscriber (and its serialised
// frame with it, see sse.ts): N clients cost one view, not N.
const messages = new WeakMap<AppEvent, StreamMessage>();

/** The stream message of an event: id = event id, event = kind, data = the event as the API shows it (`view`: EventLog.view). */
export function eventMessage(event: AppEvent, view: (event: AppEvent) => EventView = eventView): StreamMessage {
  let message = messages.get(event);
  if (!message) {
    message = Object.freeze({ id: event.id, event: event.kind, data: Object.freeze(view(event)) });
    messages.set(event, message);
  }
  return message;
}

/**
 * Replays the stored events after `replayAfter` that pass the filter, oldest
 * first, then delivers live ones. Replay and subscribe happen in one
 * synchronous step, so no event can fall between them (emit is synchronous).
 */
export function openEventStream(events: EventLog, request: EventStreamRequest, send: StreamSend): StreamClose {
  const { filter, replayAfter } = request;
  if (replayAfter !== null) {
    for (const event of events.since(replayAfter)) {
      if (matchesEvent(filter, event)) send(eventMessage(event, (e) => events.view(e)));
    }
  }
  return events.subscribe((event) => {
    if (matchesEvent(filter, event)) send(eventMessage(event, (e) => events.view(e)));
  });
}
