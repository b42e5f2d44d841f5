import type { ClientRequest } from 'node:http';
import https from 'node:https';
import { isValidBmcAddress, isValidPort } from '../bmc-address.js';
import { BmcError } from '../bmc-error.js';
import { networkCause } from '../network-cause.js';

/** Largest response body we read from a BMC; Redfish resources are a few KB. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface RedfishHttpOptions {
  address: string;
  port: number;
  /** null for unauthenticated requests (the service root). */
  credentials: { username: string; password: string } | null;
  verifyTls: boolean;
  timeoutMs: number;
}

export interface RedfishResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or null for an empty body. */
  body: unknown;
}

/** TLS verification failures that mean "the certificate is not trusted" (self-signed, unknown CA, wrong name). */
const TLS_TRUST_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);


function hostForUrl(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/** A request that could not even be put on the wire (Node refused its host, path or headers). */
function unsendable(target: string, err: unknown): BmcError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return new BmcError('protocol', `${target}: the request cannot be sent${code ? ` (${code})` : ''}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

/**
 * One JSON request to a Redfish service over HTTPS (DMTF DSP0266 §7).
 * Authenticates with HTTP Basic (§13.2.3), never follows redirects, caps
 * the body, and turns every failure into a BmcError with a precise reason:
 * also a synchronous throw of https.request (a host or path Node refuses),
 * so nothing can escape into the event loop. `signal` aborts the request
 * (the caller's deadline for a whole operation); `options.timeoutMs` bounds
 * this one request from connect to the last body byte.
 */
export function redfishRequest(
  options: RedfishHttpOptions,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<RedfishResponse> {
  const target = `https://${hostForUrl(options.address)}:${options.port}${path}`;
  if (!isValidBmcAddress(options.address) || !isValidPort(options.port)) {
    return Promise.reject(new BmcError('unreachable', `${JSON.stringify(`${options.address}:${options.port}`)} is not a valid BMC address and port`));
  }
  if (signal?.aborted) return Promise.reject(abortError(signal, target));
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  const headers: Record<string, string> = {
    accept: 'application/json',
    'odata-version': '4.0',
    ...extraHeaders,
  };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  if (options.credentials) {
    headers.authorization = `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`, 'utf8').toString('base64')}`;
  }
  return new Promise<RedfishResponse>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let request: ClientRequest | undefined;
    const onAbort = () => {
      request?.destroy();
      fail(abortError(signal!, target));
    };
    const finish = () => {
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: BmcError) => {
      if (settled) return;
      finish();
      request?.destroy();
      reject(err);
    };
    try {
      request = https.request(
        {
          host: options.address,
          port: options.port,
          path,
          method,
          headers,
          rejectUnauthorized: options.verifyTls,
          // A fresh connection per request: no pooled socket outlives the call.
          agent: false,
        },
        (response) => {
          const declared = Number(response.headers['content-length']);
          if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES) {
            fail(new BmcError('protocol', `${target}: response of ${declared} bytes is larger than ${MAX_RESPONSE_BYTES} bytes`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (settled) return;
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) {
              fail(new BmcError('protocol', `${target}: response larger than ${MAX_RESPONSE_BYTES} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('error', (err) => fail(new BmcError('protocol', `${target}: ${err.message}`)));
          response.on('end', () => {
            if (settled) return;
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = null;
            if (text.trim() !== '') {
              try {
                parsed = JSON.parse(text);
              } catch {
                // Error pages of some BMCs are HTML; the status says enough then.
                if ((response.statusCode ?? 0) < 400) {
                  fail(new BmcError('protocol', `${target}: the response is not JSON (is this a Redfish service?)`));
                  return;
                }
              }
            }
            finish();
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
          });
        },
      );
    } catch (err) {
      // Node validates host, path and headers synchronously; no timer is armed yet.
      fail(unsendable(target, err));
      return;
    }
    const sent = request;
    sent.on('error', (err: NodeJS.ErrnoException) => fail(requestError(target, err)));
    // One budget for the whole request (connect, TLS, headers and body), not per socket read.
    timer = setTimeout(() => fail(new BmcError('timeout', `${target}: no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (payload) sent.write(payload);
      sent.end();
    } catch (err) {
      fail(unsendable(target, err));
    }
  });
}

function abortError(signal: AbortSignal, target: string): BmcError {
  const reason: unknown = signal.reason;
  return reason instanceof BmcError ? reason : new BmcError('timeout', `${target}: aborted (${reason instanceof Error ? reason.message : 'deadline'})`);
}

function requestError(target: string, err: NodeJS.ErrnoException): BmcError {
  const code = err.code ?? '';
  if (TLS_TRUST_CODES.has(code)) {
    return new BmcError('tls', `${target}: the TLS certificate is not trusted (${code}); set verify_tls to false to accept a self-signed certificate`);
  }
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || /SSL|TLS/i.test(err.message)) return new BmcError('tls', `${target}: TLS handshake failed: ${err.message}`);
  if (code.startsWith('HPE_')) return new BmcError('protocol', `${target}: malformed HTTP response (${code})`);
  return new BmcError('unreachable', `${target}: ${networkCause(code) ?? err.message}`);
}

/** The message a Redfish error body carries (DSP0266 §9.6), if any. */
export function redfishErrorMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const info = (error as { '@Message.ExtendedInfo'?: unknown })['@Message.ExtendedInfo'];
  if (Array.isArray(info)) {
    const first = info[0] as { Message?: unknown } | undefined;
    if (first && typeof first.Message === 'string') return first.Message;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message : null;
}
