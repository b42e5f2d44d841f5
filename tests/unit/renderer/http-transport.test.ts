import { describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../../src-renderer/src/api/api-error.js';
import { createHttpTransport, parseRetryAfter } from '../../../src-renderer/src/api/http-transport.js';
import type { StreamMessage } from '../../../src-renderer/src/api/transport.js';

/** A text/event-stream response that sends `chunks` and ends. */
function streamResponse(chunks: string[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
}

/** A fetch that never answers, but gives up when its request is aborted (the subscription closed). */
function hangUntilAborted(init?: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });
}

const jsonError = (status: number, code: string, error: string) =>
  new Response(JSON.stringify({ success: false, error, code }), { status, headers: { 'content-type': 'application/json' } });

describe('HTTP transport requests', () => {
  it('sends JSON with content-type only when there is a body, and parses JSON answers', async () => {
    const fetchMock = vi.fn(async () => new Response('{"success":true,"data":1}', { status: 200, headers: { 'content-type': 'application/json' } }));
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:1/', fetch: fetchMock });
    await expect(transport.send('POST', '/api/v1/x', { a: 1 })).resolves.toEqual({ status: 200, body: { success: true, data: 1 }, retryAfterSeconds: null });
    await transport.send('POST', '/api/v1/y');
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    const [url, withBody] = calls[0]!;
    const [, withoutBody] = calls[1]!;
    expect(url).toBe('http://127.0.0.1:1/api/v1/x');
    expect(withBody).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(withoutBody.body).toBeUndefined();
    expect(withoutBody.headers).not.toHaveProperty('content-type');
  });

  it('reports invalid JSON as BAD_RESPONSE and keeps non-JSON bodies as text', async () => {
    const broken = createHttpTransport({ fetch: async () => new Response('{', { status: 500, headers: { 'content-type': 'application/json' } }) });
    await expect(broken.send('GET', '/api/v1/x')).rejects.toMatchObject({ status: 500, code: 'BAD_RESPONSE' });
    const html = createHttpTransport({ fetch: async () => new Response('<h1>proxy</h1>', { status: 502, headers: { 'content-type': 'text/html', 'retry-after': '7' } }) });
    await expect(html.send('GET', '/api/v1/x')).resolves.toEqual({ status: 502, body: '<h1>proxy</h1>', retryAfterSeconds: 7 });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates (RFC 9110 §10.2.3)', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('HTTP transport streams', () => {
  it('parses named events, reconnects after the stream ends and resumes with Last-Event-ID', async () => {
    const requests: RequestInit[] = [];
    const responses = [
      streamResponse(['id: 1\nevent: service.started\ndata: {"n":1}\n\n', 'id: 2\nevent: log\ndata: "text"\n\n']),
      streamResponse(['id: 3\nevent: service.stopped\ndata: {"n":3}\n\n']),
    ];
    const fetchMock = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      requests.push(init ?? {});
      return responses.shift() ?? hangUntilAborted(init);
    });
    const transport = createHttpTransport({ fetch: fetchMock, reconnectDelayMs: () => 0 });
    const messages: StreamMessage[] = [];
    const close = transport.subscribe({ stream: 'events', params: { kind: 'service.' }, last_event_id: 0 }, { onMessage: (m) => messages.push(m) });
    await vi.waitFor(() => expect(messages).toHaveLength(3));
    close();
    expect(messages).toEqual([
      { id: 1, event: 'service.started', data: { n: 1 } },
      { id: 2, event: 'log', data: 'text' },
      { id: 3, event: 'service.stopped', data: { n: 3 } },
    ]);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v1/events/stream?kind=service.');
    expect(requests[0]!.headers).toMatchObject({ 'last-event-id': '0', accept: 'text/event-stream' });
    expect(requests[1]!.headers).toMatchObject({ 'last-event-id': '2' });
  });

  it('stops for good on a 4xx and reports it', async () => {
    const fetchMock = vi.fn(async () => jsonError(401, 'UNAUTHENTICATED', 'log in'));
    const errors: ApiError[] = [];
    createHttpTransport({ fetch: fetchMock, reconnectDelayMs: () => 0 }).subscribe({ stream: 'logs' }, { onMessage: () => undefined, onError: (e) => errors.push(e) });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(errors[0]).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'log in' });
  });

  it('retries a 5xx or a network failure, and stops when closed', async () => {
    let calls = 0;
    const fetchMock = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed');
      if (calls === 2) return jsonError(503, 'UNAVAILABLE', 'starting');
      if (calls === 3) return streamResponse(['data: {"ok":true}\n\n']);
      return hangUntilAborted(init);
    });
    const errors: ApiError[] = [];
    const messages: StreamMessage[] = [];
    const close = createHttpTransport({ fetch: fetchMock, reconnectDelayMs: () => 0 }).subscribe(
      { stream: 'events' },
      { onMessage: (m) => messages.push(m), onError: (e) => errors.push(e) },
    );
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(4));
    close();
    expect(messages).toEqual([{ event: 'message', data: { ok: true } }]);
    const callsAtClose = fetchMock.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock.mock.calls.length).toBe(callsAtClose);
    expect(errors.map((e) => e.code)).toEqual(['NETWORK_ERROR', 'UNAVAILABLE']);
  });
});

