import { ApiError } from './api-error.js';

/** One answer to an upload request: the status, the parsed body (the API envelope) and its headers. */
export interface UploadResponse {
  status: number;
  body: unknown;
  header(name: string): string | null;
}

export interface UploadRequest {
  /** Full path with query (/api/v1/…?…). */
  url: string;
  /** The bytes to send as the raw body (application/octet-stream). */
  body: Blob;
  /** Bytes of `body` sent so far (the browser's upload progress). */
  onProgress?(sent: number): void;
  /** The response headers, as soon as they arrive (before the body). */
  onHeaders?(header: (name: string) => string | null): void;
}

/** Thrown when the caller aborted the request (Cancel, or leaving the page). */
export class UploadAborted extends Error {
  constructor() {
    super('the upload was cancelled');
    this.name = 'UploadAborted';
  }
}

/**
 * Sends a file body. Resolves with whatever the server answered (any status);
 * rejects with an ApiError NETWORK_ERROR when the connection broke, or
 * UploadAborted when `signal` fired.
 */
export type UploadSender = (request: UploadRequest, signal: AbortSignal) => Promise<UploadResponse>;

/** The part of XMLHttpRequest the sender uses (tests hand in a fake). */
export interface XhrLike {
  readyState: number;
  status: number;
  responseText: string;
  upload: { onprogress: ((event: { loaded: number }) => void) | null };
  onreadystatechange: (() => void) | null;
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getResponseHeader(name: string): string | null;
  send(body: Blob): void;
  abort(): void;
}

const HEADERS_RECEIVED = 2;

/** The page's XMLHttpRequest, read from the global at call time (tests stub it; the node-side type check has no DOM). */
function browserXhr(): XhrLike {
  const { XMLHttpRequest: Xhr } = globalThis as unknown as { XMLHttpRequest: new () => XhrLike };
  return new Xhr();
}

/**
 * The browser's sender: XMLHttpRequest, because fetch reports no upload
 * progress. Same origin, so the session cookie, Origin and Sec-Fetch-Site go
 * along (the server's CSRF check reads them, src-main/auth/csrf.ts).
 */
export function xhrSender(createXhr: () => XhrLike = browserXhr): UploadSender {
  return (request, signal) =>
    new Promise<UploadResponse>((resolve, reject) => {
      if (signal.aborted) {
        reject(new UploadAborted());
        return;
      }
      const xhr = createXhr();
      const header = (name: string) => xhr.getResponseHeader(name);
      const onAbort = () => xhr.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal.removeEventListener('abort', onAbort);
      xhr.open('POST', request.url);
      xhr.setRequestHeader('content-type', 'application/octet-stream');
      xhr.setRequestHeader('accept', 'application/json');
      xhr.upload.onprogress = (event) => request.onProgress?.(event.loaded);
      xhr.onreadystatechange = () => {
        if (xhr.readyState === HEADERS_RECEIVED) request.onHeaders?.(header);
      };
      xhr.onload = () => {
        settle();
        resolve({ status: xhr.status, body: parseBody(xhr.responseText), header });
      };
      xhr.onerror = () => {
        settle();
        reject(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'the connection to the server broke during the upload' }));
      };
      xhr.onabort = () => {
        settle();
        reject(new UploadAborted());
      };
      xhr.send(request.body);
    });
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
