import dgram from 'node:dgram';
import { isIP } from 'node:net';
import { BmcError } from '../bmc-error.js';

export interface ExchangeOptions {
  /** Time for one attempt before the request is sent again. */
  attemptMs: number;
  /** Sends after the first (0 = one attempt only). */
  retries: number;
}

/**
 * A UDP conversation with one BMC: a connected socket (so an ICMP port
 * unreachable surfaces at once as ECONNREFUSED instead of a silent timeout)
 * and request/response exchanges with retries. IPMI over LAN is
 * unacknowledged UDP (IPMI v2.0 §13.1): the client retries, the BMC answers
 * each request it accepts.
 */
export class UdpExchange {
  private readonly socket: dgram.Socket;
  private readonly target: string;
  private waiter: { accept: (msg: Buffer) => boolean; resolve: () => void; reject: (err: Error) => void } | null = null;
  private failure: BmcError | null = null;
  private closed = false;

  private constructor(socket: dgram.Socket, target: string) {
    this.socket = socket;
    this.target = target;
    socket.on('message', (msg) => {
      const waiter = this.waiter;
      if (!waiter) return;
      let accepted = false;
      try {
        accepted = waiter.accept(msg);
      } catch (err) {
        // A matching response that failed verification ends the exchange with that error.
        this.waiter = null;
        waiter.reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (accepted) {
        this.waiter = null;
        waiter.resolve();
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      const failure =
        err.code === 'ECONNREFUSED'
          ? new BmcError('unreachable', `${target}: connection refused (no IPMI service answers on this port)`)
          : new BmcError('unreachable', `${target}: ${err.code ?? 'socket error'}: ${err.message}`);
      this.failure = failure;
      const waiter = this.waiter;
      this.waiter = null;
      waiter?.reject(failure);
    });
  }

  /** Opens a socket connected to address:port (hostnames are resolved); rejects with a BmcError. */
  static async open(address: string, port: number): Promise<UdpExchange> {
    const socket = dgram.createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
    const target = `${address}:${port}`;
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        socket.close();
        reject(new BmcError('unreachable', `${target}: ${err.code === 'ENOTFOUND' ? 'the host name does not resolve' : err.message}`));
      };
      socket.once('error', onError);
      socket.connect(port, address, () => {
        socket.off('error', onError);
        resolve();
      });
    });
    return new UdpExchange(socket, target);
  }

  /**
   * Sends the datagram `build(attempt)` returns and waits for one that
   * `accept` takes (returns true for); resends after `attemptMs` up to
   * `retries` times. `accept` may throw to end the exchange with that error.
   */
  async exchange(build: (attempt: number) => Buffer, accept: (msg: Buffer) => boolean, options: ExchangeOptions): Promise<void> {
    for (let attempt = 0; attempt <= options.retries; attempt += 1) {
      if (this.failure) throw this.failure;
      if (this.closed) throw new BmcError('protocol', `${this.target}: the connection was closed`);
      const answered = await this.attempt(build(attempt), accept, options.attemptMs);
      if (answered) return;
    }
    const total = options.attemptMs * (options.retries + 1);
    throw new BmcError('timeout', `${this.target}: no answer within ${total} ms (${options.retries + 1} attempts)`);
  }

  /** Sends without waiting for an answer (Close Session is best effort). */
  sendOnly(datagram: Buffer): void {
    if (!this.closed && !this.failure) this.socket.send(datagram);
  }

  private attempt(datagram: Buffer, accept: (msg: Buffer) => boolean, attemptMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(false);
      }, attemptMs);
      this.waiter = {
        accept,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.socket.send(datagram, (err) => {
        if (err && this.waiter) {
          const waiter = this.waiter;
          this.waiter = null;
          waiter.reject(new BmcError('unreachable', `${this.target}: send failed: ${err.message}`));
        }
      });
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.waiter?.reject(new BmcError('protocol', `${this.target}: the connection was closed`));
    this.waiter = null;
    try {
      this.socket.close();
    } catch {
      // Already closed by an error.
    }
  }
}
