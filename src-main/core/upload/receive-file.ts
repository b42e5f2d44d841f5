import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileSystemSpace } from '../../metrics/disk-usage.js';
import { AppError } from '../errors.js';
import { DirectReceiveError, receiveIntoFile, takeOverBody, type DirectBody } from './direct-receive.js';

/**
 * Receiving a file from a request body onto disk: the one way uploads are
 * written (OS images, /files). The bytes stream to a partial file while
 * SHA-256 is computed on the way, so memory stays flat for any size; the
 * file becomes visible under its final name only when it is complete (a
 * rename or a no-clobber link), so a half-written upload is never mistaken
 * for a finished one. On failure the partial file is removed, unless the
 * caller keeps it to resume (raw uploads with an upload id).
 */

export interface ReceiveFileOptions {
  /** The request body (or a multipart file part). */
  source: Readable;
  /**
   * The same body as a raw request the native addon may take over
   * (direct-receive.ts): received by a native thread in 1 MiB blocks, hashed
   * and written with O_DIRECT, where `source` would hand every 64 KiB to
   * JavaScript.
   */
  direct?: DirectBody | null;
  /** Where the finished file goes (absolute). */
  finalPath: string;
  /** Where bytes go until the file is complete (absolute, same file system as finalPath). */
  partialPath: string;
  /** Replace an existing file at finalPath; else CONFLICT. */
  overwrite: boolean;
  /** Refuse (PAYLOAD_TOO_LARGE) as soon as more bytes than this arrive. */
  maxBytes: number;
  /** The whole file's size when the client said it: checked against free space first, and against what arrived. */
  expectedSize?: number;
  /** SHA-256 (hex) the finished file must have; else VALIDATION_FAILED and the file is removed. */
  expectedSha256?: string;
  /**
   * Resume: bytes already in partialPath from an earlier attempt. They are
   * read back through the hash first; the partial file must hold exactly
   * this many bytes (else CONFLICT with the actual count).
   */
  resumeFrom?: number;
  /** Keep partialPath when the body breaks off or ends short of `expectedSize` (resumable uploads); default false: remove it. */
  keepPartialOnFailure?: boolean;
  /**
   * Checks the complete file before it is published (e.g. that an ISO reader
   * can open it). A throw removes the partial file and is passed on, so a
   * refused file is never visible under its final name.
   */
  verify?: (partialPath: string, received: { size: number; sha256: string }) => Promise<void>;
  /** Called as bytes arrive (at most every `progressIntervalMs`) and once at the end. */
  onProgress?: (received: number, total: number | null) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

export interface ReceivedFile {
  path: string;
  size: number;
  sha256: string;
}

/** How much of an upload may wait in memory for the disk (per upload). */
const WRITE_BUFFER_BYTES = 8 * 1024 * 1024;

/** A natively received body that stops arriving for this long fails (ETIMEDOUT), and is resumable like a cut connection. */
const DIRECT_IDLE_TIMEOUT_MS = 300_000;

/** Bytes kept free beyond the upload itself, so an upload never fills the disk to the last block. */
export const FREE_SPACE_RESERVE_BYTES = 256 * 1024 * 1024;

/** Refuses (413, with the numbers) an upload of `bytes` into `dir` when the file system cannot hold it and a reserve. */
export async function requireFreeSpace(dir: string, bytes: number): Promise<void> {
  const space = await fileSystemSpace(dir);
  if (!space) return;
  if (bytes + FREE_SPACE_RESERVE_BYTES > space.free) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `not enough free space in ${dir}: the file needs ${bytes} bytes, ${space.free} are free (${FREE_SPACE_RESERVE_BYTES} are kept in reserve)`,
      { details: [{ field: 'size', message: `${space.free} bytes free` }] },
    );
  }
}

/** Counts, hashes and limits the bytes flowing through. */
class Meter extends Transform {
  received: number;
  private lastReport = 0;

