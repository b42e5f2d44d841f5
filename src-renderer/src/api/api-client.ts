import { ApiError, type FieldError } from './api-error.js';
import { API_PREFIX, type HttpMethod, type RawResponse, type StreamHandlers, type StreamMessage, type StreamRequest, type Transport } from './transport.js';

export interface ListMeta {
  total: number;
  page: number;
  size: number;
}

export interface ListResult<T> {
  data: T[];
  meta: ListMeta;
}

/** A one-shot POST stream as the client hands it on: messages, then the end or one error. */
export interface PostStreamCallbacks {
  onMessage(message: StreamMessage): void;
  onEnd(): void;
  /** A refusal (the error envelope) or a broken connection. */
  onError(error: ApiError): void;
}

export interface ApiClientOptions {
  /** Called when a request answers 401 (the session ended); not for the login call itself. */
  onUnauthenticated?: () => void;
}

/**
 * The one API client of the UI. It speaks the REST envelope over whichever
 * transport it was given: success bodies become their `data`, everything else
 * an ApiError. Paths are relative to /api/v1.
 */
export class ApiClient {
  private readonly transport: Transport;
  private readonly onUnauthenticated: (() => void) | undefined;

  constructor(transport: Transport, options: ApiClientOptions = {}) {
    this.transport = transport;
    this.onUnauthenticated = options.onUnauthenticated;
  }

  /** 'ipc' inside the desktop app (already the local admin), 'http' in a browser. */
  get kind(): Transport['kind'] {
    return this.transport.kind;
  }

  get<T>(path: string): Promise<T> {
    return this.data<T>('GET', path);
  }

  async list<T>(path: string): Promise<ListResult<T>> {
    const body = await this.envelope('GET', path);
    if (!Array.isArray(body.data) || !isMeta(body.meta)) {
      throw new ApiError({ status: 200, code: 'BAD_RESPONSE', message: `GET ${path} did not answer a list with meta` });
    }
    return { data: body.data as T[], meta: body.meta };
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.data<T>('POST', path, body);
  }

  /** A POST whose success is a file's text rather than the envelope (the kit export); failures are the usual ApiError. */
  async postText(path: string, body?: unknown): Promise<string> {
    const raw = await this.transport.send('POST', `${API_PREFIX}${path}`, body);
    if (raw.status >= 200 && raw.status < 300 && typeof raw.body === 'string') return raw.body;
    const error = toApiError(raw, 'POST', path);
    if (error.status === 401) this.onUnauthenticated?.();
    throw error;
  }

  put<T>(path: string, body: unknown): Promise<T> {
    return this.data<T>('PUT', path, body);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.data<T>('PATCH', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.data<T>('DELETE', path);
  }

  subscribe(request: StreamRequest, handlers: StreamHandlers): () => void {
    return this.transport.subscribe(request, handlers);
  }

  /** POSTs to a stream route (path relative to /api/v1); returns the function that stops it. */
  postStream(path: string, body: unknown, callbacks: PostStreamCallbacks): () => void {
    return this.transport.postStream(`${API_PREFIX}${path}`, body, {
      onMessage: (message) => callbacks.onMessage(message),
      onEnd: () => callbacks.onEnd(),
      onRefused: (raw) => {
        const error = toApiError(raw, 'POST', path);
        if (error.status === 401) this.onUnauthenticated?.();
        callbacks.onError(error);
      },
      onError: (error) => callbacks.onError(error),
    });
  }

  private async data<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
    return (await this.envelope(method, path, body)).data as T;
  }

  private async envelope(method: HttpMethod, path: string, body?: unknown): Promise<{ data: unknown; meta?: unknown }> {
    const raw = await this.transport.send(method, `${API_PREFIX}${path}`, body);
    if (raw.status >= 200 && raw.status < 300 && isSuccess(raw.body)) return raw.body;
    const error = toApiError(raw, method, path);
    if (error.status === 401 && path !== '/auth/login') this.onUnauthenticated?.();
    throw error;
  }
}

function isSuccess(body: unknown): body is { success: true; data: unknown; meta?: unknown } {
  return typeof body === 'object' && body !== null && (body as { success?: unknown }).success === true && 'data' in body;
}

function isMeta(meta: unknown): meta is ListMeta {
  if (typeof meta !== 'object' || meta === null) return false;
  const { total, page, size } = meta as Record<string, unknown>;
  return typeof total === 'number' && typeof page === 'number' && typeof size === 'number';
}

function isFieldErrors(value: unknown): value is FieldError[] {
  return (
    Array.isArray(value) &&
    value.every((item) => typeof item === 'object' && item !== null && typeof (item as FieldError).field === 'string' && typeof (item as FieldError).message === 'string')
  );
}

/** The error envelope {success:false, error, code, details?} as an ApiError; anything else is BAD_RESPONSE. */
export function toApiError(raw: RawResponse, method: string, path: string): ApiError {
  const body = raw.body as { success?: unknown; error?: unknown; code?: unknown; details?: unknown } | null;
  if (typeof body === 'object' && body !== null && body.success === false && typeof body.error === 'string') {
    return new ApiError({
      status: raw.status,
      code: typeof body.code === 'string' ? body.code : 'BAD_RESPONSE',
      message: body.error,
      details: isFieldErrors(body.details) ? body.details : [],
      rawDetails: Array.isArray(body.details) ? (body.details as unknown[]) : [],
      retryAfterSeconds: raw.retryAfterSeconds ?? null,
    });
  }
  return new ApiError({
    status: raw.status,
    code: 'BAD_RESPONSE',
    message: `${method} ${API_PREFIX}${path} answered HTTP ${raw.status} without the API's JSON envelope`,
    retryAfterSeconds: raw.retryAfterSeconds ?? null,
  });
}
