import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { parseRange } from '../boot-files/index.js';
import { AppError } from '../core/errors.js';
import { IdParams, ListQueryProperties, Ok, OkList, StrictObject } from '../core/http-kit/schemas.js';
import type { ImageIntake } from './image-intake.js';
import type { ImageSettingsStore } from './image-settings.js';
import { FILE_MISSING, type OsImageService } from './os-image-service.js';
import {
  ExtractBodySchema,
  IMAGE_STATES,
  ImageSettingsSchema,
  ImageSettingsUpdateSchema,
  ImportBodySchema,
  OS_FAMILIES,
  OsImageSchema,
  OsImageUpdateSchema,
  PartialUploadSchema,
  UPLOAD_ID_PATTERN,
  type ExtractBody,
  type ImageSettings,
  type ImportBody,
  type OsImageUpdate,
} from './os-images-contract.js';
import type { PartialUploads } from './partial-uploads.js';

const tags = ['os-images'];

const ListQuerySchema = Type.Object(
  {
    ...ListQueryProperties,
    state: Type.Optional(Type.Union(IMAGE_STATES.map((state) => Type.Literal(state)))),
    family: Type.Optional(Type.Union(OS_FAMILIES.map((family) => Type.Literal(family)))),
  },
  { additionalProperties: false },
);
const DeleteQuerySchema = StrictObject({
  force: Type.Optional(Type.Boolean({ description: 'Delete even while profiles, catalog links or install tasks use the image' })),
  delete_file: Type.Optional(Type.Boolean({ description: 'Also delete an imported or dropped image\'s file (an uploaded or copied one is always deleted)' })),
});
const UploadIdParams = StrictObject({ upload_id: Type.String({ pattern: UPLOAD_ID_PATTERN }) });
const DeletedImageSchema = Type.Object({ ...OsImageSchema.properties, file_deleted: Type.Boolean() });

export interface OsImageRouteDeps {
  images: OsImageService;
  intake: ImageIntake;
  uploads: PartialUploads;
  settings: ImageSettingsStore;
  /** Checks a drop folder against the served-root policy; its real path or VALIDATION_FAILED naming the field. */
  requireFolder(folder: string, field: string): Promise<string>;
}

/**
 * The OS images endpoints except the upload (os-image-upload-routes.ts):
 * viewers read, operators write, admins change the settings (the drop
 * folder is a folder of this machine).
 */