  constructor(
    private readonly hash: Hash,
    start: number,
    private readonly limit: number,
    private readonly report: ((received: number) => void) | undefined,
    private readonly intervalMs: number,
  ) {
    super();
    this.received = start;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit) {
      done(new AppError('PAYLOAD_TOO_LARGE', `the upload exceeds ${this.limit} bytes`));
      return;
    }
    this.hash.update(chunk);
    const now = Date.now();
    if (this.report && now - this.lastReport >= this.intervalMs) {
      this.lastReport = now;
      this.report(this.received);
    }
    done(null, chunk);
  }
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

async function removeQuietly(file: string): Promise<void> {
  await unlink(file).catch(() => undefined);
}

/** Hashes the first `bytes` of `file` (the part an earlier attempt received). */
async function hashPrefix(hash: Hash, file: string, bytes: number): Promise<void> {
  if (bytes === 0) return;
  await pipeline(createReadStream(file, { start: 0, end: bytes - 1 }), async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) hash.update(chunk);
  });
}

export async function receiveFile(options: ReceiveFileOptions): Promise<ReceivedFile> {
  const { source, finalPath, partialPath } = options;
  const resumeFrom = options.resumeFrom ?? 0;
  const keepPartial = options.keepPartialOnFailure ?? false;
  const total = options.expectedSize ?? null;

  if (!options.overwrite && (await sizeOf(finalPath)) !== null) {
    source.resume();
    throw new AppError('CONFLICT', `${path.basename(finalPath)} already exists; send overwrite=true to replace it`);
  }
  if (total !== null && total > options.maxBytes) {
    source.resume();
    throw new AppError('PAYLOAD_TOO_LARGE', `the file is ${total} bytes; at most ${options.maxBytes} are accepted`);
  }
  await mkdir(path.dirname(partialPath), { recursive: true });
  if (resumeFrom > 0) {
    const have = (await sizeOf(partialPath)) ?? 0;
    if (have !== resumeFrom) {
      source.resume();
      throw new AppError('CONFLICT', `the partial upload holds ${have} bytes, not ${resumeFrom}; resume from offset ${have}`, {
        details: [{ field: 'offset', message: `resume from ${have}` }],
      });
    }
  }
  if (total !== null) await requireFreeSpace(path.dirname(partialPath), Math.max(0, total - resumeFrom));

  // With a declared size, a byte past it is refused at once (it is not a short body to resume).
  const limit = total !== null ? Math.min(options.maxBytes, total) : options.maxBytes;
  const direct = options.direct ?? null;
  // A body that ends short is the same event as a connection cut (a client that half-closed): resumable.
  let shortBody: AppError | null = null;
  // Once every byte is here, a refusal (hash, verify, publish) is final: the partial file goes.
  let complete = false;
  try {
    if (direct && resumeFrom + direct.length > limit) {
      throw new AppError('PAYLOAD_TOO_LARGE', `the upload exceeds ${limit} bytes: the body carries ${direct.length} from offset ${resumeFrom}`);
    }
    const { received, sha256 } = direct ? await receiveDirectly(options, direct, resumeFrom) : await receiveStreamed(options, resumeFrom, limit);
    if (total !== null && received !== total) {
      shortBody = new AppError('BAD_REQUEST', `the body ended after ${received} of ${total} bytes; resume from offset ${received}`, {
        details: [{ field: 'offset', message: `resume from ${received}` }],
      });
      throw shortBody;
    }
    complete = true;
    if (options.expectedSha256 && options.expectedSha256.toLowerCase() !== sha256) {
      await removeQuietly(partialPath);
      throw new AppError('VALIDATION_FAILED', `the file's SHA-256 is ${sha256}, not ${options.expectedSha256.toLowerCase()}`, {
        details: [{ field: 'sha256', message: `received ${sha256}` }],
      });
    }
    if (options.verify) await options.verify(partialPath, { size: received, sha256 });
    await syncData(partialPath);
    await publish(partialPath, finalPath, options.overwrite);
    options.onProgress?.(received, total);
    return { path: finalPath, size: received, sha256 };
  } catch (error) {
    // A broken body may be resumed; anything we refused (size, hash, conflict) starts over.
    const resumable = keepPartial && !complete && (error === shortBody || !(error instanceof AppError));
    if (!resumable) await removeQuietly(partialPath);
    throw error;
  }
}

interface Received {
  received: number;
  sha256: string;
}

