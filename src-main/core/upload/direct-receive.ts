import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { hasNativeShape, nativeModuleLoader } from '../native-addon.js';
import { socketDescriptor } from '../sendfile-transfer.js';

/**
 * Upload bodies received by the native addon (native/sendfile/src/receive.c):
 * a thread reads the socket into 1 MiB blocks and hashes each while it is in
 * the CPU's cache, a second one writes them with O_DIRECT (through the page
 * cache where the file system refuses that), where Node's HTTP path hands
 * JavaScript every 64 KiB (bench:images: 360–590 MB/s that way on one core). Used for a raw body
 * with a Content-Length on a plain TCP connection; multipart bodies, TLS and
 * chunked bodies stream through Node. Loaded once, lazily; when the addon is
 * missing (no C compiler or OpenSSL headers at install time, not Linux),
 * directReceiveAvailable() is false and uploads stream.
 */

/** A raw request body the native path may take over: its request, its response (closed after) and its declared length. */
export interface DirectBody {
  request: IncomingMessage;
  response: ServerResponse;
  length: number;
}

interface NativeError extends Error {
  code: string;
  errno: number;
}

interface NativeReceive {
  cancel(): void;
  received(): number;
}

interface ReceiveBinding {
  supported: boolean;
  start(
    socketFd: number,
    fileFd: number,
    fileOffset: number,
    length: number,
    hashPrefix: boolean,
    idleTimeoutMs: number,
    pageCache: boolean,
    callback: (error: NativeError | null, received: number, sha256: string | null, direct: boolean) => void,
  ): NativeReceive;
}

/** A receive that ended early: `code` is the errno name (ENODATA: the peer closed before the end; ECANCELED, ETIMEDOUT, ENOSPC...). */
export class DirectReceiveError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** Bytes written to the file before the failure. */
    readonly received: number,
  ) {
    super(message);
    this.name = 'DirectReceiveError';
  }
}

const load = nativeModuleLoader(
  () => '@bootwright/sendfile/receive',
  'the native upload receive',
  (value): value is ReceiveBinding => hasNativeShape(value, 'start'),
);

/** Whether bodies can be received natively here. */
export function directReceiveAvailable(): boolean {
  return load().binding !== null;
}

/** Why not, or null when they can. */
export function directReceiveUnavailableReason(): string | null {
  return load().reason;
}

/**
 * The request's body as a DirectBody when the native path can take it: a
 * plain TCP socket with a descriptor, a Content-Length, no Transfer-Encoding
 * or Content-Encoding, nothing of it consumed yet; else null (stream it).
 */
export function directBodyOf(request: IncomingMessage, response: ServerResponse): DirectBody | null {
  if (!directReceiveAvailable()) return null;
  const header = request.headers['content-length'];
  const length = Number(header);
  if (header === undefined || !Number.isSafeInteger(length) || length < 0) return null;
  if (request.headers['transfer-encoding'] !== undefined || request.headers['content-encoding'] !== undefined) return null;
  const socket = request.socket as Socket & { encrypted?: boolean };
  if (socket.encrypted || socket.destroyed || socketDescriptor(socket) === null) return null;
  if (request.readableFlowing === true || request.readableEnded) return null;
  return { request, response, length };
}

interface ReadableHandle {
  readStop?: () => number;
  reading?: boolean;
}

/**
 * Stops Node reading the connection and returns the body bytes it had
 * already parsed (those that came with the headers). From here the native
 * thread is the socket's only reader; the response closes the connection,
 * since Node's parser never saw the rest of the body.
 */
export function takeOverBody(body: DirectBody): Buffer {
  const handle = (body.request.socket as unknown as { _handle?: ReadableHandle })._handle;
  if (!handle || typeof handle.readStop !== 'function') throw new DirectReceiveError('the socket has no handle to stop', 'EBADF', 0);
  // The handle, not socket.pause(): the HTTP parser reads the handle directly, and pause() left it reading one more chunk.
  handle.readStop();
  handle.reading = false;
  // Reading the request asks its socket for more (IncomingMessage._read starts the handle again):
  // from here the request only gives up what it holds.
  (body.request as unknown as { _read: () => void })._read = () => undefined;
  body.response.shouldKeepAlive = false;
  const chunks: Buffer[] = [];
  for (let chunk: unknown = body.request.read(); chunk !== null; chunk = body.request.read()) {
    if (Buffer.isBuffer(chunk)) chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export interface DirectReceiveOptions {
  /** Hash the file's bytes before `fileOffset` too (they are part of the upload). */
  hashPrefix: boolean;
  /** Fails with ETIMEDOUT when nothing arrives for this long; 0 waits forever. */
  idleTimeoutMs: number;
  /** Write through the page cache even where O_DIRECT works (tests of that path; file systems where O_DIRECT is slow). */
  pageCache?: boolean;
  /** Called every `progressIntervalMs` with the bytes written so far by this receive. */
  onProgress?: (received: number) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

/**
 * Receives the next `length` bytes of `socket` into the open file `fd`
 * (opened for reading and writing) at `fileOffset`, resolving with the
 * SHA-256 of the file's first fileOffset + length bytes (hashPrefix) or of
 * the received bytes, and whether the bytes went to disk with O_DIRECT.
 * Rejects with a DirectReceiveError; bytes received before the failure are
 * in the file (its `received`).
 */
export function receiveIntoFile(
  socket: Socket,
  fd: number,
  fileOffset: number,
  length: number,
  options: DirectReceiveOptions,
): Promise<{ received: number; sha256: string; direct: boolean }> {
  const { binding, reason } = load();
  if (!binding) return Promise.reject(new DirectReceiveError(reason, 'ENOSYS', 0));
  const socketFd = socketDescriptor(socket);
  if (socketFd === null || socket.destroyed) return Promise.reject(new DirectReceiveError('the socket has no open descriptor', 'EBADF', 0));
  if (options.signal?.aborted) return Promise.reject(new DirectReceiveError('the upload was cancelled', 'ECANCELED', 0));
  return new Promise((resolve, reject) => {
    let receive: NativeReceive | null = null;
    let timer: NodeJS.Timeout | null = null;
    const stop = () => receive?.cancel();
    const settle = () => {
      if (timer) clearInterval(timer);
      socket.removeListener('close', stop);
      options.signal?.removeEventListener('abort', stop);
    };
    try {
      receive = binding.start(socketFd, fd, fileOffset, length, options.hashPrefix, options.idleTimeoutMs, options.pageCache ?? false, (error, received, sha256, direct) => {
        settle();
        if (error || sha256 === null) reject(new DirectReceiveError(error?.message ?? 'no digest', error?.code ?? 'EIO', received));
        else resolve({ received, sha256, direct });
      });
    } catch (err) {
      const code = typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : 'EUNKNOWN';
      reject(new DirectReceiveError(err instanceof Error ? err.message : String(err), code, 0));
      return;
    }
    // Node closed the connection (server stopping, socket destroyed) or the caller gave up: the thread stops within a poll slice.
    socket.once('close', stop);
    options.signal?.addEventListener('abort', stop, { once: true });
    const report = options.onProgress;
    if (report) {
      const current = receive;
      timer = setInterval(() => report(current.received()), options.progressIntervalMs ?? 500);
      timer.unref();
    }
  });
}