export function osImageRoutes(deps: OsImageRouteDeps): FastifyPluginAsync {
  const { images, intake, uploads, settings } = deps;
  return async (app) => {
    app.get<{ Querystring: Static<typeof ListQuerySchema> }>(
      '/os-images',
      { config: { access: 'viewer' }, schema: { tags, summary: 'List OS images (q matches name, slug, file name, distro, version, volume id)', querystring: ListQuerySchema, response: { 200: OkList(OsImageSchema) } } },
      async (request) => ({ success: true as const, ...images.page(request.query) }),
    );

    app.get('/os-images/uploads', { config: { access: 'viewer' }, schema: { tags, summary: 'Partial uploads waiting to be resumed (removed after 24 h without bytes)', response: { 200: Ok(Type.Array(PartialUploadSchema)) } } }, async () => ({
      success: true as const,
      data: await uploads.list(),
    }));

    app.delete<{ Params: Static<typeof UploadIdParams> }>(
      '/os-images/uploads/:upload_id',
      { config: { access: 'operator' }, schema: { tags, summary: 'Cancel a partial upload: a request still sending it is stopped, its bytes removed', params: UploadIdParams, response: { 200: Ok(PartialUploadSchema) } } },
      async (request) => {
        const cancelled = await uploads.cancel(request.params.upload_id);
        request.auditDetail = { upload_id: cancelled.upload_id, file_name: cancelled.file_name };
        return { success: true as const, data: cancelled };
      },
    );

    app.get('/os-images/settings', { config: { access: 'viewer' }, schema: { tags, summary: 'The drop folder and auto-mount', response: { 200: Ok(ImageSettingsSchema) } } }, async () => ({ success: true as const, data: settings.get() }));

    app.put<{ Body: Static<typeof ImageSettingsUpdateSchema> }>(
      '/os-images/settings',
      {
        config: { access: 'admin' },
        schema: { tags, summary: 'Set the drop folder (inside the allowed roots; null: none) and auto-mount; a new folder is scanned at once', body: ImageSettingsUpdateSchema, response: { 200: Ok(ImageSettingsSchema) } },
      },
      async (request) => {
        const current = settings.get();
        const next: ImageSettings = { drop_folder: current.drop_folder, auto_mount: request.body.auto_mount ?? current.auto_mount };
        if (request.body.drop_folder !== undefined) next.drop_folder = request.body.drop_folder === null ? null : await deps.requireFolder(request.body.drop_folder, 'body.drop_folder');
        const stored = await settings.put(next);
        request.auditDetail = { drop_folder: stored.drop_folder ?? '', auto_mount: String(stored.auto_mount) };
        return { success: true as const, data: stored };
      },
    );

    app.post<{ Body: ImportBody }>(
      '/os-images/import',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Adopt an .iso/.img file on this machine (inside the allowed roots): link (default) uses it where it is, copy copies it into the images folder',
          body: ImportBodySchema,
          response: { 201: Ok(OsImageSchema) },
        },
      },
      async (request, reply) => {
        const image = await intake.importFile(request.body);
        request.auditDetail = { image_id: String(image.id), path: image.path, mode: request.body.mode ?? 'link' };
        return reply.code(201).send({ success: true as const, data: image });
      },
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/os-images/:id',
      { config: { access: 'viewer' }, schema: { tags, summary: 'Get an OS image', params: IdParams, response: { 200: Ok(OsImageSchema) } } },
      async (request) => ({ success: true as const, data: images.require(request.params.id) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: OsImageUpdate }>(
      '/os-images/:id',
      {
        config: { access: 'operator' },
        schema: { tags, summary: 'Change name, slug (unique; a mounted image is remounted under it) and description', params: IdParams, body: OsImageUpdateSchema, response: { 200: Ok(OsImageSchema) } },
      },
      async (request) => {
        const image = await images.change(request.params.id, request.body);
        request.auditDetail = { image_id: String(image.id), slug: image.slug };
        return { success: true as const, data: image };
      },
    );

    app.delete<{ Params: Static<typeof IdParams>; Querystring: Static<typeof DeleteQuerySchema> }>(
      '/os-images/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Delete an OS image (409 naming the profiles, catalog links and tasks using it, unless force=true); unmounts it; its file goes when uploaded or copied, or with delete_file=true',
          params: IdParams,
          querystring: DeleteQuerySchema,
          response: { 200: Ok(DeletedImageSchema) },
        },
      },
      async (request) => {
        const removed = await images.remove(request.params.id, { force: request.query.force ?? false, deleteFile: request.query.delete_file ?? false });
        request.auditDetail = { image_id: String(removed.id), name: removed.name, file_deleted: String(removed.file_deleted) };
        return { success: true as const, data: removed };
      },
    );

    // GET and an explicit HEAD (fastify's automatic HEAD would read the whole file to discard it).
    const serveFile = async (request: FastifyRequest<{ Params: Static<typeof IdParams> }>, reply: FastifyReply, head: boolean) => {
      const image = images.require(request.params.id);
      const info = await stat(image.path).catch(() => null);
      if (!info?.isFile()) throw new AppError('NOT_FOUND', `the file of OS image ${image.name} is missing (${FILE_MISSING}): ${image.path}`);
      const etag = image.sha256 ? `"${image.sha256}"` : `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      reply
        .header('etag', etag)
        .header('accept-ranges', 'bytes')
        .header('last-modified', info.mtime.toUTCString())
        .header('content-disposition', `attachment; filename="${image.file_name}"`)
        .type('application/octet-stream');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const ifRange = request.headers['if-range'];
      const range = ifRange !== undefined && ifRange !== etag ? null : parseRange(request.headers.range, info.size);
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${info.size}`).send();
      const { start, end } = range ?? { start: 0, end: info.size - 1 };
      reply.header('content-length', String(Math.max(0, end - start + 1)));
      if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${info.size}`);
      else reply.code(200);
      if (head || info.size === 0) return reply.send();
      return reply.send(createReadStream(image.path, { start, end }));
    };
    const fileSchema = {
      tags,
      summary: 'Download the image file (Range, If-None-Match and HEAD supported)',
      params: IdParams,
      response: { 200: Type.String({ description: 'The image file' }), 206: Type.String({ description: 'A byte range of the image file' }) },
    };
    app.get<{ Params: Static<typeof IdParams> }>('/os-images/:id/file', { config: { access: 'viewer' }, exposeHeadRoute: false, schema: fileSchema }, async (request, reply) => serveFile(request, reply, false));
    app.head<{ Params: Static<typeof IdParams> }>('/os-images/:id/file', { config: { access: 'viewer' }, schema: { ...fileSchema, summary: 'The download\'s headers (size, ETag) without the file' } }, async (request, reply) =>
      serveFile(request, reply, true),
    );

    app.post<{ Params: Static<typeof IdParams> }>(
      '/os-images/:id/reprocess',
      { config: { access: 'operator' }, schema: { tags, summary: 'Read the image again and detect what it is (iso and detection refreshed)', params: IdParams, response: { 200: Ok(OsImageSchema) } } },
      async (request) => {
        const image = await images.reprocess(request.params.id);
        request.auditDetail = { image_id: String(image.id) };
        return { success: true as const, data: image };
      },
    );

    app.post<{ Params: Static<typeof IdParams>; Body: ExtractBody }>(
      '/os-images/:id/extract',
      {
        config: { access: 'operator' },
        // The body is optional: no body is the same as {}.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary: 'Extract the boot files (mode boot) or the whole tree (full) into <boot root>/images/<slug>/ in the background (202; progress as os_image.extract.progress events)',
          params: IdParams,
          body: ExtractBodySchema,
          response: { 202: Ok(OsImageSchema) },
        },
      },
      async (request, reply) => {
        const image = images.startExtract(request.params.id, request.body);
        request.auditDetail = { image_id: String(image.id), mode: request.body.mode ?? 'boot' };
        return reply.code(202).send({ success: true as const, data: image });
      },
    );

    app.post<{ Params: Static<typeof IdParams> }>(
      '/os-images/:id/mount',
      { config: { access: 'operator' }, schema: { tags, summary: 'Serve the image\'s content under /boot/iso/<slug>/ (and TFTP iso/<slug>/) straight from the ISO; kept across restarts', params: IdParams, response: { 200: Ok(OsImageSchema) } } },
      async (request) => {
        const image = await images.mount(request.params.id);
        request.auditDetail = { image_id: String(image.id), slug: image.slug };
        return { success: true as const, data: image };
      },
    );

    app.post<{ Params: Static<typeof IdParams> }>(
      '/os-images/:id/unmount',
      { config: { access: 'operator' }, schema: { tags, summary: 'Stop serving the image\'s content', params: IdParams, response: { 200: Ok(OsImageSchema) } } },
      async (request) => {
        const image = await images.unmount(request.params.id);
        request.auditDetail = { image_id: String(image.id), slug: image.slug };
        return { success: true as const, data: image };
      },
    );
  };
}
