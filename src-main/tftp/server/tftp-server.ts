import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { VirtualFile } from '../../boot-files/virtual-files.js';
import { errorMessage } from '../../core/errors.js';
import { describeListenError } from '../../services/listen-error.js';
import { ChunkCache } from './chunk-cache.js';
import { decode, encode, TftpDecodeError, type TftpPacket } from './tftp-codec.js';
import { TFTP_ERROR, TFTP_ERRORS, TFTP_OPCODES, type TftpErrorCode } from './tftp-constants.js';
import { negotiate } from './tftp-options.js';
import { openRequestSource, RequestRefusal } from './request-source.js';
import { TftpTransfer, type TransferOutcome, type TransferStats } from './tftp-transfer.js';

/** What the server runs with; the service derives it from the settings and the served interfaces. */
export interface TftpServerConfig {
  /** Our addresses to listen on (one socket each, so replies leave from the address the client used). */
  addresses: string[];
  port: number;
  /** The real path of the root the served-root policy accepted (pinned: see resolveInsideRoot). */
  root: string;
  maxBlksize: number;
  maxWindowsize: number;
  timeoutMs: number;
  retries: number;
  /** Concurrent transfers beyond this are refused with "server busy". */
  maxTransfers: number;
  /** Bytes of file chunks kept in memory for all transfers together. */
  cacheBytes: number;
}

const CHUNK_BYTES = 1024 * 1024;

export interface TftpClient {
  ip: string;
  port: number;
  /** Our address the request came to. */
  local: string;
}

interface TransferFacts {
  id: number;
  client: TftpClient;
  file: string;
  mode: string;
  virtual: boolean;
  size: number;
  blksize: number;
  windowsize: number;
}

/** What the server reports: a transfer began sending data, ended, or a request was refused. */
export type TftpServerEvent =
  | ({ type: 'started' } & TransferFacts)
  | ({ type: 'completed' } & TransferFacts & TransferStats)
  | ({ type: 'failed' } & TransferFacts & TransferStats & { error: string })
  | { type: 'refused'; client: TftpClient; file: string; code: number; error: string }
  | { type: 'probe'; client: TftpClient; file: string };

export type TftpLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface TftpServerHooks {
  /** Asks the virtual file providers (in the main thread); absent: no virtual files. */
  resolveVirtual?: (path: string, client: TftpClient) => Promise<VirtualFile | null>;
  onEvent(event: TftpServerEvent): void;
  log(level: TftpLogLevel, message: string): void;
}

function clientKey(ip: string, port: number): string {
  return `${ip}|${port}`;
}

function formatAddress(address: string, port: number): string {
  return `udp ${isIPv6(address) ? `[${address}]` : address}:${port}`;
}

/**
 * The read-only TFTP server: one listening socket per served address; each
 * request gets its own socket on an ephemeral port (its TID, RFC 1350 §4)
 * connected to the client, so the kernel delivers only that client's packets
 * to the transfer and replies leave from the address the client asked.
 */
export class TftpServer {
  private config: TftpServerConfig;
  private readonly hooks: TftpServerHooks;
  private readonly listeners = new Map<string, dgram.Socket>();
  /** Active and starting transfers by client TID; a retransmitted RRQ for one of them is ignored. */
  private readonly active = new Map<string, TftpTransfer | null>();
  private readonly sockets = new Set<dgram.Socket>();
  private readonly cache: ChunkCache;
  private nextId = 1;
  private stopped = false;

  constructor(config: TftpServerConfig, hooks: TftpServerHooks) {
    this.config = config;
    this.hooks = hooks;
    this.cache = new ChunkCache({ maxBytes: config.cacheBytes, chunkSize: CHUNK_BYTES });
  }

  /** Binds every configured address; fails (and releases all) when one cannot be bound. */
  async start(): Promise<string[]> {
    this.stopped = false;
    try {
      for (const address of this.config.addresses) await this.listen(address);
    } catch (err) {
      await this.stop();
      throw err;
    }
    if (this.config.addresses.length === 0) this.hooks.log('warn', 'no served interface has an address: TFTP listens nowhere until one appears');
    return this.listenAddresses();
  }

