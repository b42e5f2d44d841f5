import { close as closeFile } from 'node:fs';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { FastifyReply } from 'fastify';
import type { Logger } from '../core/logger.js';
import { errorMessage } from '../core/errors.js';
import type { FileStretch } from './virtual-files.js';
import { SendfileError, sendFileRange, sendfileAvailable, sendfileUnavailableReason, socketDescriptor } from '../core/sendfile-transfer.js';

/** Native transfers at once by default: each holds a thread (mostly asleep in poll) and two descriptors. */
export const DEFAULT_MAX_SENDFILE_TRANSFERS = 64;
/** A native transfer fails when its client takes no byte for this long (a PXE client that hung mid-download). */
export const DEFAULT_SENDFILE_IDLE_TIMEOUT_MS = 60_000;

export interface SendfileSettings {
  /** Use sendfile(2) where it can run (Linux, the addon built, plain TCP); default true. */
  enabled?: boolean;
  /** Native transfers at once; requests beyond it stream through Node. */
  maxConcurrent?: number;
  /** See DEFAULT_SENDFILE_IDLE_TIMEOUT_MS; 0 waits forever. */
  idleTimeoutMs?: number;
}

/** Errors that only mean the client went away or the server closed the connection: not worth a warning. */
const CLIENT_GONE = new Set(['EPIPE', 'ECONNRESET', 'ECANCELED', 'ENOTCONN']);

/**
 * The zero-copy answer for a file body: fastify's reply is hijacked, the
 * status line and headers go out through Node, and once Node has handed
 * them to the kernel the body follows with sendfile(2) from the open
 * descriptor. The response then ends through Node as usual, so 'finish'
 * fires (transfer events, onResponse metrics) and keep-alive carries on.
 * Used only where it can run: elsewhere callers stream.
 */
export class SendfileReplier {
  private readonly enabled: boolean;
  private readonly maxConcurrent: number;
  private readonly idleTimeoutMs: number;
  private active = 0;

  constructor(
    private readonly log: Logger,
    settings: SendfileSettings = {},
  ) {
    this.enabled = settings.enabled ?? true;
    this.maxConcurrent = settings.maxConcurrent ?? DEFAULT_MAX_SENDFILE_TRANSFERS;
    this.idleTimeoutMs = settings.idleTimeoutMs ?? DEFAULT_SENDFILE_IDLE_TIMEOUT_MS;
    if (this.enabled && !sendfileAvailable()) log.info(`HTTP boot streams files through Node: ${sendfileUnavailableReason()}`);
  }

  /** Native transfers running now. */
  get running(): number {
    return this.active;
  }

  /** Whether this connection can take a native transfer now: plain TCP (TLS encrypts in user space), below the cap. */
  usable(socket: Socket | null): socket is Socket {
    if (!this.enabled || socket === null || this.active >= this.maxConcurrent) return false;
    if ((socket as Partial<TLSSocket>).encrypted === true) return false;
    return sendfileAvailable() && socketDescriptor(socket) !== null;
  }

  /**
   * Sends the reply's status and headers, then the pieces of `fd` in order
   * (one for a plain file; several for a range across the extents of a
   * multi-extent file inside an ISO). Takes ownership of `fd`: it is closed
   * on every path. Resolves true once every byte went into the socket, false when the transfer failed. Never rejects: a failed transfer destroys the connection
   * (the client was promised Content-Length bytes), which reports it as failed.
   */
  async send(reply: FastifyReply, socket: Socket, fd: number, pieces: readonly FileStretch[]): Promise<boolean> {
    this.active++;
    reply.hijack();
    const res = reply.raw;
    try {
      res.writeHead(reply.statusCode, headersOf(reply));
      await flushHeaders(res, socket);
      for (const piece of pieces) await sendFileRange(socket, fd, piece.offset, piece.length, { idleTimeoutMs: this.idleTimeoutMs });
      // Content-Length was sent and every byte followed: end() adds nothing and lets the next request on the connection in.
      res.end();
      return true;
    } catch (err) {
      const code = err instanceof SendfileError ? err.code : '';
      if (code === 'ETIMEDOUT') this.log.warn(`HTTP boot client ${socket.remoteAddress} took nothing for ${this.idleTimeoutMs} ms: connection closed`);
      else if (!CLIENT_GONE.has(code)) this.log.warn(`HTTP boot sendfile failed: ${errorMessage(err)}`);
      res.destroy();
      return false;
    } finally {
      this.active--;
      closeFile(fd, () => undefined);
    }
  }
}

/** The headers fastify collected for this reply (type, length, range, ETag, request id), as Node takes them. */
function headersOf(reply: FastifyReply): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * Resolves once Node has written the status line and headers into the
 * socket: bytes from the addon must follow them, never overtake them. An
 * empty write carries the pending headers, and its callback runs when the
 * socket took them (after any earlier response on the connection, too).
 */
function flushHeaders(res: ServerResponse, socket: Socket): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (res.destroyed || socket.destroyed) {
      reject(new SendfileError('the connection closed before the headers went out', 'ECANCELED', 0));
      return;
    }
    // A socket destroyed meanwhile drops the write without calling back: 'close' settles it then.
    const onClose = () => reject(new SendfileError('the connection closed before the headers went out', 'ECANCELED', 0));
    res.once('close', onClose);
    res.write('', 'latin1', (err) => {
      res.removeListener('close', onClose);
      if (err) reject(err);
      else resolve();
    });
  });
}