describe('HTTP transport POST streams', () => {
  /** A text/event-stream response whose chunks the test sends one by one. */
  function controlledStream() {
    let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    return {
      response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
      send: (text: string) => controller?.enqueue(encoder.encode(text)),
      end: () => controller?.close(),
      fail: () => controller?.error(new Error('connection reset')),
    };
  }

  function recorder() {
    const log: string[] = [];
    const messages: StreamMessage[] = [];
    return {
      log,
      messages,
      handlers: {
        onMessage: (message: StreamMessage) => {
          messages.push(message);
          log.push(`message:${message.event}`);
        },
        onEnd: () => log.push('end'),
        onRefused: (raw: { status: number; body: unknown; retryAfterSeconds?: number | null }) => log.push(`refused:${raw.status}:${JSON.stringify(raw.body)}:${raw.retryAfterSeconds ?? ''}`),
        onError: (error: ApiError) => log.push(`error:${error.code}`),
      },
    };
  }

  it('POSTs the JSON body asking for an event stream, and delivers each event as its chunk arrives', async () => {
    const stream = controlledStream();
    const fetchMock = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => stream.response);
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:1', fetch: fetchMock });
    const r = recorder();
    transport.postStream('/api/v1/network/ping/stream', { target: '127.0.0.1', count: 2 }, r.handlers);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:1/api/v1/network/ping/stream');
    // Same-origin credentials carry the session cookie; the browser adds Origin, which the server's CSRF check reads.
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      body: '{"target":"127.0.0.1","count":2}',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
    });
    stream.send('retry: 3000\n\nevent: row\ndata: {"seq":1,');
    stream.send('"time_ms":0.5}\n\n');
    await vi.waitFor(() => expect(r.log).toEqual(['message:row']));
    expect(r.messages[0]).toEqual({ event: 'row', data: { seq: 1, time_ms: 0.5 } });
    stream.send(': heartbeat\n\nevent: done\ndata: {"received":1}\n\n');
    stream.end();
    await vi.waitFor(() => expect(r.log).toEqual(['message:row', 'message:done', 'end']));
  });

  it('hands a refusal (JSON error envelope) on whole with its Retry-After, and never retries', async () => {
    const fetchMock = vi.fn(async () =>
      new Response(JSON.stringify({ success: false, error: 'busy', code: 'RATE_LIMITED' }), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '5' } }),
    );
    const r = recorder();
    createHttpTransport({ fetch: fetchMock }).postStream('/api/v1/network/ping/stream', {}, r.handlers);
    await vi.waitFor(() => expect(r.log).toEqual(['refused:429:{"success":false,"error":"busy","code":"RATE_LIMITED"}:5']));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('stopping aborts the request and reports nothing after', async () => {
    const stream = controlledStream();
    let signal: AbortSignal | undefined;
    const r = recorder();
    const stop = createHttpTransport({
      fetch: async (_url, init) => {
        signal = init?.signal ?? undefined;
        return stream.response;
      },
    }).postStream('/api/v1/network/ping/stream', {}, r.handlers);
    stream.send('event: row\ndata: 1\n\n');
    await vi.waitFor(() => expect(r.log).toEqual(['message:row']));
    stop();
    expect((signal as AbortSignal | undefined)?.aborted).toBe(true);
    stream.send('event: row\ndata: 2\n\n');
    stream.end();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(r.log).toEqual(['message:row']);
  });

  it('reports a connection that breaks mid-stream, or cannot be made, as NETWORK_ERROR', async () => {
    const stream = controlledStream();
    const broken = recorder();
    createHttpTransport({ fetch: async () => stream.response }).postStream('/api/v1/x/stream', {}, broken.handlers);
    stream.send('event: row\ndata: 1\n\n');
    await vi.waitFor(() => expect(broken.log).toEqual(['message:row']));
    stream.fail();
    await vi.waitFor(() => expect(broken.log).toEqual(['message:row', 'error:NETWORK_ERROR']));
    const unreachable = recorder();
    createHttpTransport({ fetch: async () => Promise.reject(new TypeError('fetch failed')) }).postStream('/api/v1/x/stream', {}, unreachable.handlers);
    await vi.waitFor(() => expect(unreachable.log).toEqual(['error:NETWORK_ERROR']));
  });
});