/** The body through Node's stream into the partial file, hashed and counted on the way. */
async function receiveStreamed(options: ReceiveFileOptions, resumeFrom: number, limit: number): Promise<Received> {
  const total = options.expectedSize ?? null;
  const hash = createHash('sha256');
  await hashPrefix(hash, options.partialPath, resumeFrom);
  const meter = new Meter(hash, resumeFrom, limit, options.onProgress ? (received) => options.onProgress?.(received, total) : undefined, options.progressIntervalMs ?? 500);
  // A deep write buffer: the socket keeps being read while a write is in the thread pool, and
  // the stream hands the pile to one writev. With the default 16 KiB every 64 KiB chunk waited
  // for its own write (bench:images: 490 → 587 MB/s; memory stays bounded by it).
  const sink = createWriteStream(options.partialPath, { flags: resumeFrom > 0 ? 'r+' : 'w', start: resumeFrom, highWaterMark: WRITE_BUFFER_BYTES });
  await pipeline(options.source, meter, sink, options.signal ? { signal: options.signal } : {});
  return { received: meter.received, sha256: hash.digest('hex') };
}

/**
 * The body by the native addon: Node stops reading the connection, the
 * bytes it had already parsed are written first, and native threads receive,
 * hash and write the rest, the hash covering the whole file (a resumed
 * prefix included). A connection cut, a stall or a cancel ends it like a
 * broken stream (resumable, every received byte in the file); the response
 * closes the connection.
 */
async function receiveDirectly(options: ReceiveFileOptions, direct: DirectBody, resumeFrom: number): Promise<Received> {
  const total = options.expectedSize ?? null;
  const file = await open(options.partialPath, resumeFrom > 0 ? 'r+' : 'w+');
  try {
    const head = takeOverBody(direct);
    if (head.length > 0) await file.write(head, 0, head.length, resumeFrom);
    const start = resumeFrom + head.length;
    const rest = direct.length - head.length;
    if (rest <= 0) {
      const hash = createHash('sha256');
      await hashPrefix(hash, options.partialPath, start);
      return { received: start, sha256: hash.digest('hex') };
    }
    const report = options.onProgress;
    try {
      const { sha256 } = await receiveIntoFile(direct.request.socket, file.fd, start, rest, {
        hashPrefix: true,
        idleTimeoutMs: DIRECT_IDLE_TIMEOUT_MS,
        ...(report ? { onProgress: (received: number) => report(start + received, total), progressIntervalMs: options.progressIntervalMs ?? 500 } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { received: start + rest, sha256 };
    } catch (error) {
      if (!(error instanceof DirectReceiveError)) throw error;
      const message =
        error.code === 'ENODATA'
          ? `the connection closed after ${start + error.received} of the body's ${resumeFrom + direct.length} bytes`
          : `receiving the body failed after ${start + error.received} bytes: ${error.message}`;
      throw new DirectReceiveError(message, error.code, start + error.received);
    }
  } finally {
    await file.close();
  }
}

/** Flushes the file's bytes to disk before it gets its name, so a published file is whole after a power cut too. */
async function syncData(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Moves the finished partial file to its name; without overwrite, a file that appeared meanwhile is not replaced. */
async function publish(partialPath: string, finalPath: string, overwrite: boolean): Promise<void> {
  await mkdir(path.dirname(finalPath), { recursive: true });
  if (overwrite) {
    await rename(partialPath, finalPath);
    return;
  }
  try {
    await link(partialPath, finalPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      // File systems without hard links (FAT, some FUSE mounts): check, then rename (a tiny race, no clobber of an old file).
      if ((await sizeOf(finalPath)) !== null) {
        await removeQuietly(partialPath);
        throw new AppError('CONFLICT', `${path.basename(finalPath)} already exists; send overwrite=true to replace it`);
      }
      await rename(partialPath, finalPath);
      return;
    }
    await removeQuietly(partialPath);
    if (code === 'EEXIST') throw new AppError('CONFLICT', `${path.basename(finalPath)} already exists; send overwrite=true to replace it`);
    throw error;
  }
  await removeQuietly(partialPath);
}
