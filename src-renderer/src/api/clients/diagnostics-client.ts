import type { PingReply, PingRequest, PingResult, TraceHop, TracerouteRequest, TracerouteResult } from '@contracts/diagnostics';
import { ApiError } from '../api-error.js';
import type { ApiClient } from '../api-client.js';
import type { StreamMessage } from '../transport.js';

/** What a live run reports: each row as it is parsed, then the result or one error. */
export interface RunCallbacks<Row, Result> {
  onRow(row: Row): void;
  onDone(result: Result): void;
  onError(error: ApiError): void;
}

/**
 * The diagnostics area's API (src-main/diagnostics/diagnostics-routes.ts).
 * The page uses the /stream routes (rows as they come, over either
 * transport); the plain routes stay for scripts and tests.
 */
export function diagnosticsClient(client: ApiClient) {
  return {
    ping: (body: PingRequest): Promise<PingResult> => client.post('/network/ping', body),
    traceroute: (body: TracerouteRequest): Promise<TracerouteResult> => client.post('/network/traceroute', body),
    /** Streams a ping; returns the function that stops it (the server then kills the tool). */
    pingLive: (body: PingRequest, callbacks: RunCallbacks<PingReply, PingResult>): (() => void) => runStream(client, '/network/ping/stream', body, callbacks),
    traceLive: (body: TracerouteRequest, callbacks: RunCallbacks<TraceHop, TracerouteResult>): (() => void) =>
      runStream(client, '/network/traceroute/stream', body, callbacks),
  };
}

/** The stream's messages (`row`, then `done` or `error`) as callbacks; exactly one of onDone/onError is called. */
function runStream<Row, Result>(client: ApiClient, path: string, body: unknown, callbacks: RunCallbacks<Row, Result>): () => void {
  let finished = false;
  const finish = (report: () => void) => {
    if (finished) return;
    finished = true;
    report();
  };
  const onMessage = (message: StreamMessage) => {
    if (finished) return;
    // The data is the contract's PingReply/TraceHop and result, checked by the route's serializer on the server.
    if (message.event === 'row') callbacks.onRow(message.data as Row);
    else if (message.event === 'done') finish(() => callbacks.onDone(message.data as Result));
    else if (message.event === 'error') finish(() => callbacks.onError(streamError(message.data)));
  };
  const stop = client.postStream(path, body, {
    onMessage,
    onEnd: () => finish(() => callbacks.onError(new ApiError({ status: 200, code: 'BAD_RESPONSE', message: 'the run ended without a result' }))),
    onError: (error) => finish(() => callbacks.onError(error)),
  });
  return () => {
    finished = true;
    stop();
  };
}

function streamError(data: unknown): ApiError {
  const { code, message } = (typeof data === 'object' && data !== null ? data : {}) as { code?: unknown; message?: unknown };
  return new ApiError({
    status: 200,
    code: typeof code === 'string' ? code : 'BAD_RESPONSE',
    message: typeof message === 'string' ? message : 'the run failed',
  });
}
