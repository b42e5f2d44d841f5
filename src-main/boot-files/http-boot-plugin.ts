import { close as closeFile, createReadStream, fstat as fstatCallback, open as openCallback } from 'node:fs';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import type { Metrics } from '../metrics/metrics.js';
import { unmapIpv4 } from '../network/ip-math.js';
import type { BootFiles } from './boot-files.js';
import { parseRange, type ByteRange } from './byte-range.js';
import { contentTypeFor } from './content-type.js';
import { reportTransfer } from './http-transfer-report.js';
import { SendfileReplier, type SendfileSettings } from './sendfile-reply.js';
import { mapStretches, stretchesFit, stretchesSize, type FileStretch } from './virtual-files.js';

const openFile = promisify(openCallback);
const fstat = promisify(fstatCallback);

/** The URL prefix of the boot root: public, unauthenticated (booting machines have no credentials). */
export const BOOT_PREFIX = '/boot/';

/** Read-stream chunk: 256 KiB beat the 64 KiB default and 1 MiB in bench/http (fewer reads than the first, less memory churn than the second). */
const STREAM_CHUNK_BYTES = 256 * 1024;

type BootRequest = FastifyRequest<{ Params: { '*': string } }>;

/** What /boot/ needs: the boot files to look paths up in, and the ground services it reports to. */
export interface HttpBootDeps {
  bootFiles: Pick<BootFiles, 'lookup'>;
  metrics: Metrics;
  events: EventLog;
  log: Logger;
}

export interface HttpBootOptions {
  /** The sendfile(2) path for file bodies (tests shorten its idle timeout or turn it off). */
  sendfile?: SendfileSettings;
}

/**
 * GET and HEAD /boot/<path>: virtual files first, then files under the boot
 * root, confined like TFTP (403 for paths that climb out, 404 otherwise).
 * Files are sent from an open descriptor (the size sent is the size of the
 * file read), with single byte ranges (206/416), ETag and Last-Modified: by
 * sendfile(2) on plain TCP where the native addon runs (sendfile-reply.ts),
 * else as a read stream through Node.
 */
export function httpBootPlugin(deps: HttpBootDeps, options: HttpBootOptions = {}): FastifyPluginAsync {
  const responses = deps.metrics.counter({
    name: 'bootwright_http_boot_responses_total',
    help: 'Responses under /boot/ by status code.',
    labelNames: ['status'] as const,
  });
  // The HTTP twin of bootwright_tftp_bytes_sent_total (the dashboard charts both).
  const bytesSent = deps.metrics.counter({ name: 'bootwright_http_boot_bytes_sent_total', help: 'Body bytes of boot files delivered whole over HTTP.' });
  const log = deps.log.scope('http-boot');
  const sendfile = new SendfileReplier(log, options.sendfile);

  return async (app) => {
    app.addHook('onResponse', async (request, reply) => {
      if (request.url.startsWith(BOOT_PREFIX)) responses.inc({ status: String(reply.statusCode) });
    });
    const options = { config: { access: 'public' as const }, schema: { hide: true }, exposeHeadRoute: false };
    const counted = { ...deps, delivered: (bytes: number) => bytesSent.inc(bytes) };
    app.get<{ Params: { '*': string } }>(`${BOOT_PREFIX}*`, options, (request, reply) => serve(counted, log, sendfile, request, reply, false));
    app.head<{ Params: { '*': string } }>(`${BOOT_PREFIX}*`, options, (request, reply) => serve(counted, log, sendfile, request, reply, true));
  };
}

