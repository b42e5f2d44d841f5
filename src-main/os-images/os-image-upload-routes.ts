import type { FastifyPluginAsync } from 'fastify';
import { fileBodyOf, registerFileBody } from '../core/http-kit/file-body.js';
import { Ok } from '../core/http-kit/schemas.js';
import type { ImageUploads } from './image-upload.js';
import { MAX_IMAGE_BYTES, OsImageSchema, UploadQuerySchema, type UploadQuery } from './os-images-contract.js';

/** The header that names an upload's id (the id to resume it with). */
export const UPLOAD_ID_HEADER = 'upload-id';

/**
 * POST /os-images/upload in its own encapsulated scope: only here does the
 * API take a raw or multipart body (streamed to disk, never buffered); every
 * other route keeps the JSON-only rule.
 */
export function osImageUploadRoutes(uploads: ImageUploads): FastifyPluginAsync {
  return async (app) => {
    await registerFileBody(app, MAX_IMAGE_BYTES);
    app.post<{ Querystring: UploadQuery }>(
      '/os-images/upload',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['os-images'],
          summary:
            'Upload an ISO: a raw body (file_name in the query; resumable with upload_id and offset, the id is in the Upload-Id header) or multipart/form-data with one file part; 201 with the image, 200 when overwrite=true replaced an image\'s file',
          querystring: UploadQuerySchema,
          response: { 200: Ok(OsImageSchema), 201: Ok(OsImageSchema) },
        },
      },
      async (request, reply) => {
        const length = Number(request.headers['content-length']);
        const result = await uploads.receive({
          query: request.query,
          body: await fileBodyOf(request, { response: reply.raw }),
          contentLength: Number.isSafeInteger(length) && length >= 0 && request.headers['content-length'] !== undefined ? length : null,
          announce: (uploadId) => {
            reply.header(UPLOAD_ID_HEADER, uploadId);
            request.auditDetail = { upload_id: uploadId };
          },
        });
        request.auditDetail = { upload_id: result.uploadId, image_id: String(result.image.id), file_name: result.image.file_name, size: String(result.image.size) };
        return reply.code(result.created ? 201 : 200).send({ success: true as const, data: result.image });
      },
    );
  };
}
