import dgram from 'node:dgram';
import { isIP } from 'node:net';
import { isValidBmcAddress, isValidPort } from '../bmc-address.js';
import { BmcError } from '../bmc-error.js';
import { networkCause } from '../network-cause.js';

/** A socket error as a BmcError with its plain cause (network-cause.ts). */
function socketError(target: string, err: NodeJS.ErrnoException, during: string): BmcError {
  return new BmcError('unreachable', `${target}: ${networkCause(err.code) ?? `${during} failed: ${err.message}`}`, { cause: err });
}

/** Whatever a check of a BMC datagram threw, as a BmcError (a decoder bug must not look like anything else). */
function asBmcError(err: unknown, target: string): BmcError {
  if (err instanceof BmcError) return err;
  return new BmcError('protocol', `${target}: malformed answer: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

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
  /** Told once when the exchange closes (drops the abort listener). */
  private onClose: (() => void) | null = null;

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
        waiter.reject(asBmcError(err, target));
        return;
      }
      if (accepted) {
        this.waiter = null;
        waiter.resolve();
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      const failure = socketError(target, err, 'the socket');
      this.failure = failure;
      const waiter = this.waiter;
      this.waiter = null;
      waiter?.reject(failure);
    });
  }

  /** Opens a socket connected to address:port (hostnames are resolved); rejects with a BmcError. */
  static async open(address: string, port: number, signal?: AbortSignal): Promise<UdpExchange> {
    const target = `${address}:${port}`;
    // The resolver would cut "a\0b" at the NUL and talk to "a"; refuse such names outright.
    if (!isValidBmcAddress(address) || !isValidPort(port)) throw new BmcError('unreachable', `${JSON.stringify(target)} is not a valid BMC address and port`);
    if (signal?.aborted) throw signal.reason as Error;
    const socket = dgram.createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      let done = false;
      const settle = (err: BmcError | null) => {
        if (done) return;
        done = true;
        signal?.removeEventListener('abort', onAbort);
        if (!err) return resolve();
        try {
          socket.close();
        } catch {
          // Already closed.
        }
        reject(err);
      };
      const onAbort = () => settle(signal!.reason instanceof BmcError ? signal!.reason : new BmcError('timeout', `${target}: aborted`));
      // Stays for the socket's life: a late error after close or abort must find a listener.
      socket.on('error', (err: NodeJS.ErrnoException) => settle(socketError(target, err, 'connecting')));
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        // Node reports a failed connect (no route, a name that does not resolve) to this callback, not as an
        // 'error' event, and leaves the socket unconnected: going on would send without an address.
        socket.connect(port, address, (err?: Error) => settle(err ? socketError(target, err as NodeJS.ErrnoException, 'connecting') : null));
      } catch (err) {
        settle(asBmcError(err, target));
      }
    });
    const exchange = new UdpExchange(socket, target);
    // The operation's deadline ends the conversation: the waiting exchange fails with the deadline's error.
    if (signal) {
      const onAbort = () => exchange.close(signal.reason instanceof BmcError ? signal.reason : undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      exchange.onClose = () => signal.removeEventListener('abort', onAbort);
    }
    return exchange;
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
    if (this.closed || this.failure) return;
    try {
      // A callback, so a send error is reported here and not as an 'error' event.
      this.socket.send(datagram, () => undefined);
    } catch {
      // Best effort by definition.
    }
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
      const sendFailed = (err: Error) => {
        if (!this.waiter) return;
        const waiter = this.waiter;
        this.waiter = null;
        waiter.reject(socketError(this.target, err as NodeJS.ErrnoException, 'sending'));
      };
      try {
        this.socket.send(datagram, (err) => {
          if (err) sendFailed(err);
        });
      } catch (err) {
        // A closed socket throws synchronously; the timer is cleared by the waiter's reject.
        sendFailed(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /** Closes the socket; a waiting exchange fails with `reason` (default: "the connection was closed"). */
  close(reason?: BmcError): void {
    if (this.closed) return;
    this.closed = true;
    if (reason) this.failure = reason;
    this.onClose?.();
    this.onClose = null;
    this.waiter?.reject(reason ?? new BmcError('protocol', `${this.target}: the connection was closed`));
    this.waiter = null;
    try {
      this.socket.close();
    } catch {
      // Already closed by an error.
    }
  }
}
