import { AppError } from '../core/errors.js';
import type { LogSink } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import { openEventStream, parseEventStreamRequest } from '../events/event-stream.js';
import type { ParamValue } from '../events/filter-params.js';
import type { StreamClose, StreamSend } from '../events/stream-message.js';
import { openLogStream, parseLogFilter } from '../logs/log-stream.js';

export type { StreamMessage } from '../events/stream-message.js';

export const STREAM_NAMES = ['events', 'logs'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/** What the renderer sends to open a live stream over IPC (the SSE endpoints' twin). */
export interface StreamSubscribeRequest {
  stream: StreamName;
  /** The same filters the SSE endpoint takes as query parameters (also `last_event_id`). */
  params?: Record<string, string | number>;
  /** Replay what came after this event id (like SSE Last-Event-ID). */
  last_event_id?: number;
}

export interface StreamHub {
  /** Opens a stream; returns the function that closes it. Throws AppError on a bad request. */
  subscribe(request: unknown, send: StreamSend): StreamClose;
}

const EVENT_PARAMS = ['kind', 'level', 'mac', 'since', 'until', 'after_id', 'last_event_id'] as const;
const LOG_PARAMS = ['level', 'service'] as const;

/**
 * Live streams for the desktop renderer. They run the very functions the SSE
 * routes run (filter parsing, replay, message shape), so both transports
 * deliver the same messages; only the framing differs (objects here, text there).
 */
export function createStreamHub(ctx: { events: EventLog; logs: LogSink }): StreamHub {
  return {
    subscribe(request, send) {
      if (typeof request !== 'object' || request === null) {
        throw new AppError('BAD_REQUEST', 'stream request must be an object {stream, params?, last_event_id?}');
      }
      const { stream, params, last_event_id: lastEventId } = request as Record<string, unknown>;
      if (stream === 'events') {
        const checked = checkParams(params, EVENT_PARAMS);
        const streamRequest = parseEventStreamRequest(checked, 'params', { field: 'last_event_id', value: checkId(lastEventId) });
        return openEventStream(ctx.events, streamRequest, send);
      }
      if (stream === 'logs') {
        return openLogStream(ctx.logs, parseLogFilter(checkParams(params, LOG_PARAMS), 'params'), send);
      }
      throw new AppError('BAD_REQUEST', `unknown stream "${String(stream)}"; streams are ${STREAM_NAMES.join(', ')}`);
    },
  };
}

/** `params` must be a flat object of known names with text or number values (like a query string). */
function checkParams<K extends string>(params: unknown, known: readonly K[]): Partial<Record<K, ParamValue>> {
  if (params === undefined) return {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new AppError('VALIDATION_FAILED', 'params: must be an object of filter names to values', {
      details: [{ field: 'params', message: 'must be an object' }],
    });
  }
  const out: Partial<Record<K, ParamValue>> = {};
  for (const [name, value] of Object.entries(params)) {
    if (!(known as readonly string[]).includes(name)) {
      throw new AppError('VALIDATION_FAILED', `params.${name}: unknown field; known fields are ${known.join(', ')}`, {
        details: [{ field: `params.${name}`, message: 'unknown field' }],
      });
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new AppError('VALIDATION_FAILED', `params.${name}: must be a string or number`, {
        details: [{ field: `params.${name}`, message: 'must be a string or number' }],
      });
    }
    out[name as K] = value;
  }
  return out;
}

function checkId(value: unknown): ParamValue {
  if (value === undefined || typeof value === 'string' || typeof value === 'number') return value;
  throw new AppError('VALIDATION_FAILED', 'last_event_id: must be a non-negative integer', {
    details: [{ field: 'last_event_id', message: 'must be a non-negative integer' }],
  });
}
