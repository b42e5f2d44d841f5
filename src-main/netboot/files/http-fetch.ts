import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';

/*
 * One HTTP(S) GET of a mirror file, as the download cache needs it: redirects
 * followed only to http(s) and at most MAX_REDIRECTS times, an optional HTTP
 * proxy (absolute-URI requests for http, a CONNECT tunnel for https), and a
 * stall timeout that covers connecting, waiting for headers and every gap
 * between body chunks. The caller reads the body.
 */

/** Redirects followed before a download fails (curl's default is 50; a mirror needs one or two). */
export const MAX_REDIRECTS = 5;

export interface FetchOptions {
  /** Extra request headers (Range, If-Range). */
  headers?: Record<string, string>;
  /** No byte (or no connection, no headers) for this long fails the request. */
  stallTimeoutMs: number;
  /** An http:// proxy URL, or null for direct connections. */
  proxy: string | null;
  /** Aborts the request (and the body) when signalled. */
  signal?: AbortSignal;
}

export interface FetchedResponse {
  /** The URL that finally answered (after redirects). */
  url: string;
  response: IncomingMessage;
}

/** A failure of the transfer itself (connection, stall, truncated body), worth resuming; HTTP status errors are not. */
export class TransferError extends Error {
  override name = 'TransferError';
}

/** A refusal that no retry changes (bad redirect, HTTP error status, oversize). */
export class FetchRefused extends Error {
  override name = 'FetchRefused';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Whether `url` is an http(s) URL we may fetch. */
export function isHttpUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * GETs `url`, following redirects. Resolves with the final response whose
 * status is not a redirect (the caller checks it); the response's socket has
 * the stall timeout set, so a body that stops flowing errors with TransferError.
 */
export async function fetchUrl(url: string, options: FetchOptions): Promise<FetchedResponse> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!isHttpUrl(current)) throw new FetchRefused(`refusing to fetch ${current}: only http and https URLs are followed`);
    const response = await requestOnce(current, options);
    const status = response.statusCode ?? 0;
    if (!REDIRECTS.has(status)) return { url: current, response };
    const location = response.headers.location;
    response.resume();
    if (!location) throw new FetchRefused(`${current} answered ${status} without a Location header`);
    let next: string;
    try {
      next = new URL(location, current).toString();
    } catch {
      throw new FetchRefused(`${current} redirected to an invalid URL: ${location}`);
    }
    if (!isHttpUrl(next)) throw new FetchRefused(`${current} redirected to ${next}: only http and https redirects are followed`);
    current = next;
  }
  throw new FetchRefused(`${url}: more than ${MAX_REDIRECTS} redirects`);
}

function requestOnce(url: string, options: FetchOptions): Promise<IncomingMessage> {
  const target = new URL(url);
  const headers = { 'user-agent': 'Bootwright netboot cache', accept: '*/*', ...options.headers };
  return new Promise<IncomingMessage>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    const onRequest = (request: http.ClientRequest) => {
      request.setTimeout(options.stallTimeoutMs, () => {
        request.destroy(new TransferError(`${url}: nothing received for ${Math.round(options.stallTimeoutMs / 1000)} s`));
      });
      request.on('error', (err) => fail(err instanceof TransferError || err instanceof FetchRefused ? err : new TransferError(`${url}: ${err.message}`)));
      request.on('response', (response) => {
        if (settled) {
          response.destroy();
          return;
        }
        settled = true;
        // The request's timeout stays armed on the socket while the body flows: a stalled body errors the response.
        response.on('error', () => undefined);
        request.on('error', (err) => response.destroy(err instanceof TransferError ? err : new TransferError(`${url}: ${err.message}`)));
        resolve(response);
      });
      if (options.signal) {
        const signal = options.signal;
        if (signal.aborted) request.destroy(new TransferError(`${url}: cancelled`));
        else signal.addEventListener('abort', () => request.destroy(new TransferError(`${url}: cancelled`)), { once: true });
      }
      request.end();
    };
    if (!options.proxy) {
      const lib = target.protocol === 'https:' ? https : http;
      onRequest(lib.request(target, { method: 'GET', headers }));
      return;
    }
    const proxy = new URL(options.proxy);
    if (target.protocol === 'http:') {
      // RFC 9112 §3.2.2: to a proxy, the request target is the absolute URI.
      onRequest(
        http.request({
          host: proxy.hostname,
          port: proxy.port || 80,
          method: 'GET',
          path: target.toString(),
          headers: { ...headers, host: target.host, ...proxyAuthorization(proxy) },
        }),
      );
      return;
    }
    tunnel(proxy, target, options).then(
      (socket) => onRequest(https.request(target, { method: 'GET', headers, createConnection: () => socket })),
      (err: unknown) => fail(err instanceof Error ? err : new TransferError(String(err))),
    );
  });
}

/** Basic credentials given in the proxy URL (http://user:pass@proxy:3128). */
function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** A TLS socket to `target` through the proxy's CONNECT tunnel (RFC 9110 §9.3.6). */
function tunnel(proxy: URL, target: URL, options: FetchOptions): Promise<Duplex> {
  const authority = `${target.hostname}:${target.port || 443}`;
  return new Promise<Duplex>((resolve, reject) => {
    const request = http.request({
      host: proxy.hostname,
      port: proxy.port || 80,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyAuthorization(proxy) },
    });
    request.setTimeout(options.stallTimeoutMs, () => request.destroy(new TransferError(`proxy ${proxy.host}: no answer to CONNECT ${authority}`)));
    request.on('error', (err) => reject(err instanceof TransferError ? err : new TransferError(`proxy ${proxy.host}: ${err.message}`)));
    request.on('connect', (response, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        reject(new FetchRefused(`proxy ${proxy.host} refused CONNECT ${authority}: ${response.statusCode ?? 0} ${response.statusMessage ?? ''}`.trim()));
        return;
      }
      const secure = tls.connect({ socket, servername: target.hostname });
      secure.once('secureConnect', () => resolve(secure));
      secure.once('error', (err) => reject(new TransferError(`${target.host} through proxy ${proxy.host}: ${err.message}`)));
    });
    request.end();
  });
}
