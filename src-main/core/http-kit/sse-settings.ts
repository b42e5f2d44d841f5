/** Timing and buffering of the server-sent event streams (api/sse.ts); tests shorten them. */
export interface SseSettings {
  /** A comment line this often keeps proxies and NATs from dropping an idle stream. */
  heartbeatMs: number;
  /** The reconnection delay the client is told (`retry:`). */
  retryMs: number;
  /**
   * A client that lets this much output pile up is not reading: it is
   * disconnected and catches up by reconnecting with Last-Event-ID.
   */
  maxBufferedBytes: number;
}

export const DEFAULT_SSE_SETTINGS: SseSettings = {
  heartbeatMs: 15_000,
  retryMs: 3_000,
  maxBufferedBytes: 16 * 1024 * 1024,
};
