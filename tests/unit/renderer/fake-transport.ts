import type { HttpMethod, PostStreamHandlers, RawResponse, StreamHandlers, StreamRequest, Transport } from '../../../src-renderer/src/api/transport.js';

/** Answers one request; `query` holds the path's query parameters. */
export type Route = (body: unknown, query: Record<string, string>) => RawResponse | Promise<RawResponse>;

export const ok = (data: unknown): RawResponse => ({ status: 200, body: { success: true, data } });
export const fail = (status: number, code: string, error: string, retryAfterSeconds: number | null = null): RawResponse => ({
  status,
  body: { success: false, error, code },
  retryAfterSeconds,
});

/**
 * A transport answering from a table of "METHOD /api/v1/path" routes (with or
 * without the query); it records every request and every open stream (GET
 * subscriptions and POST streams) so tests can push messages.
 */
export function fakeTransport(routes: Record<string, Route>, kind: Transport['kind'] = 'http') {
  const calls: { method: HttpMethod; path: string; body: unknown }[] = [];
  const streams: { request: StreamRequest; handlers: StreamHandlers; closed: boolean }[] = [];
  const postStreams: { path: string; body: unknown; handlers: PostStreamHandlers; closed: boolean }[] = [];
  const transport: Transport = {
    kind,
    async send(method, path, body) {
      calls.push({ method, path, body });
      // An exact "METHOD /path?query" route wins; else the route of the path without its query.
      const [bare, search = ''] = path.split('?');
      const route = routes[`${method} ${path}`] ?? routes[`${method} ${bare}`];
      if (!route) return fail(404, 'ROUTE_NOT_FOUND', `no route ${method} ${path}`);
      return route(body, Object.fromEntries(new URLSearchParams(search)));
    },
    subscribe(request, handlers) {
      const entry = { request, handlers, closed: false };
      streams.push(entry);
      return () => {
        entry.closed = true;
      };
    },
    postStream(path, body, handlers) {
      const entry = { path, body, handlers, closed: false };
      postStreams.push(entry);
      return () => {
        entry.closed = true;
      };
    },
  };
  return { transport, calls, streams, postStreams, routes };
}
