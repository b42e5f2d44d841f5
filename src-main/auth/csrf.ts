import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import { normalizeHost } from './host-guard.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginSignals {
  method: string;
  /** The request's own scheme and Host header. */
  protocol: 'http' | 'https';
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
}

/**
 * Why an unsafe browser request is cross-origin, or null when it may pass.
 * Browsers send `Origin` on unsafe requests (RFC 6454 §7, Fetch) and
 * `Sec-Fetch-Site` (Fetch Metadata); a request with neither comes from a
 * non-browser client, which a cross-site page cannot drive, so it passes.
 */
export function crossOriginReason(signals: OriginSignals): string | null {
  if (SAFE_METHODS.has(signals.method.toUpperCase())) return null;
  const site = signals.secFetchSite?.trim().toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is "${site}"`;
  if (signals.origin !== undefined && !sameOrigin(signals.origin, signals.protocol, signals.host)) {
    return `Origin "${signals.origin.slice(0, 100)}" is not this server's origin`;
  }
  return null;
}

function sameOrigin(origin: string, protocol: 'http' | 'https', host: string | undefined): boolean {
  if (host === undefined) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  const own = normalizeHost(host);
  if (own === null) return false;
  const ownPort = /:(\d+)$/.exec(host.trim())?.[1] ?? (protocol === 'https' ? '443' : '80');
  const originPort = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return parsed.protocol === `${protocol}:` && parsed.hostname === own && originPort === ownPort;
}

export function originSignals(request: FastifyRequest): OriginSignals {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    method: request.method,
    protocol: request.protocol === 'https' ? 'https' : 'http',
    host: header('host'),
    origin: header('origin'),
    secFetchSite: header('sec-fetch-site'),
  };
}

/** Refuses (403 CSRF_REJECTED) an unsafe cookie-authenticated request that a browser marks cross-origin. */
export function assertSameOrigin(request: FastifyRequest): void {
  const reason = crossOriginReason(originSignals(request));
  if (reason) {
    throw new AppError('CSRF_REJECTED', `cross-origin request refused: ${reason}; cookie-authenticated changes must come from this server's own pages`);
  }
}
