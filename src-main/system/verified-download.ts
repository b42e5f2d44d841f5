import { createHash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../core/errors.js';
import { upstreamError } from './upstream-error.js';

export interface DownloadProgress {
  bytes: number;
  /** From Content-Length; null when the server did not say. */
  total: number | null;
}

export interface VerifiedDownloadOptions {
  url: string;
  /** Expected lowercase hex SHA-256. */
  sha256: string;
  /** Final path; the data is written to `<file>.part` first. */
  file: string;
  /** Limit for the answer headers and for each pause between chunks (not for the whole transfer). */
  timeoutMs: number;
  maxBytes: number;
  onProgress?: (progress: DownloadProgress) => void;
}

export interface DownloadedFile {
  file: string;
  bytes: number;
  sha256: string;
}

/**
 * Streams `url` to `<file>.part` while hashing it, and renames it to `file`
 * only when the SHA-256 matches; on any failure the partial file is removed.
 * The file is fsynced before the rename so a crash never leaves a verified
 * name on unverified bytes.
 */
export async function downloadVerified(options: VerifiedDownloadOptions): Promise<DownloadedFile> {
  const partial = `${options.file}.part`;
  await mkdir(path.dirname(options.file), { recursive: true });
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new DOMException('download stalled', 'TimeoutError')), options.timeoutMs);
  };
  const handle = await open(partial, 'w', 0o600);
  let closed = false;
  try {
    arm();
    let response: Response;
    try {
      response = await fetch(options.url, { signal: controller.signal, redirect: 'follow' });
    } catch (err) {
      throw upstreamError('update download', err, options.timeoutMs);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new AppError('UPSTREAM_FAILED', `update download answered HTTP ${response.status}`);
    }
    const lengthHeader = response.headers.get('content-length');
    const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
    if (total !== null && total > options.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new AppError('UPSTREAM_FAILED', `update file is ${total} bytes, more than the ${options.maxBytes} byte limit`);
    }
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      if (response.body) {
        for await (const chunk of response.body) {
          arm();
          bytes += chunk.byteLength;
          if (bytes > options.maxBytes) throw new AppError('UPSTREAM_FAILED', `update file exceeds the ${options.maxBytes} byte limit`);
          hash.update(chunk);
          await handle.write(chunk);
          options.onProgress?.({ bytes, total });
        }
      }
    } catch (err) {
      throw upstreamError('update download', err, options.timeoutMs);
    }
    clearTimeout(timer);
    const digest = hash.digest('hex');
    if (digest !== options.sha256) {
      throw new AppError('UPSTREAM_FAILED', `update file checksum mismatch: expected SHA-256 ${options.sha256}, got ${digest}`);
    }
    await handle.sync();
    await handle.close();
    closed = true;
    await rename(partial, options.file);
    return { file: options.file, bytes, sha256: digest };
  } catch (err) {
    if (!closed) await handle.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
