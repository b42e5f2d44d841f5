import { errorBody } from '../api/error-handler.js';
import { IPC_HEADER, type ApiApp } from '../api/http-app.js';
import { IPC_STREAM_HEADER } from '../api/sse.js';
import { API_PREFIX } from '../core/http-kit/route-table.js';

export const IPC_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type IpcMethod = (typeof IPC_METHODS)[number];

/** What the renderer sends over `bootwright:invoke`. */
export interface IpcRequest {
  method: IpcMethod;
  /** Full API path with query string, e.g. /api/v1/hosts?page=2. */
  path: string;
  body?: unknown;
}

/** What it gets back: the HTTP status and the parsed envelope, exactly as over HTTP. */
export interface IpcResponse {
  status: number;
  body: unknown;
}

/** What the stream's reader is told: the response text as it is written, then its end. */
export interface IpcStreamHandlers {
  /** A piece of the `text/event-stream` body, in write order (not aligned to events). */
  onText(text: string): void;
  /** The response ended (the route closed it, or `close` was called); called once. */
  onEnd(): void;
}

/** A started stream (`close` ends it and makes the route see its client go away), or the route's whole non-stream answer. */
export type IpcStreamOpen = { ok: true; close(): void } | { ok: false; response: IpcResponse };

/**
 * Routes renderer calls through the very same route table as HTTP (fastify
 * inject), so validation, envelopes and errors are identical. Requests carry
 * the per-process secret, which makes them run as the local desktop user.
 */
export class IpcBridge {
  private readonly app: ApiApp;
  private readonly secret: string;

  constructor(app: ApiApp, secret: string) {
    this.app = app;
    this.secret = secret;
  }

  async invoke(request: unknown): Promise<IpcResponse> {
    const checked = checkRequest(request);
    if (typeof checked === 'string') return { status: 400, body: errorBody('BAD_REQUEST', checked) };
    const hasBody = checked.body !== undefined;
    const response = await this.app.inject({
      method: checked.method,
      url: checked.path,
      headers: {
        [IPC_HEADER]: this.secret,
        accept: 'application/json',
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      ...(hasBody ? { payload: JSON.stringify(checked.body) } : {}),
    });
    return { status: response.statusCode, body: parseBody(response.headers['content-type'], response.body) };
  }

  /**
   * A one-shot POST stream (the diagnostics' /stream routes) through the same
   * route: fastify inject with the payload as a stream, so the route's own
   * validation, access check and refusals (400, 429 as JSON) apply. A 200
   * `text/event-stream` answer is handed on as text while the route writes it;
   * anything else comes back whole, as `invoke` would answer it.
   */
  async stream(request: unknown, handlers: IpcStreamHandlers): Promise<IpcStreamOpen> {
    const checked = checkRequest(request);
    if (typeof checked === 'string' || checked.method !== 'POST') {
      const message = typeof checked === 'string' ? checked : 'IPC request streams are POST only (GET streams go through the stream hub)';
      return { ok: false, response: { status: 400, body: errorBody('BAD_REQUEST', message) } };
    }
    const response = await this.app.inject({
      method: 'POST',
      url: checked.path,
      headers: { [IPC_HEADER]: this.secret, [IPC_STREAM_HEADER]: '1', accept: 'text/event-stream', 'content-type': 'application/json' },
      payload: JSON.stringify(checked.body ?? {}),
      payloadAsStream: true,
    });
    const body = response.stream();
    body.setEncoding('utf8');
    const type = String(response.headers['content-type'] ?? '');
    if (response.statusCode !== 200 || !type.startsWith('text/event-stream')) {
      let text = '';
      for await (const chunk of body) text += String(chunk);
      return { ok: false, response: { status: response.statusCode, body: parseBody(type, text) } };
    }
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      handlers.onEnd();
    };
    body.on('data', (chunk: string) => {
      if (!ended) handlers.onText(chunk);
    });
    body.on('end', end);
    body.on('close', end);
    // A destroyed body stream reports an error; the end is what the reader needs to know.
    body.on('error', end);
    return {
      ok: true,
      close: () => {
        end();
        // The response's 'close' before it finished is the route's "client went away": it stops its work.
        response.raw.res.destroy();
      },
    };
  }
}

function parseBody(contentType: unknown, text: string): unknown {
  return String(contentType ?? '').includes('json') && text !== '' ? JSON.parse(text) : text;
}

function checkRequest(request: unknown): IpcRequest | string {
  if (typeof request !== 'object' || request === null) return 'IPC request must be an object {method, path, body?}';
  const { method, path, body } = request as Record<string, unknown>;
  if (typeof method !== 'string' || !(IPC_METHODS as readonly string[]).includes(method)) {
    return `IPC request method must be one of ${IPC_METHODS.join(', ')}`;
  }
  if (typeof path !== 'string' || !path.startsWith(`${API_PREFIX}/`) || path.length > 4096) {
    return `IPC request path must start with ${API_PREFIX}/`;
  }
  return body === undefined ? { method: method as IpcMethod, path } : { method: method as IpcMethod, path, body };
}
