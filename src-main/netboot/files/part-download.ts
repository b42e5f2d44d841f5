import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { errorMessage } from '../../core/errors.js';
import type { DigestAlgorithm } from './checksums.js';
import { fetchUrl, FetchRefused, TransferError } from './http-fetch.js';

/*
 * One URL downloaded into `<file>.part`, resumable: what a cut-off attempt
 * left is kept with the response's validator (`<file>.part.json`), and the
 * next attempt asks for the rest with Range and If-Range (RFC 9110 §14.2,
 * §13.1.5). A server that answers 200 instead (no range support, or the
 * file changed) gets a clean restart from byte 0. The digests are computed
 * while writing (over the kept prefix first when resuming).
 */

/** Attempts of one download in a row, as long as each attempt received something (a dead server fails at once). */
export const MAX_ATTEMPTS = 4;

export interface PartDownloadOptions {
  url: string;
  /** The final file's path; the download writes `<file>.part` and `<file>.part.json`. */
  file: string;
  /** Digests computed: always sha256 (the index keeps it), and sha512 when a checksum file uses it. */
  algorithms: readonly DigestAlgorithm[];
  stallTimeoutMs: number;
  proxy: string | null;
  /** Largest body accepted (announced or received). */
  maxBytes: number;
  /** Why `maxBytes` (for the error message). */
  maxBytesReason: string;
  onProgress: (done: number, total: number | null) => void;
  /** Bytes received from the network (stats). */
  onBytes: (bytes: number) => void;
  signal?: AbortSignal;
  /** Observes every request made (tests assert Range on a resume). */
  onRequest?: (headers: Record<string, string>) => void;
}

export interface PartDownloadResult {
  size: number;
  digests: Partial<Record<DigestAlgorithm, string>>;
}

interface PartMeta {
  url: string;
  etag: string | null;
  last_modified: string | null;
}

export const partPath = (file: string) => `${file}.part`;
const metaPath = (file: string) => `${file}.part.json`;

/** Removes a download's leftovers. */
export async function removePart(file: string): Promise<void> {
  await rm(partPath(file), { force: true });
  await rm(metaPath(file), { force: true });
}

/**
 * Downloads `url` completely into `<file>.part`. Retries a transfer that
 * broke after receiving bytes, resuming where it stopped. Throws
 * FetchRefused (HTTP errors, bad redirects, oversize) or TransferError.
 */
export async function downloadPart(options: PartDownloadOptions): Promise<PartDownloadResult> {
  let lastError: Error | null = null;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const before = await partSize(options);
    try {
      return await attemptOnce(options);
    } catch (err) {
      if (!(err instanceof TransferError) || options.signal?.aborted) throw err;
      lastError = err;
      // Only a transfer that made progress is worth another go; a silent or refusing server fails now.
      if ((await partSize(options)) <= before) break;
    }
  }
  throw lastError ?? new TransferError(`${options.url}: download failed`);
}

async function partSize(options: PartDownloadOptions): Promise<number> {
  const info = await stat(partPath(options.file)).catch(() => null);
  return info?.size ?? 0;
}

async function readMeta(options: PartDownloadOptions): Promise<PartMeta | null> {
  try {
    const meta = JSON.parse(await readFile(metaPath(options.file), 'utf8')) as Partial<PartMeta>;
    if (meta.url !== options.url) return null;
    return { url: meta.url, etag: meta.etag ?? null, last_modified: meta.last_modified ?? null };
  } catch {
    return null;
  }
}

