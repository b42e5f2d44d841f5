import type { XhrLike } from '../../../src-renderer/src/api/upload-sender.js';

/**
 * A stand-in for XMLHttpRequest that the test drives: it records each
 * request, and the test reports progress, answers, breaks or sees it aborted.
 */
export class FakeXhr implements XhrLike {
  static all: FakeXhr[] = [];
  readyState = 0;
  status = 0;
  responseText = '';
  upload: XhrLike['upload'] = { onprogress: null };
  onreadystatechange: (() => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: Blob | null = null;
  aborted = false;
  private responseHeaders: Record<string, string> = {};

  constructor() {
    FakeXhr.all.push(this);
  }

  static reset(): void {
    FakeXhr.all = [];
  }

  /** The latest request. */
  static last(): FakeXhr {
    const xhr = FakeXhr.all.at(-1);
    if (!xhr) throw new Error('no XHR was opened');
    return xhr;
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }

  send(body: Blob): void {
    this.body = body;
  }

  abort(): void {
    this.aborted = true;
    this.onabort?.();
  }

  /** The query of the request URL. */
  query(): Record<string, string> {
    return Object.fromEntries(new URL(this.url, 'http://x').searchParams);
  }

  progress(loaded: number): void {
    this.upload.onprogress?.({ loaded });
  }

  respond(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.responseHeaders = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
    this.readyState = 2;
    this.onreadystatechange?.();
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.readyState = 4;
    this.onload?.();
  }

  breakConnection(): void {
    this.onerror?.();
  }
}
