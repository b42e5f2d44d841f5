/**
 * One message of a live stream, shaped like a server-sent event: `id` (for
 * replay), `event` (the name a client dispatches on), `data`. The SSE routes
 * frame it as text; the IPC stream hub hands the object over as is, so both
 * transports carry the same messages.
 */
export interface StreamMessage {
  id?: number;
  event: string;
  data: unknown;
}

/** Delivers messages to one subscriber. */
export type StreamSend = (message: StreamMessage) => void;

/** Closes a subscription; safe to call more than once. */
export type StreamClose = () => void;