async function attemptOnce(options: PartDownloadOptions): Promise<PartDownloadResult> {
  const part = partPath(options.file);
  let existing = await partSize(options);
  const meta = existing > 0 ? await readMeta(options) : null;
  if (existing > 0 && !meta) {
    // A leftover of another URL or without its validator: not safe to continue.
    await removePart(options.file);
    existing = 0;
  }
  const headers: Record<string, string> = {};
  if (existing > 0 && meta) {
    headers.range = `bytes=${existing}-`;
    const validator = meta.etag && !meta.etag.startsWith('W/') ? meta.etag : meta.last_modified;
    if (validator) headers['if-range'] = validator;
  }
  options.onRequest?.(headers);
  const { response } = await fetchUrl(options.url, { headers, stallTimeoutMs: options.stallTimeoutMs, proxy: options.proxy, ...(options.signal ? { signal: options.signal } : {}) });
  const status = response.statusCode ?? 0;
  let start: number;
  let total: number | null;
  if (status === 206 && existing > 0) {
    const range = parseContentRange(response.headers['content-range']);
    if (!range || range.start !== existing) {
      response.destroy();
      await removePart(options.file);
      throw new TransferError(`${options.url}: the server resumed at the wrong place (${response.headers['content-range'] ?? 'no Content-Range'}); starting again`);
    }
    start = existing;
    total = range.total;
  } else if (status === 200) {
    // No range support, or the file changed since the first attempt (If-Range failed): start clean.
    start = 0;
    const length = Number(response.headers['content-length']);
    total = Number.isSafeInteger(length) && length >= 0 ? length : null;
  } else if (status === 416 && existing > 0) {
    response.resume();
    await removePart(options.file);
    throw new TransferError(`${options.url}: the kept part no longer fits the file (416); starting again`);
  } else {
    response.resume();
    throw new FetchRefused(`${options.url} answered ${status} ${response.statusMessage ?? ''}`.trim());
  }
  if (total !== null && total > options.maxBytes) {
    response.destroy();
    throw new FetchRefused(`${options.url} is ${total} bytes, more than ${options.maxBytesReason} (${options.maxBytes} bytes)`);
  }
  if (start === 0) {
    const etag = headerText(response.headers.etag);
    const lastModified = headerText(response.headers['last-modified']);
    await writeFile(metaPath(options.file), JSON.stringify({ url: options.url, etag, last_modified: lastModified } satisfies PartMeta));
  }

  const hashes = new Map<DigestAlgorithm, Hash>(options.algorithms.map((algorithm) => [algorithm, createHash(algorithm)]));
  if (start > 0) await hashPrefix(part, start, hashes);
  const handle = await open(part, start === 0 ? 'w' : 'r+');
  let done = start;
  try {
    options.onProgress(done, total);
    done = await writeBody(response, handle, done, hashes, options, total);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (total !== null && done !== total) throw new TransferError(`${options.url}: the transfer ended after ${done} of ${total} bytes`);
  const digests: Partial<Record<DigestAlgorithm, string>> = {};
  for (const [algorithm, hash] of hashes) digests[algorithm] = hash.digest('hex');
  return { size: done, digests };
}

async function writeBody(
  response: IncomingMessage,
  handle: Awaited<ReturnType<typeof open>>,
  offset: number,
  hashes: Map<DigestAlgorithm, Hash>,
  options: PartDownloadOptions,
  total: number | null,
): Promise<number> {
  let done = offset;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (done + chunk.length > options.maxBytes) {
        response.destroy();
        throw new FetchRefused(`${options.url} is larger than ${options.maxBytesReason} (${options.maxBytes} bytes)`);
      }
      await handle.write(chunk, 0, chunk.length, done);
      for (const hash of hashes.values()) hash.update(chunk);
      done += chunk.length;
      options.onBytes(chunk.length);
      options.onProgress(done, total);
    }
  } catch (err) {
    if (err instanceof FetchRefused || err instanceof TransferError) throw err;
    throw new TransferError(`${options.url}: the transfer broke after ${done} bytes: ${errorMessage(err)}`);
  }
  // Node ends the body without an error when the connection closes early on some paths: the length check catches it.
  if (response.readableAborted || !response.complete) throw new TransferError(`${options.url}: the connection closed after ${done} bytes`);
  return done;
}

async function hashPrefix(part: string, length: number, hashes: Map<DigestAlgorithm, Hash>): Promise<void> {
  for await (const chunk of createReadStream(part, { start: 0, end: length - 1 }) as AsyncIterable<Buffer>) {
    for (const hash of hashes.values()) hash.update(chunk);
  }
}

function headerText(value: string | string[] | undefined): string | null {
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

/** `bytes <start>-<end>/<total>`; total may be `*`. */
export function parseContentRange(value: string | undefined): { start: number; end: number; total: number | null } | null {
  const match = value ? /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value.trim()) : null;
  if (!match || match[1] === undefined || match[2] === undefined || match[3] === undefined) return null;
  const start = Number(match[1]);
  const end = Number(match[2]);
  const total = match[3] === '*' ? null : Number(match[3]);
  if (end < start || (total !== null && end >= total)) return null;
  return { start, end, total };
}
