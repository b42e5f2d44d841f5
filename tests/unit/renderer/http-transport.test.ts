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
