import dgram from 'node:dgram';
import net from 'node:net';
import type { Logger } from '../../core/logger.js';
import { unmapIpv4 } from '../../network/ip-math.js';
import { MAX_RECORD_BYTES, MAX_UDP_REPLY_BYTES } from './rpc-constants.js';
import { RpcDispatcher, type DispatchResult, type DispatchSource } from './rpc-dispatch.js';
import { SendfileError, sendFileRange, sendfileAvailable, socketDescriptor, useCongestionControl } from '../../core/sendfile-transfer.js';
import type { FileTail, RpcCallObserver, RpcPeer, RpcProgram } from './rpc-program.js';
import { encodeRecord, RecordDecoder, RecordTooLargeError } from './record-marking.js';

/*
 * ONC RPC over TCP (record marking, RFC 5531 §11) and UDP (one datagram, one
 * call) for a list of programs on one port. A hostile peer can cost us at
 * most one record's worth of memory per connection (the record limit), a
 * bounded number of calls in flight, and a connection slot until the idle
 * timeout; every socket error ends that socket, never the process.
 */

export interface RpcServerOptions {
  programs: readonly RpcProgram[];
  /** Bind address; '0.0.0.0' by default (ISSUE 15). */
  host?: string;
  /** TCP port (0 = any); UDP binds the same port once TCP has one. */
  port: number;
  /** Also serve UDP on the same port. */
  udp?: boolean;
  logger?: Logger;
  observer?: RpcCallObserver;
  /** Open TCP connections at once; more are closed at once (256). */
  maxConnections?: number;
  /** A connection with no traffic for this long is closed (5 min). */
  idleTimeoutMs?: number;
  /** The largest record a peer may send; a bigger announcement closes the connection (1 MiB + 4 KiB). */
  maxRecordBytes?: number;
  /** Calls of one connection running at once; reading stops while this many are (32). */
  maxCallsInFlight?: number;
  /** Reply bytes queued on a connection above which reading stops until they drain (4 MiB). */
  maxPendingReplyBytes?: number;
  /**
   * Send READ data from the file by sendfile(2) over TCP when the native
   * addon is loaded (default true); false: always as bytes (tests of both paths).
   */
  sendfile?: boolean;
  /** A sendfile transfer fails (and its connection closes) when the peer takes nothing for this long (30 s). */
  sendfileIdleMs?: number;
  /**
   * TCP congestion control for connections that get READ data by sendfile
   * ('cubic' by default; null leaves the system's). Under BBR, the default
   * of some distributions, each 1 MiB READ reply went out behind a
   * bandwidth estimate that kept collapsing between replies (`ss -ti`
   * during bench:nfs: pacing_rate 1.19 Gbit/s with the reply's 1 MiB not
   * yet sent, where NFS-Ganesha's connection showed 32 Gbit/s), and a
   * transfer often sent 64 KiB and then waited 1–4 ms with the CPU idle.
   * With CUBIC the same reads went from 930 to 1,470 MB/s. A LAN boot
   * server's clients are a switch away: BBR's WAN pacing buys nothing there.
   */
  congestionControl?: string | null;
}

export interface RpcServerAddresses {
  tcp: RpcPeer;
  udp: RpcPeer | null;
}

const SILENT: Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  scope: () => SILENT,
};

function peer(address: string | undefined, port: number | undefined): RpcPeer {
  return { address: address === undefined ? '' : unmapIpv4(address), port: port ?? 0 };
}

/** One TCP connection: its record decoder, the calls waiting and running, and backpressure. */
class Connection {
  private readonly decoder: RecordDecoder;
  private readonly waiting: Buffer[] = [];
  private running = 0;
  private closed = false;
  private ended = false;
  /**
   * Replies waiting for a sendfile transfer on this connection to end (the
   * kernel writes it, so nothing else may write meanwhile); a reply without
   * file bytes and with nothing waiting is written at once.
   */
  private sending: Promise<void> = Promise.resolve();
  private queuedSends = 0;
  readonly source: DispatchSource;

