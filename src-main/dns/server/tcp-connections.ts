import type net from 'node:net';
import { requestSource } from '../../network/source-address.js';

/**
 * Limits of DNS-over-TCP connections. RFC 7766 §6.2.2 asks servers to limit
 * connections per client and in total, and §6.2.3 to shorten idle timeouts
 * under pressure; the numbers follow what BIND (tcp-clients, tcp-idle-timeout)
 * and dnsmasq do in spirit.
 */
export interface TcpLimits {
  /** Connections open at once over all clients; at the cap a new one evicts the least recently active. */
  maxConnections: number;
  /** Connections open at once from one source (an IPv4 address, an IPv6 /64); beyond it a new one is closed at once. */
  maxPerClient: number;
  /** Idle timeout while at most half of `maxConnections` are open. */
  idleMs: number;
  /** Idle timeout of every connection while more than half are open. */
  busyIdleMs: number;
}

export const DEFAULT_TCP_LIMITS: TcpLimits = {
  maxConnections: 256,
  maxPerClient: 16,
  idleMs: 10_000,
  busyIdleMs: 1_000,
};

/**
 * The open DNS-over-TCP connections of one process, so a client cannot hold
 * them all: a per-address cap, idle timeouts that shrink when more than half
 * the connections are open, and at the global cap the least recently active
 * connection makes room for the new one instead of the new one being refused
 * (a flood of idle connections then delays a real query by one eviction, not
 * by an idle timeout).
 */
export class TcpConnections {
  readonly limits: TcpLimits;
  /** Open connections, least recently active first (a Map keeps insertion order; `touch` re-inserts). */
  private readonly open = new Map<net.Socket, Entry>();
  private readonly perClient = new Map<string, number>();
  private busy = false;

  constructor(limits: Partial<TcpLimits> = {}) {
    this.limits = { ...DEFAULT_TCP_LIMITS, ...limits };
  }

  get size(): number {
    return this.open.size;
  }

  /** Takes a new connection in, or closes it when its client has too many; returns whether it was admitted. */
  admit(socket: net.Socket): boolean {
    // Counted per source: an IPv6 host holds a whole /64 and could otherwise open 16 connections from each of its addresses.
    const client = socket.remoteAddress === undefined ? undefined : requestSource(socket.remoteAddress);
    if (client === undefined || (this.perClient.get(client) ?? 0) >= this.limits.maxPerClient) {
      socket.destroy();
      return false;
    }
    while (this.open.size >= this.limits.maxConnections) this.evictOldest();
    const entry: Entry = { client, short: this.busy };
    this.open.set(socket, entry);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    socket.once('close', () => this.forget(socket));
    socket.on('timeout', () => socket.destroy());
    socket.setTimeout(entry.short ? this.limits.busyIdleMs : this.limits.idleMs);
    this.followPressure();
    return true;
  }

  /**
   * Marks the connection as just used (a query arrived): it is the last to be
   * evicted, and once the pressure is over it gets the normal idle timeout back.
   */
  touch(socket: net.Socket): void {
    const entry = this.open.get(socket);
    if (entry === undefined) return;
    this.open.delete(socket);
    this.open.set(socket, entry);
    if (entry.short && !this.busy) {
      entry.short = false;
      socket.setTimeout(this.limits.idleMs);
    }
  }

  closeAll(): void {
    for (const socket of [...this.open.keys()]) {
      this.forget(socket);
      socket.destroy();
    }
  }

  private evictOldest(): void {
    const oldest = this.open.keys().next();
    if (oldest.done) return;
    // Forget it now: 'close' comes a tick later, and the count must make room at once.
    this.forget(oldest.value);
    oldest.value.destroy();
  }

  private forget(socket: net.Socket): void {
    const client = this.open.get(socket)?.client;
    if (client === undefined) return;
    this.open.delete(socket);
    const count = (this.perClient.get(client) ?? 1) - 1;
    if (count > 0) this.perClient.set(client, count);
    else this.perClient.delete(client);
    this.followPressure();
  }

  /**
   * Shortens every connection's idle timeout when the load passes half the
   * cap. Falling back below does not lengthen them again (that would restart
   * every idle timer, which a client could repeat by opening and closing one
   * connection); a connection gets the normal timeout back with its next query.
   */
  private followPressure(): void {
    const busy = this.open.size > this.limits.maxConnections / 2;
    if (busy === this.busy) return;
    this.busy = busy;
    if (!busy) return;
    for (const [socket, entry] of this.open) {
      if (entry.short) continue;
      entry.short = true;
      socket.setTimeout(this.limits.busyIdleMs);
    }
  }
}

interface Entry {
  /** Source (IPv4 address or IPv6 /64): the per-client count's key. */
  client: string;
  /** Has the short (busy) idle timeout. */
  short: boolean;
}
