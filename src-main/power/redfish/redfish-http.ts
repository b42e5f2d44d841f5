import https from 'node:https';
import { BmcError } from '../bmc-error.js';

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

const NETWORK_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET']);

function hostForUrl(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * One JSON request to a Redfish service over HTTPS (DMTF DSP0266 §7).
 * Authenticates with HTTP Basic (§13.2.3), never follows redirects, caps
 * the body, and turns every failure into a BmcError with a precise reason.
 */
export function redfishRequest(options: RedfishHttpOptions, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<RedfishResponse> {
  const target = `https://${hostForUrl(options.address)}:${options.port}${path}`;
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
    // One budget for the whole request (connect, TLS, headers and body), not per socket read.
    const timer = setTimeout(() => {
      request.destroy();
      fail(new BmcError('timeout', `${target}: no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const fail = (err: BmcError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
    };
    const request = https.request(
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
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            request.destroy();
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
          settled = true;
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
        });
      },
    );
    request.on('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? '';
      if (TLS_TRUST_CODES.has(code)) {
        fail(new BmcError('tls', `${target}: the TLS certificate is not trusted (${code}); set verify_tls to false to accept a self-signed certificate`));
      } else if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || /SSL|TLS/i.test(err.message)) {
        fail(new BmcError('tls', `${target}: TLS handshake failed: ${err.message}`));
      } else if (NETWORK_CODES.has(code)) {
        fail(new BmcError('unreachable', `${target}: ${code === 'ECONNREFUSED' ? 'connection refused (nothing listens on this port)' : code === 'ENOTFOUND' ? 'the host name does not resolve' : err.message}`));
      } else {
        fail(new BmcError('unreachable', `${target}: ${err.message}`));
      }
    });
    if (payload) request.write(payload);
    request.end();
  });
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