  constructor(
    private readonly socket: net.Socket,
    private readonly server: RpcServer,
    private readonly options: Required<Pick<RpcServerOptions, 'maxRecordBytes' | 'maxCallsInFlight' | 'maxPendingReplyBytes' | 'sendfile' | 'sendfileIdleMs' | 'congestionControl'>>,
  ) {
    this.decoder = new RecordDecoder(options.maxRecordBytes);
    this.source = {
      transport: 'tcp',
      remote: peer(socket.remoteAddress, socket.remotePort),
      local: peer(socket.localAddress, socket.localPort),
      sendsFiles: options.sendfile && sendfileAvailable() && socketDescriptor(socket) !== null,
    };
    if (this.source.sendsFiles && options.congestionControl) useCongestionControl(socket, options.congestionControl);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => this.flow());
    socket.on('close', () => {
      this.closed = true;
    });
    // The peer shut its sending side: answer what it sent, then close ours (the server is half-open for that).
    socket.on('end', () => {
      this.ended = true;
      this.endWhenIdle();
    });
  }

  private endWhenIdle(): void {
    if (this.ended && this.running === 0 && this.waiting.length === 0 && !this.closed) this.socket.end();
  }

  private onData(chunk: Buffer): void {
    let records: Buffer[];
    try {
      records = this.decoder.push(chunk);
    } catch (error) {
      this.server.refused(this.source, error instanceof RecordTooLargeError ? error.message : String(error));
      this.socket.destroy();
      return;
    }
    for (const record of records) this.waiting.push(record);
    this.flow();
  }

  /** Starts waiting calls while there is room, and pauses or resumes reading to match. */
  private flow(): void {
    if (this.closed) return;
    // Replies the peer is not reading stop new calls too, not just reading: a record already received waits.
    const backlogged = (): boolean => this.socket.writableLength > this.options.maxPendingReplyBytes;
    while (this.waiting.length > 0 && this.running < this.options.maxCallsInFlight && !backlogged()) {
      const record = this.waiting.shift();
      if (record) this.run(record);
    }
    const blocked = this.waiting.length > 0 || this.running >= this.options.maxCallsInFlight || backlogged();
    if (blocked && !this.socket.isPaused()) this.socket.pause();
    else if (!blocked && this.socket.isPaused()) this.socket.resume();
  }

  private run(record: Buffer): void {
    this.running += 1;
    this.server
      .dispatch(record, this.source)
      .then((result) => this.send(result.reply, result.tail))
      .catch((error: unknown) => this.server.failed(this.source, error))
      .finally(() => {
        this.running -= 1;
        this.flow();
        this.endWhenIdle();
      });
  }

  /** Writes a reply, in call-completion order; one with file bytes waits for its turn and holds the socket while the kernel sends them. */
  private send(reply: Buffer[] | null, tail: FileTail | null): Promise<void> {
    if (!reply || this.closed || this.socket.destroyed) {
      tail?.release();
      return Promise.resolve();
    }
    const chunks = encodeRecord(reply, tail ? tail.length + tail.pad : 0);
    if (!tail && this.queuedSends === 0) {
      this.writeChunks(chunks);
      return Promise.resolve();
    }
    this.queuedSends += 1;
    const turn = this.sending.then(() => (tail ? this.sendWithTail(chunks, tail) : this.writeChunks(chunks)));
    this.sending = turn.finally(() => {
      this.queuedSends -= 1;
    });
    return this.sending;
  }

  /** One writev: the fragment header, the reply header and the results (READ data by reference when not by sendfile). */
  private writeChunks(chunks: readonly Buffer[]): void {
    if (this.closed || this.socket.destroyed) return;
    this.socket.cork();
    for (const chunk of chunks) this.socket.write(chunk);
    this.socket.uncork();
  }

  /**
   * The header chunks, then — once Node handed every byte before them to the
   * kernel — the tail's file stretches by sendfile, then the padding. A
   * failed transfer closes the connection: the record mark promised bytes
   * that will not come (the client reconnects and asks again).
   */
  private async sendWithTail(chunks: readonly Buffer[], tail: FileTail): Promise<void> {
    try {
      if (this.closed || this.socket.destroyed) return;
      await new Promise<void>((resolve, reject) => {
        this.socket.write(Buffer.concat(chunks), (error) => (error ? reject(error) : resolve()));
      });
      for (const piece of tail.pieces) {
        if (this.closed || this.socket.destroyed) return;
        await sendFileRange(this.socket, piece.fd, piece.offset, piece.length, { idleTimeoutMs: this.options.sendfileIdleMs });
      }
      if (tail.pad > 0 && !this.socket.destroyed) this.socket.write(Buffer.alloc(tail.pad));
    } catch (error) {
      const code = error instanceof SendfileError ? error.code : '';
      if (code !== 'EPIPE' && code !== 'ECONNRESET' && code !== 'ECANCELED') this.server.failed(this.source, error);
      this.socket.destroy();
    } finally {
      tail.release();
    }
  }
}

export class RpcServer {
  private readonly dispatcher: RpcDispatcher;
  private readonly logger: Logger;
  private readonly tcp: net.Server;
  private udp: dgram.Socket | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly limits: Required<Pick<RpcServerOptions, 'maxConnections' | 'idleTimeoutMs' | 'maxRecordBytes' | 'maxCallsInFlight' | 'maxPendingReplyBytes' | 'sendfile' | 'sendfileIdleMs' | 'congestionControl'>>;
  private listening = false;

