import dgram from 'node:dgram';
import net from 'node:net';
import { describeListenError } from '../../services/listen-error.js';
import { MAX_TCP_MESSAGE } from './dns-wire.js';
import type { QueryHandler, ReplyChannel } from './query-handler.js';
import { TcpConnections } from './tcp-connections.js';
import type { ClientView } from './zone.js';

/** An address to answer on, with the IPv4 address `{server_ip}` falls back to for clients on no served subnet. */
export interface BindTarget {
  address: string;
  family: 4 | 6;
  /** This address when it is IPv4, else the first IPv4 address of the same interface; null when it has none. */
  fallbackIpv4: string | null;
}

/** Client views remembered per listener; beyond this the cache starts over. */
const MAX_VIEW_CACHE = 65_536;

/**
 * `send` to an IP literal goes through dns.lookup, which answers on the next
 * tick; every peer here is an IP literal, so answer at once instead (one
 * tick less per packet on the hot path).
 */
function literalLookup(address: string, _options: unknown, callback: (err: NodeJS.ErrnoException | null, address: string, family: number) => void): void {
  callback(null, address, address.includes(':') ? 6 : 4);
}

class ViewCache {
  private readonly views = new Map<string, ClientView>();
  private readonly handler: QueryHandler;
  private readonly fallbackIpv4: string | null;

  constructor(handler: QueryHandler, fallbackIpv4: string | null) {
    this.handler = handler;
    this.fallbackIpv4 = fallbackIpv4;
  }

  viewFor(address: string): ClientView {
    const zone = this.handler.currentZone()!;
    let view = this.views.get(address);
    if (view === undefined || view.zone !== zone) {
      view = zone.viewFor(address, this.fallbackIpv4);
      if (this.views.size >= MAX_VIEW_CACHE) this.views.clear();
      this.views.set(address, view);
    }
    return view;
  }
}

/** One UDP socket on one address. */
export class UdpListener implements ReplyChannel {
  readonly tcp = false;
  readonly target: BindTarget;
  private readonly socket: dgram.Socket;
  private readonly views: ViewCache;

  constructor(target: BindTarget, handler: QueryHandler, reusePort: boolean) {
    this.target = target;
    this.views = new ViewCache(handler, target.fallbackIpv4);
    const options = { type: target.family === 6 ? 'udp6' : 'udp4', lookup: literalLookup, ...(reusePort ? { reusePort: true } : {}) };
    this.socket = dgram.createSocket(options as dgram.SocketOptions);
    this.socket.on('message', (msg, rinfo) => {
      try {
        handler.handle(msg, rinfo.address, rinfo.port, this);
      } catch {
        // A packet whose handling throws is dropped; the listener lives on (the fuzz tests keep this path empty).
      }
    });
  }

  bind(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(new Error(describeListenError(err, 'udp', this.target.address, port), { cause: err }));
      this.socket.once('error', onError);
      this.socket.bind({ port, address: this.target.address, exclusive: true }, () => {
        this.socket.off('error', onError);
        // A send error (ICMP unreachable reported late) must not kill the listener.
        this.socket.on('error', () => undefined);
        resolve();
      });
    });
  }

  send(message: Buffer, port: number, address: string): void {
    try {
      this.socket.send(message, port, address);
    } catch {
      // Closed meanwhile (an answer from upstream arriving after a rebind): nothing to send it on.
    }
  }

  viewFor(address: string): ClientView {
    return this.views.viewFor(address);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}

/**
 * DNS over TCP on one address (RFC 7766): length-prefixed messages, several
 * per connection. Connection limits and idle timeouts are `connections`'
 * (shared by every TCP listener of the worker, so the caps hold per process).
 */
export class TcpListener {
  readonly target: BindTarget;
  private readonly server: net.Server;
  /** This listener's own connections (closed with it); the shared limiter also counts other listeners'. */
  private readonly sockets = new Set<net.Socket>();

  constructor(target: BindTarget, handler: QueryHandler, connections: TcpConnections = new TcpConnections()) {
    this.target = target;
    const views = new ViewCache(handler, target.fallbackIpv4);
    this.server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      if (!connections.admit(socket)) return;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      const channel: ReplyChannel = {
        tcp: true,
        send: (message) => {
          if (socket.destroyed) return;
          const length = Buffer.allocUnsafe(2);
          length.writeUInt16BE(message.length, 0);
          socket.write(Buffer.concat([length, message]));
        },
        viewFor: (address) => views.viewFor(address),
      };
      let pending: Buffer = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        while (pending.length >= 2) {
          const length = pending.readUInt16BE(0);
          if (pending.length < 2 + length) break;
          const msg = pending.subarray(2, 2 + length);
          pending = pending.subarray(2 + length);
          // Only a whole query counts as activity: dribbling bytes does not protect a connection from eviction.
          connections.touch(socket);
          try {
            handler.handle(msg, socket.remoteAddress ?? '', socket.remotePort ?? 0, channel);
          } catch {
            socket.destroy();
            return;
          }
        }
        if (pending.length > 2 + MAX_TCP_MESSAGE) socket.destroy();
      });
    });
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(new Error(describeListenError(err, 'tcp', this.target.address, port), { cause: err }));
      this.server.once('error', onError);
      this.server.listen({ port, host: this.target.address, exclusive: true }, () => {
        this.server.off('error', onError);
        this.server.on('error', () => undefined);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
