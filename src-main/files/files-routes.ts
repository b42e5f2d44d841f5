import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errorMessage } from '../core/errors.js';
import { fileBodyOf, registerFileBody } from '../core/http-kit/file-body.js';
import { Ok } from '../core/http-kit/schemas.js';
import {
  BrowseQuerySchema,
  BrowseResultSchema,
  FileDeleteQuerySchema,
  FileDeleteResultSchema,
  FileListQuerySchema,
  FileListSchema,
  FileRootSchema,
  FileUploadQuerySchema,
  FileUploadResultSchema,
  type BrowseQuery,
  type FileDeleteQuery,
  type FileListQuery,
  type FileUploadQuery,
} from './files-contract.js';
import type { FileBrowser } from './file-browser.js';
import type { FilesService } from './files-service.js';

const TAGS = ['files'];

/**
 * The audit detail of an upload or delete names the root and the path as
 * asked, set before the query is validated, so a request refused by the
 * schema or by the path rules is still in the audit log with what it tried
 * (the audit hook escapes control characters and bounds the length).
 */
function auditTarget(request: FastifyRequest): void {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (value: unknown, fallback: string | null) => (typeof value === 'string' ? value : value === undefined ? fallback : JSON.stringify(value));
  request.auditDetail = { root: text(query.root, 'boot'), path: text(query.path, null) };
}

/** Runs a mutating handler, adding its outcome to the audit detail (the refusal's message when it fails). */
async function audited<T>(request: FastifyRequest, run: () => Promise<T>, success: (result: T) => Record<string, string | null>): Promise<T> {
  try {
    const result = await run();
    request.auditDetail = { ...request.auditDetail, ...success(result) };
    return result;
  } catch (error) {
    request.auditDetail = { ...request.auditDetail, refused: errorMessage(error) };
    throw error;
  }
}

/**
 * /files (list, upload, delete inside the file roots), /files/root and
 * /fs/browse (docs/files.md). Reading is a viewer's, changing an operator's,
 * browsing this machine's folders an admin's.
 */
export const filesRoutes = (files: FilesService, browser: FileBrowser): FastifyPluginAsync => async (app) => {
  app.get<{ Querystring: FileListQuery }>(
    '/files',
    {
      config: { access: 'viewer' },
      schema: { tags: TAGS, summary: 'List a directory of a file root (boot, images or drop)', querystring: FileListQuerySchema, response: { 200: Ok(FileListSchema) } },
    },
    async (request) => ({ success: true as const, data: await files.list(request.query) }),
  );

  app.get(
    '/files/root',
    {
      config: { access: 'viewer' },
      schema: { tags: TAGS, summary: 'The file roots: where each is, whether it is usable, and its free and total bytes', response: { 200: Ok(Type.Array(FileRootSchema)) } },
    },
    async () => ({ success: true as const, data: await files.roots() }),
  );

  app.delete<{ Querystring: FileDeleteQuery }>(
    '/files',
    {
      config: { access: 'operator' },
      preValidation: async (request) => auditTarget(request),
      schema: {
        tags: TAGS,
        summary: 'Delete a file, a symlink itself, an empty directory, or a directory with its content (recursive=true); never a root',
        querystring: FileDeleteQuerySchema,
        response: { 200: Ok(FileDeleteResultSchema) },
      },
    },
    async (request) => {
      const removed = await audited(request, () => files.remove(request.query), (result) => ({ path: result.path, type: result.type, recursive: String(request.query.recursive === true) }));
      return { success: true as const, data: removed };
    },
  );

  // Uploads take a raw or multipart body in a scope of their own: the rest of the API stays JSON-only.
  await app.register(async (scope) => {
    await registerFileBody(scope, files.maxUploadBytes);
    // Any other declared type (a browser sends a File with its MIME type) or none at all (curl -T) is the raw file too.
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post<{ Querystring: FileUploadQuery }>(
      '/files/upload',
      {
        config: { access: 'operator' },
        bodyLimit: files.maxUploadBytes,
        preValidation: async (request) => auditTarget(request),
        schema: {
          tags: TAGS,
          summary: 'Upload a file into a root: the body is the file (application/octet-stream) or one multipart file part; never overwrites without overwrite=true',
          querystring: FileUploadQuerySchema,
          response: { 201: Ok(FileUploadResultSchema) },
        },
      },
      async (request, reply) => {
        const length = Number(request.headers['content-length']);
        const abort = new AbortController();
        // A client that goes away mid-upload stops the write; the partial file is removed.
        const onClose = () => {
          if (!request.raw.complete) abort.abort();
        };
        request.raw.once('close', onClose);
        try {
          const result = await audited(
            request,
            () =>
              files.upload({
                query: request.query,
                contentLength: Number.isSafeInteger(length) && length >= 0 ? length : null,
                multipart: request.isMultipart(),
                body: () => fileBodyOf(request, { preservePath: true, response: reply.raw }),
                signal: abort.signal,
              }),
            (received) => ({ path: received.entry.path, size: String(received.entry.size), sha256: received.sha256, replaced: String(received.replaced) }),
          );
          return reply.code(201).send({ success: true as const, data: result });
        } catch (error) {
          // A refusal before the body was read: drain it, so the answer reaches the client.
          request.raw.resume();
          throw error;
        } finally {
          request.raw.off('close', onClose);
        }
      },
    );
  });

  app.get<{ Querystring: BrowseQuery }>(
    '/fs/browse',
    {
      config: { access: 'admin' },
      schema: {
        tags: TAGS,
        summary: 'Browse this machine\'s folders (and files with show=all) inside the allowed roots; without path, the roots themselves',
        querystring: BrowseQuerySchema,
        response: { 200: Ok(BrowseResultSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await browser.browse(request.query) }),
  );
};
