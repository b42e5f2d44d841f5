import { hasNativeShape, nativeModuleLoader } from './native-addon.js';
import type { Socket } from 'node:net';

/**
 * The native sendfile(2) addon (native/sendfile): the kernel copies a file
 * range straight into a TCP socket, on a thread of the addon's own. Loaded
 * once, lazily; when it is missing (no C compiler at install time, not
 * Linux) or fails to load, sendfileAvailable() is false and callers stream.
 */

/** A running transfer; cancel() makes it end with ECANCELED within a poll slice (200 ms). */
interface NativeTransfer {
  cancel(): void;
}

/** What the addon's callback gets: a system error with an errno name in `code`, or null. */
interface NativeError extends Error {
  code: string;
  errno: number;
}

interface SendfileBinding {
  supported: boolean;
  /** Sets a connection's TCP congestion control and answers the one it has afterwards (absent where not built for Linux). */
  congestion?: (socketFd: number, name: string) => string;
  start(
    socketFd: number,
    fileFd: number,
    offset: number,
    length: number,
    idleTimeoutMs: number,
    callback: (error: NativeError | null, bytesSent: number) => void,
  ): NativeTransfer;
}

/** A failed transfer: `code` is the errno name (EPIPE, ECONNRESET, ETIMEDOUT, ECANCELED...). */
export class SendfileError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** Bytes the kernel took before the failure. */
    readonly bytesSent: number,
  ) {
    super(message);
    this.name = 'SendfileError';
  }
}

export interface SendfileRangeOptions {
  /** The transfer fails with ETIMEDOUT when the client takes no byte for this long; 0 waits forever. */
  idleTimeoutMs: number;
}

const load = nativeModuleLoader(
  () => '@bootwright/sendfile',
  'sendfile',
  (value): value is SendfileBinding => hasNativeShape(value, 'start'),
);

/** Whether sendFileRange() can run here. */
export function sendfileAvailable(): boolean {
  return load().binding !== null;
}

/** Why sendfile is not available, or null when it is (logged once, printed by tests and the bench). */
export function sendfileUnavailableReason(): string | null {
  return load().reason;
}

/**
 * Asks for TCP congestion control `name` on a connection (Linux lets an
 * unprivileged process pick any algorithm in
 * net.ipv4.tcp_allowed_congestion_control); answers the algorithm the
 * connection has afterwards, or null when that cannot be told (no addon, no
 * descriptor).
 */
export function useCongestionControl(socket: Socket, name: string): string | null {
  const { binding } = load();
  const fd = socketDescriptor(socket);
  if (!binding?.congestion || fd === null || socket.destroyed) return null;
  try {
    return binding.congestion(fd, name);
  } catch {
    return null;
  }
}

/** The descriptor under a plain TCP socket (libuv's TCP handle exposes it on POSIX), or null. */
export function socketDescriptor(socket: Socket): number | null {
  const handle: unknown = (socket as unknown as { _handle?: unknown })._handle;
  if (typeof handle !== 'object' || handle === null) return null;
  const fd = (handle as { fd?: unknown }).fd;
  return typeof fd === 'number' && Number.isInteger(fd) && fd >= 0 ? fd : null;
}

/**
 * Sends `length` bytes of the open file `fd` from `start` into the socket,
 * resolving with the bytes sent once the kernel took them all. The caller
 * keeps both descriptors (the addon works on duplicates) and must not write
 * to the socket until this settles. Ends early with a SendfileError when
 * the client goes away (EPIPE, ECONNRESET), stalls past the idle timeout
 * (ETIMEDOUT) or the socket closes on Node's side (ECANCELED).
 */
export function sendFileRange(socket: Socket, fd: number, start: number, length: number, options: SendfileRangeOptions): Promise<number> {
  const { binding, reason } = load();
  if (!binding) return Promise.reject(new SendfileError(reason, 'ENOSYS', 0));
  const socketFd = socketDescriptor(socket);
  if (socketFd === null || socket.destroyed) return Promise.reject(new SendfileError('the socket has no open descriptor', 'EBADF', 0));
  return new Promise<number>((resolve, reject) => {
    let transfer: NativeTransfer | null = null;
    // Node closed its side (server stopping, socket destroyed): stop writing into the connection.
    const onClose = () => transfer?.cancel();
    try {
      transfer = binding.start(socketFd, fd, start, length, options.idleTimeoutMs, (error, bytesSent) => {
        socket.removeListener('close', onClose);
        if (error) reject(new SendfileError(error.message, error.code, bytesSent));
        else resolve(bytesSent);
      });
    } catch (err) {
      const code = typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : 'EUNKNOWN';
      reject(new SendfileError(err instanceof Error ? err.message : String(err), code, 0));
      return;
    }
    socket.once('close', onClose);
  });
}