  /**
   * Follows a change of the served addresses: closes the sockets of addresses
   * gone, binds new ones. Transfers in progress continue on their own sockets.
   * A failed bind is logged, not thrown (the interface may be coming up).
   */
  async rebind(addresses: string[]): Promise<string[]> {
    this.config = { ...this.config, addresses };
    for (const [address, socket] of [...this.listeners]) {
      if (!addresses.includes(address)) {
        this.listeners.delete(address);
        await closeSocket(socket);
      }
    }
    for (const address of addresses) {
      if (this.listeners.has(address)) continue;
      await this.listen(address).catch((err: unknown) => this.hooks.log('warn', errorMessage(err)));
    }
    return this.listenAddresses();
  }

  listenAddresses(): string[] {
    return [...this.listeners.entries()].map(([address, socket]) => formatAddress(address, socket.address().port));
  }

  get activeTransfers(): number {
    return this.active.size;
  }

  /** Closes the listeners and ends every transfer (the clients get an ERROR). */
  async stop(): Promise<void> {
    this.stopped = true;
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    await Promise.all(listeners.map(closeSocket));
    for (const transfer of [...this.active.values()]) transfer?.abort('server shutting down', true);
    await Promise.all([...this.sockets].map(closeSocket));
    this.sockets.clear();
    this.active.clear();
    this.cache.clear();
  }

