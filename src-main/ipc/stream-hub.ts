import { AppError } from '../core/errors.js';
import type { AppContext } from '../core/app-context.js';

export const STREAM_NAMES = ['events', 'logs'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/** What the renderer sends to open a live stream over IPC (the SSE endpoints' twin). */
export interface StreamSubscribeRequest {
  stream: StreamName;
  /** The same filters the SSE endpoint takes as query parameters. */
  params?: Record<string, string>;
  /** Replay what came after this event id (like SSE Last-Event-ID). */
  last_event_id?: number;
}

/** One message, shaped like an SSE message: `id`, `event` (kind), `data`. */
export interface StreamMessage {
  id?: number;
  event: string;
  data: unknown;
}

export interface StreamHub {
  /** Opens a stream; returns the function that closes it. Throws AppError on a bad request. */
  subscribe(request: unknown, send: (message: StreamMessage) => void): () => void;
}

/**
 * Live streams for the desktop renderer. The SSE routes and this hub share
 * the stream sources so both transports deliver the same messages.
 */
export function createStreamHub(ctx: AppContext): StreamHub {
  return {
    subscribe(request, send) {
      if (typeof request !== 'object' || request === null) throw new AppError('BAD_REQUEST', 'stream request must be an object {stream, params?}');
      const { stream } = request as Partial<StreamSubscribeRequest>;
      if (stream === 'events') {
        return ctx.events.subscribe((event) => send({ id: event.id, event: event.kind, data: event }));
      }
      if (stream === 'logs') {
        return ctx.logs.subscribe((record) => send({ event: 'log', data: record }));
      }
      throw new AppError('BAD_REQUEST', `unknown stream "${String(stream)}"; streams are ${STREAM_NAMES.join(', ')}`);
    },
  };
}
