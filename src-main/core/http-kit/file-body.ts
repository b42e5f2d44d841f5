import type { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { AppError } from '../errors.js';
import { directBodyOf, type DirectBody } from '../upload/direct-receive.js';

/**
 * File uploads as request bodies, for the routes that take a whole file
 * (POST /os-images/upload, POST /files/upload): a raw body
 * (application/octet-stream, what curl --data-binary and resumable clients
 * send) or multipart/form-data with one file part (what a browser form
 * sends). Either way the route gets a stream, never a buffered body, and
 * hands it to core/upload/receive-file.ts.
 *
 * Register once in the encapsulated scope of the upload routes, so the rest
 * of the API keeps its JSON-only body rule.
 */
export async function registerFileBody(scope: FastifyInstance, maxBytes: number): Promise<void> {
  scope.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
  // Any other type (or none) is a raw file too: `curl -T` sends no Content-Type and
  // `--data-binary` says x-www-form-urlencoded. JSON keeps its parser (and gets 415 from fileBodyOf).
  scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await scope.register(fastifyMultipart, { limits: { files: 1, fileSize: maxBytes, fields: 8, fieldSize: 4096, parts: 10 } });
}

export interface FileBody {
  stream: Readable;
  /** The multipart part's file name; null for a raw body (the query names the file). */
  fileName: string | null;
  /** A raw body the native addon can receive instead of `stream` (core/upload/direct-receive.ts), else null. */
  direct: DirectBody | null;
}

export interface FileBodyOptions {
  /**
   * Hand over a multipart part's file name as sent (`../x`, `a/b`) instead
   * of busboy's basename of it, for a route that refuses such names with an
   * error (and an audit entry) rather than silently shortening them.
   */
  preservePath?: boolean;
  /**
   * The route's response (fastify's reply.raw): given, a raw body may be
   * received by the native addon, and the response then closes the
   * connection.
   */
  response?: ServerResponse;
}

/** The request's file: the raw body stream or the (first) multipart file part. */
export async function fileBodyOf(request: FastifyRequest, options: FileBodyOptions = {}): Promise<FileBody> {
  if (request.isMultipart()) {
    const part = await request.file(options.preservePath ? { preservePath: true } : undefined);
    if (!part) throw new AppError('BAD_REQUEST', 'the multipart body has no file part');
    return { stream: part.file, fileName: part.filename || null, direct: null };
  }
  const body = request.body as Readable | undefined;
  if (!body || typeof body.pipe !== 'function') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the file as application/octet-stream or multipart/form-data');
  }
  // The parser handed the body on untouched (registerFileBody): it is the request itself.
  const direct = options.response && body === request.raw ? directBodyOf(request.raw, options.response) : null;
  return { stream: body, fileName: null, direct };
}