async function serve(deps: HttpBootDeps & { delivered: (bytes: number) => void }, log: Logger, sendfile: SendfileReplier, request: BootRequest, reply: FastifyReply, head: boolean) {
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const client = { ip: unmapIpv4(request.ip), protocol: 'http' as const, query: new URLSearchParams(query) };
  let found;
  try {
    found = await deps.bootFiles.lookup(request.params['*'], client);
  } catch (err) {
    log.error(`boot file ${request.params['*']} for ${client.ip} failed: ${errorMessage(err)}`);
    return reply.code(500).type('text/plain').send('boot file could not be generated\n');
  }
  if (found.kind === 'refused') {
    return found.reason === 'forbidden'
      ? reply.code(403).type('text/plain').send('forbidden\n')
      : reply.code(404).type('text/plain').send('not found\n');
  }
  // A provider's file on disk is held until the response is over; it learns the bytes that went out.
  let bodyBytes = 0;
  // Whether every body byte went out, asked when the response closes. A native transfer answers for
  // itself once it settles: a fast client (curl, iPXE) reads the last byte and hangs up before the
  // sender's callback, so the connection's 'close' can come first. A stream: Node finished, or
  // ended it (the whole file was handed to the socket) before the client hung up.
  let sending: Promise<boolean> | null = null;
  const delivered = async (): Promise<boolean> => (sending ? sending : reply.raw.writableFinished || reply.raw.writableEnded);
  const release = found.kind === 'disk' ? found.release : undefined;
  if (release) reply.raw.once('close', () => void delivered().then((whole) => release(whole ? bodyBytes : 0)));
  reply.header('accept-ranges', 'bytes');
  if (found.kind === 'virtual') {
    // Generated per client: never cached by anyone.
    reply.header('cache-control', 'no-store').type(found.contentType);
    const range = chooseRange(request, reply, found.content.length, null);
    if (range === 'unsatisfiable') return reply;
    const body = range ? found.content.subarray(range.start, range.end + 1) : found.content;
    reply.header('content-length', String(body.length));
    return reply.send(head ? undefined : body);
  }

  // A plain descriptor, not a FileHandle: the classic read stream on it reads with callbacks, which
  // streamed a 100 MB file markedly faster than a FileHandle stream in bench/http.
  let fd: number;
  try {
    fd = await openFile(found.absolute, 'r');
  } catch {
    return reply.code(404).type('text/plain').send('not found\n');
  }
  let handedOver = false;
  try {
    const stats = await fstat(fd);
    if (!stats.isFile()) return reply.code(404).type('text/plain').send('not found\n');
    // The served bytes: the whole file, or stretches of it (a file inside a mounted ISO), checked against the file opened.
    const stretches = found.stretches ?? [{ offset: 0, length: stats.size }];
    if (found.stretches && !stretchesFit(found.stretches, stats.size)) return reply.code(404).type('text/plain').send('not found\n');
    const size = stretchesSize(stretches);
    const etag = etagOf(size, stats.mtimeMs, found.stretches);
    reply
      .type(contentTypeFor(found.path))
      .header('etag', etag)
      .header('last-modified', stats.mtime.toUTCString())
      .header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag && request.headers.range === undefined) return reply.code(304).send();
    const range = chooseRange(request, reply, size, etag);
    if (range === 'unsatisfiable') return reply;
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const length = size === 0 ? 0 : end - start + 1;
    reply.header('content-length', String(length));
    if (head || length === 0) return reply.send();
    bodyBytes = length;
    // The sender owns the descriptor from here and closes it on every path.
    handedOver = true;
    const socket = request.raw.socket;
    const native = sendfile.usable(socket);
    const pieces = mapStretches(stretches, start, length);
    reportTransfer(deps.events, deps.delivered, reply.raw, delivered, { ip: client.ip, file: found.path, bytes: length, range: range !== null, method: native ? 'sendfile' : 'stream' });
    if (native) {
      // Hijacked: fastify ignores what the handler returns; the transfer runs on after it.
      sending = sendfile.send(reply, socket, fd, pieces);
      return reply;
    }
    // fastify destroys the stream (closing the descriptor) if the client goes away.
    return reply.send(pieceStream(fd, pieces));
  } finally {
    if (!handedOver) closeFile(fd, () => undefined);
  }
}

/**
 * A strong ETag: size and modification time of the file, plus where the
 * bytes start for a file inside another (two files of one ISO differ there).
 */
function etagOf(size: number, mtimeMs: number, stretches: readonly FileStretch[] | null): string {
  const base = `${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}`;
  const first = stretches?.[0];
  return first ? `"${base}-${first.offset.toString(16)}"` : `"${base}"`;
}

/**
 * The body read from `fd`: one read stream for one piece; for several (a
 * range across a multi-extent file's extents) the pieces one after another.
 * Owns `fd` and closes it when done or destroyed.
 */
function pieceStream(fd: number, pieces: readonly FileStretch[]): Readable {
  const [only] = pieces;
  if (pieces.length === 1 && only) {
    return createReadStream('', { fd, start: only.offset, end: only.offset + only.length - 1, highWaterMark: STREAM_CHUNK_BYTES, autoClose: true });
  }
  async function* chained(): AsyncGenerator<Buffer> {
    try {
      for (const piece of pieces) {
        if (piece.length === 0) continue;
        const part = createReadStream('', { fd, start: piece.offset, end: piece.offset + piece.length - 1, highWaterMark: STREAM_CHUNK_BYTES, autoClose: false });
        for await (const chunk of part) yield chunk as Buffer;
      }
    } finally {
      // Runs on the end and when the response is destroyed (the generator is returned).
      closeFile(fd, () => undefined);
    }
  }
  return Readable.from(chained(), { objectMode: false });
}

/**
 * Applies Range (and If-Range): sets 206 and Content-Range for one satisfiable
 * range, answers 416 for an unsatisfiable one, null for the whole content.
 */
function chooseRange(request: FastifyRequest, reply: FastifyReply, size: number, etag: string | null): ByteRange | 'unsatisfiable' | null {
  const ifRange = request.headers['if-range'];
  // If-Range with anything but our current strong ETag: the client's copy is stale, send it all (RFC 9110 §13.1.5).
  if (ifRange !== undefined && (etag === null || ifRange !== etag)) return null;
  const range = parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.code(416).header('content-range', `bytes */${size}`).type('text/plain').send('range not satisfiable\n');
    return range;
  }
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  return range;
}
