import os from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { RequestGuard } from '../core/http-kit/route-table.js';
import { AppError } from '../core/errors.js';

export interface HostAllowlistOptions {
  /** Further names or addresses that reach this server (a DNS name, a NAT address). */
  extraHosts?: readonly string[];
  /** Seams for tests; default to node:os. */
  hostname?: () => string;
  networkInterfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  now?: () => number;
  /** How long the interface address list is reused before it is read again. */
  cacheMs?: number;
}

/**
 * Normalises a host (name, IPv4 or IPv6, with or without port and brackets)
 * the way a browser would, via the WHATWG URL parser: lower case, IPv6
 * compressed and bracketed, odd IPv4 forms (127.1, 0x7f.1) canonical.
 * Returns null for anything that is not a valid host.
 */
export function normalizeHost(host: string): string | null {
  const trimmed = host.trim();
  if (trimmed === '' || /[\s/?#@\\]/.test(trimmed)) return null;
  try {
    const url = new URL(`http://${trimmed}`);
    return url.hostname.replace(/\.$/, '') || null;
  } catch {
    return null;
  }
}

function normalizeAddress(address: string): string | null {
  return normalizeHost(address.includes(':') ? `[${address.split('%')[0]}]` : address);
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) → `10.0.0.1`. */
function unmapV4(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * The names and addresses this server answers to. Requests naming any other
 * Host are refused: that is how a DNS-rebinding page (attacker name,
 * our address) is told apart from a real visit.
 */
export class HostAllowlist {
  private readonly fixed: Set<string>;
  private readonly hostname: () => string;
  private readonly networkInterfaces: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  private readonly now: () => number;
  private readonly cacheMs: number;
  private readonly sources: (() => readonly string[])[] = [];
  private cached: { at: number; names: Set<string> } | null = null;

  constructor(options: HostAllowlistOptions = {}) {
    this.fixed = new Set(['localhost', '[::1]']);
    for (const extra of options.extraHosts ?? []) {
      const name = normalizeHost(extra);
      if (name) this.fixed.add(name);
    }
    this.hostname = options.hostname ?? os.hostname;
    this.networkInterfaces = options.networkInterfaces ?? os.networkInterfaces;
    this.now = options.now ?? Date.now;
    this.cacheMs = options.cacheMs ?? 10_000;
  }

  /**
   * Adds names that change at run time (e.g. the DNS server's local domain);
   * read again whenever the interface cache refreshes.
   */
  addSource(source: () => readonly string[]): void {
    this.sources.push(source);
    this.cached = null;
  }

  /** Drops the cached names: a source changed (a setting, a DNS record) and the next request reads them again. */
  invalidate(): void {
    this.cached = null;
  }

  /**
   * True when the Host header value names this server. `localAddress` is the
   * address the connection arrived on: a Host that is that very address is
   * ours whatever any interface list says (an interface without a carrier is
   * missing from node's list, a new address from the cache for a while).
   */
  allows(hostHeader: string, localAddress?: string): boolean {
    const name = normalizeHost(hostHeader);
    if (name === null) return false;
    if (this.fixed.has(name) || /^127\.\d+\.\d+\.\d+$/.test(name)) return true;
    if (localAddress !== undefined && name === normalizeAddress(unmapV4(localAddress))) return true;
    return this.dynamicNames().has(name);
  }

  private dynamicNames(): Set<string> {
    const now = this.now();
    if (this.cached && now - this.cached.at < this.cacheMs) return this.cached.names;
    const names = new Set<string>();
    const hostname = normalizeHost(this.hostname());
    if (hostname) {
      names.add(hostname);
      const short = hostname.split('.')[0];
      // mDNS (RFC 6762) name of this machine, as shown by Avahi and Bonjour.
      if (short) names.add(`${short}.local`);
    }
    for (const entries of Object.values(this.networkInterfaces())) {
      for (const entry of entries ?? []) {
        const address = normalizeAddress(entry.address);
        if (address) names.add(address);
      }
    }
    for (const source of this.sources) {
      for (const extra of source()) {
        const name = normalizeHost(extra);
        if (name) names.add(name);
      }
    }
    this.cached = { at: now, names };
    return names;
  }
}

/**
 * The DNS-rebinding guard, run on every request (public ones too). A request
 * without a Host header is let through: browsers always send one (RFC 9110
 * §7.2), so its absence means a non-browser client that rebinding cannot drive.
 */
export function createHostGuard(allowlist: HostAllowlist): RequestGuard {
  return (request: FastifyRequest) => {
    const host = request.headers.host;
    if (host === undefined || allowlist.allows(host, request.socket?.localAddress)) return;
    throw new AppError('HOST_REJECTED', `Host "${host.slice(0, 100)}" is not a name or address of this server; use its IP address or hostname`);
  };
}