  private async listen(address: string): Promise<void> {
    const socket = dgram.createSocket({ type: isIPv6(address) ? 'udp6' : 'udp4', ipv6Only: isIPv6(address) });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', (err) => reject(new Error(describeListenError(err, 'udp', address, this.config.port), { cause: err })));
      socket.bind({ address, port: this.config.port, exclusive: true }, () => resolve());
    });
    socket.removeAllListeners('error');
    socket.on('error', (err) => this.hooks.log('warn', `tftp listener ${address}: ${errorMessage(err)}`));
    socket.on('message', (message, rinfo) => this.onRequest(socket, address, message, rinfo));
    this.listeners.set(address, socket);
  }

  private onRequest(listener: dgram.Socket, local: string, message: Buffer, rinfo: dgram.RemoteInfo): void {
    let packet: TftpPacket;
    try {
      packet = decode(message);
    } catch (err) {
      // Garbage gets no answer: an error reply could be bigger than the packet (reflection).
      if (err instanceof TftpDecodeError) this.hooks.log('debug', `malformed packet from ${rinfo.address}:${rinfo.port}: ${err.message}`);
      return;
    }
    const client: TftpClient = { ip: rinfo.address, port: rinfo.port, local };
    if (packet.op === 'error') return;
    if (packet.op === 'wrq') {
      this.refuse(listener, client, packet.filename, TFTP_ERROR.ACCESS_VIOLATION, 'write requests are refused: this server is read-only');
      return;
    }
    if (packet.op !== 'rrq') {
      this.replyError(listener, client, TFTP_ERROR.UNKNOWN_TID, TFTP_ERRORS[TFTP_ERROR.UNKNOWN_TID].message);
      return;
    }
    const key = clientKey(client.ip, client.port);
    // The client retransmitted its RRQ while the first is being served: the transfer's own retransmission answers it.
    if (this.active.has(key)) return;
    if (this.active.size >= this.config.maxTransfers) {
      this.refuse(listener, client, packet.filename, TFTP_ERROR.NOT_DEFINED, 'server busy: too many transfers, retry later');
      return;
    }
    this.active.set(key, null);
    this.serve(client, packet).catch((err: unknown) => {
      this.active.delete(key);
      if (err instanceof RequestRefusal) {
        this.refuse(listener, client, packet.filename, err.code, err.message);
        return;
      }
      this.hooks.log('error', `tftp request from ${client.ip} for ${packet.filename} failed: ${errorMessage(err)}`);
      this.refuse(listener, client, packet.filename, TFTP_ERROR.NOT_DEFINED, 'server error');
    });
  }

  private async serve(client: TftpClient, request: Extract<TftpPacket, { op: 'rrq' | 'wrq' }>): Promise<void> {
    const mode = request.mode.toLowerCase();
    if (mode !== 'octet' && mode !== 'netascii') throw new RequestRefusal(TFTP_ERROR.ILLEGAL_OPERATION, `transfer mode "${request.mode}" is not supported; use octet or netascii`);
    const opened = await openRequestSource(request.filename, client, {
      root: this.config.root,
      netascii: mode === 'netascii',
      cache: this.cache,
      ...(this.hooks.resolveVirtual ? { resolveVirtual: this.hooks.resolveVirtual } : {}),
    });
    const { source } = opened;
    try {
      if (this.stopped) throw new RequestRefusal(TFTP_ERROR.NOT_DEFINED, 'server shutting down');
      const negotiated = negotiate(request.options, source.size, {
        maxBlksize: this.config.maxBlksize,
        maxWindowsize: this.config.maxWindowsize,
        defaultTimeoutMs: this.config.timeoutMs,
      });
      const socket = await this.transferSocket(client);
      const facts: TransferFacts = {
        id: this.nextId++,
        client,
        file: opened.path,
        mode,
        virtual: opened.virtual,
        size: source.size,
        blksize: negotiated.blksize,
        windowsize: negotiated.windowsize,
      };
      const key = clientKey(client.ip, client.port);
      const transfer = new TftpTransfer(
        source,
        {
          send: (parts) => {
            try {
              socket.send(parts);
            } catch {
              // The socket closed under a last ERROR packet (server stopping): nothing left to tell.
            }
          },
        },
        { blksize: negotiated.blksize, windowsize: negotiated.windowsize, timeoutMs: negotiated.timeoutMs, retries: this.config.retries, oack: negotiated.oack },
        {
          onStarted: () => this.hooks.onEvent({ type: 'started', ...facts }),
          onFinished: (outcome, stats) => {
            this.active.delete(key);
            this.sockets.delete(socket);
            socket.close();
            source.close().catch(() => undefined);
            this.report(facts, outcome, stats);
          },
        },
      );
      socket.on('message', (message) => {
        // ACKs are nearly every packet a transfer gets: read them without building a packet object.
        if (message.length >= 4 && message[0] === 0 && message[1] === TFTP_OPCODES.ack) {
          transfer.ack(message.readUInt16BE(2));
          return;
        }
        let packet: TftpPacket;
        try {
          packet = decode(message);
        } catch {
          return;
        }
        transfer.handle(packet);
      });
      socket.on('error', (err) => transfer.abort(`socket error: ${errorMessage(err)}`, false));
      if (this.stopped) {
        transfer.abort('server shutting down', true);
        return;
      }
      this.active.set(key, transfer);
      transfer.start();
    } catch (err) {
      await source.close().catch(() => undefined);
      throw err;
    }
  }

  private report(facts: TransferFacts, outcome: TransferOutcome, stats: TransferStats): void {
    if (outcome.result === 'completed') {
      this.hooks.onEvent({ type: 'completed', ...facts, ...stats });
    } else if (outcome.probe) {
      // PXE firmware asks for tsize, reads the OACK and aborts: normal, not a failed transfer.
      this.hooks.onEvent({ type: 'probe', client: facts.client, file: facts.file });
    } else {
      this.hooks.onEvent({ type: 'failed', ...facts, ...stats, error: outcome.error });
    }
  }

  private transferSocket(client: TftpClient): Promise<dgram.Socket> {
    const socket = dgram.createSocket({ type: isIPv6(client.local) ? 'udp6' : 'udp4', ipv6Only: isIPv6(client.local) });
    this.sockets.add(socket);
    return new Promise((resolve, reject) => {
      socket.once('error', (err) => {
        this.sockets.delete(socket);
        socket.close();
        reject(err);
      });
      // Port 0: the kernel picks a fresh ephemeral port, the transfer's TID.
      socket.bind({ address: client.local, port: 0, exclusive: true }, () => {
        socket.connect(client.port, client.ip, () => {
          socket.removeAllListeners('error');
          resolve(socket);
        });
      });
    });
  }

  private refuse(listener: dgram.Socket, client: TftpClient, file: string, code: TftpErrorCode, message: string): void {
    this.replyError(listener, client, code, message);
    this.hooks.onEvent({ type: 'refused', client, file, code, error: message });
  }

  private replyError(listener: dgram.Socket, client: TftpClient, code: TftpErrorCode, message: string): void {
    const packet = encode({ op: 'error', code, message });
    try {
      listener.send(packet, client.port, client.ip, (err) => {
        if (err) this.hooks.log('debug', `error reply to ${client.ip}:${client.port} failed: ${errorMessage(err)}`);
      });
    } catch {
      // The listener closed meanwhile (stop or rebind): the client retries elsewhere.
    }
  }
}

function closeSocket(socket: dgram.Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      // Already closed.
      resolve();
    }
  });
}