  constructor(private readonly options: RpcServerOptions) {
    this.logger = options.logger ?? SILENT;
    this.dispatcher = new RpcDispatcher(options.programs, this.logger);
    this.limits = {
      maxConnections: options.maxConnections ?? 256,
      idleTimeoutMs: options.idleTimeoutMs ?? 5 * 60_000,
      maxRecordBytes: options.maxRecordBytes ?? MAX_RECORD_BYTES,
      maxCallsInFlight: options.maxCallsInFlight ?? 32,
      maxPendingReplyBytes: options.maxPendingReplyBytes ?? 4 * 1024 * 1024,
      sendfile: options.sendfile ?? true,
      sendfileIdleMs: options.sendfileIdleMs ?? 30_000,
      congestionControl: options.congestionControl === undefined ? 'cubic' : options.congestionControl,
    };
    this.tcp = net.createServer({ noDelay: true, allowHalfOpen: true }, (socket) => this.accept(socket));
    this.tcp.on('error', (error) => this.logger.warn('rpc tcp server error', { error: error.message }));
  }

  /** Binds TCP (and UDP on the same port); rejects with the bind error (EADDRINUSE, EACCES) and leaves nothing open. */
  async listen(): Promise<void> {
    const host = this.options.host ?? '0.0.0.0';
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.tcp.once('error', onError);
      this.tcp.listen({ host, port: this.options.port, exclusive: true }, () => {
        this.tcp.off('error', onError);
        resolve();
      });
    });
    this.listening = true;
    if (!this.options.udp) return;
    const port = this.tcpAddress().port;
    const udp = dgram.createSocket({ type: net.isIPv6(host) ? 'udp6' : 'udp4' });
    try {
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        udp.bind({ address: host, port, exclusive: true }, () => {
          udp.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      udp.close();
      await this.close();
      throw error;
    }
    udp.on('error', (error) => this.logger.warn('rpc udp socket error', { error: error.message }));
    udp.on('message', (message, rinfo) => this.onDatagram(udp, message, rinfo));
    this.udp = udp;
  }

  /** Stops listening and ends every connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const udp = this.udp;
    this.udp = null;
    if (udp) await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (this.listening) {
      this.listening = false;
      await new Promise<void>((resolve) => this.tcp.close(() => resolve()));
    }
  }

  /** The bound addresses and ports (the actual port when 0 was asked). */
  addresses(): RpcServerAddresses {
    const udp = this.udp?.address();
    return { tcp: this.tcpAddress(), udp: udp ? peer(udp.address, udp.port) : null };
  }

  /** Open TCP connections. */
  get connections(): number {
    return this.sockets.size;
  }

  private tcpAddress(): RpcPeer {
    const address = this.tcp.address();
    if (address === null || typeof address === 'string') throw new Error('RpcServer is not listening');
    return peer(address.address, address.port);
  }

  private accept(socket: net.Socket): void {
    socket.on('error', (error) => this.logger.debug('rpc connection error', { remote: socket.remoteAddress, error: error.message }));
    if (this.sockets.size >= this.limits.maxConnections) {
      this.logger.debug('rpc connection refused: too many connections', { remote: socket.remoteAddress, limit: this.limits.maxConnections });
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.setTimeout(this.limits.idleTimeoutMs, () => socket.destroy());
    new Connection(socket, this, this.limits);
  }

  private onDatagram(udp: dgram.Socket, message: Buffer, rinfo: dgram.RemoteInfo): void {
    const local = udp.address();
    const source: DispatchSource = { transport: 'udp', remote: peer(rinfo.address, rinfo.port), local: peer(local.address, local.port) };
    this.dispatch(message, source)
      .then((result) => {
        if (!result.reply || this.udp !== udp) return;
        let reply = result.reply;
        if (result.replyBytes > MAX_UDP_REPLY_BYTES) {
          this.logger.warn('rpc reply too large for UDP; answered SYSTEM_ERR', { program: result.program, procedure: result.procedure, bytes: result.replyBytes });
          reply = [RpcDispatcher.systemError(message)];
        }
        udp.send(reply, rinfo.port, rinfo.address, (error) => {
          if (error) this.logger.debug('rpc udp send failed', { remote: rinfo.address, error: error.message });
        });
      })
      .catch((error: unknown) => this.failed(source, error));
  }

  /** Runs one call and tells the observer. */
  async dispatch(message: Buffer, source: DispatchSource): Promise<DispatchResult> {
    const result = await this.dispatcher.dispatch(message, source);
    this.options.observer?.({
      program: result.program,
      version: result.version,
      procedure: result.procedure,
      transport: source.transport,
      remote: source.remote.address,
      outcome: result.outcome,
      replyBytes: result.replyBytes,
    });
    return result;
  }

  /** A connection closed for an oversized record. */
  refused(source: DispatchSource, reason: string): void {
    this.logger.debug('rpc connection closed', { remote: source.remote.address, reason });
    this.options.observer?.({ program: 'unknown', version: 0, procedure: 0, transport: source.transport, remote: source.remote.address, outcome: 'too_large', replyBytes: 0 });
  }

  /** Something that should not throw did (an observer, a bug): logged, the peer is unaffected. */
  failed(source: DispatchSource, error: unknown): void {
    this.logger.error('rpc call handling failed', { remote: source.remote.address, error: error instanceof Error ? error.message : String(error) });
  }
}
