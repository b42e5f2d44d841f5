import { ApiError, describeError } from './api-error.js';
import { SseParser, toStreamMessage, type SseEvent } from './sse-parser.js';
import { API_PREFIX, type HttpMethod, type PostStreamHandlers, type RawResponse, type StreamHandlers, type StreamRequest, type Transport } from './transport.js';

export interface HttpTransportOptions {
  /** Origin of the server; '' means the page's own origin (the browser case). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Delay before reconnect attempt n (1-based); defaults to 1 s doubling up to 30 s. */
  reconnectDelayMs?: (attempt: number) => number;
}

const STREAM_PATHS: Record<StreamRequest['stream'], string> = {
  events: `${API_PREFIX}/events/stream`,
  logs: `${API_PREFIX}/logs/stream`,
};

function defaultDelay(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5));
}

/**
 * The browser transport: fetch for requests (the session cookie rides along,
 * same origin), a fetch-based event-stream reader for /events/stream and
 * /logs/stream. EventSource is not used: it only delivers named events whose
 * names the page registered in advance (event kinds are open-ended), and it
 * hides the HTTP status of a refused stream (401 vs 404); it cannot POST
 * either, which the diagnostics' streams need (`postStream`).
 *
 * Cookie-authenticated changes must be same-origin (the server checks
 * Origin / Sec-Fetch-Site, src-main/auth/csrf.ts); the browser sets both on
 * these fetches itself, so no token header is needed.
 */
export function createHttpTransport(options: HttpTransportOptions = {}): Transport {
  const baseUrl = (options.baseUrl ?? '').replace(/\/$/, '');
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const delayFor = options.reconnectDelayMs ?? defaultDelay;

  async function send(method: HttpMethod, path: string, body?: unknown): Promise<RawResponse> {
    const hasBody = body !== undefined;
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}${path}`, {
        method,
        credentials: 'same-origin',
        headers: { accept: 'application/json', ...(hasBody ? { 'content-type': 'application/json' } : {}) },
        ...(hasBody ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `cannot reach the server: ${describeError(err)}` });
    }
    return readRaw(response);
  }

  function subscribe(request: StreamRequest, handlers: StreamHandlers): () => void {
    const controller = new AbortController();
    const query = new URLSearchParams(request.params ?? {}).toString();
    const url = `${baseUrl}${STREAM_PATHS[request.stream]}${query ? `?${query}` : ''}`;
    let lastEventId = request.last_event_id === undefined ? null : String(request.last_event_id);
    let attempt = 0;

    const deliver = (event: SseEvent) => handlers.onMessage(toStreamMessage(event));

    const run = async () => {
      while (!controller.signal.aborted) {
        const outcome = await readOnce();
        if (outcome === 'closed-for-good' || controller.signal.aborted) return;
        attempt += 1;
        await sleep(delayFor(attempt), controller.signal);
      }
    };

    const readOnce = async (): Promise<'closed-for-good' | 'retry'> => {
      let response: Response;
      try {
        response = await fetchImpl(url, {
          credentials: 'same-origin',
          headers: { accept: 'text/event-stream', ...(lastEventId !== null ? { 'last-event-id': lastEventId } : {}) },
          signal: controller.signal,
        });
      } catch (err) {
        if (!controller.signal.aborted) handlers.onError?.(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `stream ${request.stream}: ${describeError(err)}` }));
        return 'retry';
      }
      if (!response.ok || !response.body) {
        const error = await errorFromResponse(response);
        handlers.onError?.(error);
        // A refused stream (bad filter, logged out, no such endpoint) will not get better by retrying.
        return response.status >= 400 && response.status < 500 && response.status !== 429 ? 'closed-for-good' : 'retry';
      }
      const parser = new SseParser(deliver);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          attempt = 0;
          parser.push(value);
          if (parser.lastEventId !== null) lastEventId = parser.lastEventId;
        }
      } catch (err) {
        if (!controller.signal.aborted) handlers.onError?.(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `stream ${request.stream} broke: ${describeError(err)}` }));
      }
      return 'retry';
    };

    void run();
    return () => controller.abort();
  }

  function postStream(path: string, body: unknown, handlers: PostStreamHandlers): () => void {
    const controller = new AbortController();
    const stopped = () => controller.signal.aborted;
    const run = async () => {
      let response: Response;
      try {
        response = await fetchImpl(`${baseUrl}${path}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: controller.signal,
        });
      } catch (err) {
        if (!stopped()) handlers.onError(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `cannot reach the server: ${describeError(err)}` }));
        return;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || !response.body || !type.startsWith('text/event-stream')) {
        const raw = await readRaw(response).catch((err: unknown) => err);
        if (stopped()) return;
        if (raw instanceof ApiError) handlers.onError(raw);
        else handlers.onRefused(raw as RawResponse);
        return;
      }
      const parser = new SseParser((event) => {
        if (!stopped()) handlers.onMessage(toStreamMessage(event));
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.push(value);
        }
      } catch (err) {
        if (!stopped()) handlers.onError(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `the stream broke: ${describeError(err)}` }));
        return;
      }
      if (!stopped()) handlers.onEnd();
    };
    void run();
    return () => controller.abort();
  }

  return { kind: 'http', send, subscribe, postStream };
}

/** A whole answer: status, body (JSON parsed when it says so) and Retry-After. */
async function readRaw(response: Response): Promise<RawResponse> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let parsed: unknown = text;
  if (type.includes('json') && text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError({ status: response.status, code: 'BAD_RESPONSE', message: `the server sent invalid JSON (HTTP ${response.status})` });
    }
  }
  return { status: response.status, body: parsed, retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')) };
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown };
    if (typeof body.error === 'string' && typeof body.code === 'string') {
      return new ApiError({ status: response.status, code: body.code, message: body.error });
    }
  } catch {
    // Not the error envelope; fall through.
  }
  return new ApiError({ status: response.status, code: 'BAD_RESPONSE', message: `the stream was refused (HTTP ${response.status})` });
}

/** Retry-After is delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
