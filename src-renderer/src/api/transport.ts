import type { ApiError } from './api-error.js';

export const API_PREFIX = '/api/v1';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One answer as the server produced it: status and parsed body, before envelope checks. */
export interface RawResponse {
  status: number;
  body: unknown;
  /** From the Retry-After header (HTTP only; IPC is never throttled). */
  retryAfterSeconds?: number | null;
}

export const STREAM_NAMES = ['events', 'logs'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/** Opening a live stream: the SSE endpoint's query parameters, or the IPC stream request. */
export interface StreamRequest {
  stream: StreamName;
  /** Filters, sent as query parameters over HTTP and as `params` over IPC. */
  params?: Record<string, string>;
  /** Replay what came after this event id (SSE Last-Event-ID). */
  last_event_id?: number;
}

/** One stream message, shaped like an SSE message (id, event, data). */
export interface StreamMessage {
  id?: number;
  event: string;
  data: unknown;
}

export interface StreamHandlers {
  onMessage(message: StreamMessage): void;
  /** The stream failed; for a 4xx it is closed for good, otherwise the transport retries. */
  onError?(error: ApiError): void;
}

/** A one-shot POST stream (the diagnostics' /stream routes): it runs once and is never retried. */
export interface PostStreamHandlers {
  onMessage(message: StreamMessage): void;
  /** The server ended the stream. */
  onEnd(): void;
  /** The server answered without a stream: the route's whole answer (400, 401, 429 as the error envelope). */
  onRefused(response: RawResponse): void;
  /** The connection broke before the end (not called after the caller stopped the stream). */
  onError(error: ApiError): void;
}

/**
 * How requests reach the core. Two implementations: IPC (inside Electron,
 * through the preload bridge) and HTTP (fetch, in a browser). Both hand back
 * the same status and envelope for the same call.
 */
export interface Transport {
  readonly kind: 'ipc' | 'http';
  /** Sends one API request; `path` is the full path (/api/v1/…). Rejects only when no answer came. */
  send(method: HttpMethod, path: string, body?: unknown): Promise<RawResponse>;
  /** Opens a live stream; returns the function that closes it. */
  subscribe(request: StreamRequest, handlers: StreamHandlers): () => void;
  /**
   * POSTs `body` to a stream route (`path` is the full path) and delivers its
   * server-sent events; returns the function that stops it, which the server
   * sees as its client going away.
   */
  postStream(path: string, body: unknown, handlers: PostStreamHandlers): () => void;
}
