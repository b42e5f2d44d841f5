import path from 'node:path';
import { AppError, isAppError } from '../core/errors.js';
import type { FileBody } from '../core/http-kit/file-body.js';
import { receiveFile, requireFreeSpace } from '../core/upload/receive-file.js';
import type { EventLog } from '../events/event-log.js';
import { isImageFileName } from './image-names.js';
import { unreadableImage } from './unreadable-image.js';
import { OsImageService, type InspectedImage } from './os-image-service.js';
import { MAX_IMAGE_BYTES, type OsImage, type UploadQuery } from './os-images-contract.js';
import { newUploadId, type PartialUploads, type UploadMeta } from './partial-uploads.js';

/*
 * POST /os-images/upload (docs/os-images.md, "Uploading"): the body streams
 * to `<images>/.uploads/<upload_id>.part` with SHA-256 on the way, the
 * finished file is read by the ISO reader before it gets its name (a file
 * the reader refuses is removed: 400 with its reason), and the image is
 * stored. A raw body is resumable: the upload id (the client's own, or one
 * made here, sent back in the Upload-Id header) names the partial file, and
 * a later request with `upload_id` and `offset` sends the rest. A multipart
 * upload is not resumable: its partial file goes with the request.
 */

export interface UploadRequest {
  query: UploadQuery;
  body: FileBody;
  /** The request's Content-Length (bytes of the body), when sent. */
  contentLength: number | null;
  /** Called with the upload id before any byte is received (the route sets the Upload-Id header). */
  announce(uploadId: string): void;
}

export interface UploadResult {
  image: OsImage;
  uploadId: string;
  /** False when an existing image's file was replaced (overwrite=true). */
  created: boolean;
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field}: ${message}`, { details: [{ field, message }] });
}

export class ImageUploads {
  constructor(
    private readonly deps: {
      images: OsImageService;
      uploads: PartialUploads;
      events: EventLog;
    },
  ) {}

  async receive(request: UploadRequest): Promise<UploadResult> {
    const { query, body } = request;
    const raw = body.fileName === null;
    const fileName = raw ? query.file_name : body.fileName;
    if (!raw && query.upload_id !== undefined) throw invalid('querystring.upload_id', 'multipart uploads are not resumable: send the file as a raw body to resume it');
    const uploadId = query.upload_id ?? newUploadId();
    const meta = raw ? await this.deps.uploads.meta(uploadId) : null;
    const name = fileName ?? meta?.file_name;
    if (name === undefined) throw invalid('querystring.file_name', 'a raw upload needs file_name in the query');
    if (!isImageFileName(name)) throw invalid(raw ? 'querystring.file_name' : 'file_name', `"${name}" is not an image file name: letters, digits, . _ + - and an .iso or .img ending`);
    if (meta && query.file_name !== undefined && meta.file_name !== query.file_name) {
      throw new AppError('CONFLICT', `upload ${uploadId} is for ${meta.file_name}, not ${query.file_name}`, { details: [{ field: 'querystring.file_name', message: meta.file_name }] });
    }
    const overwrite = query.overwrite ?? meta?.overwrite ?? false;
    const finalPath = path.join(this.deps.images.imagesDir, name);
    const replacing = this.deps.images.byPath(finalPath);
    if (replacing && !overwrite) {
      throw new AppError('CONFLICT', `${name} is already image ${replacing.id} (${replacing.name}); send overwrite=true to replace its file`, { details: [{ field: 'querystring.overwrite', message: 'the file exists' }] });
    }

    const offset = query.offset ?? 0;
    const size = query.size ?? meta?.size ?? null;
    const sha256 = query.sha256 ?? meta?.sha256 ?? null;
    if (raw) {
      const have = await this.deps.uploads.received(uploadId);
      if (offset !== have && !(meta === null && offset === 0)) {
        throw new AppError('CONFLICT', `upload ${uploadId} holds ${have} bytes; resume from offset ${have}`, { details: [{ field: 'querystring.offset', message: `resume from ${have}` }] });
      }
      if (size !== null && offset > size) throw invalid('querystring.offset', `offset ${offset} is past the size ${size}`);
    } else if (offset !== 0) {
      throw invalid('querystring.offset', 'multipart uploads start at offset 0');
    }
    // Free space before a byte is written: the declared size, else what the body says it carries.
    const needed = size !== null ? size - offset : request.contentLength;
    if (needed !== null) {
      if (needed + offset > MAX_IMAGE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `the file is ${needed + offset} bytes; at most ${MAX_IMAGE_BYTES} are accepted`);
      await requireFreeSpace(this.deps.images.imagesDir, needed);
    }

    const signal = this.deps.uploads.claim(uploadId);
    request.announce(uploadId);
    const partialPath = this.deps.uploads.partPath(uploadId);
    try {
      if (raw && !meta) {
        const created: UploadMeta = { upload_id: uploadId, file_name: name, name: query.name ?? null, size, sha256, overwrite, created_at: new Date().toISOString() };
        await this.deps.uploads.writeMeta(created);
      }
      let inspected: InspectedImage | null = null;
      let received;
      try {
        received = await receiveFile({
          source: body.stream,
          direct: body.direct,
          finalPath,
          partialPath,
          overwrite,
          maxBytes: MAX_IMAGE_BYTES,
          ...(size !== null ? { expectedSize: size } : {}),
          ...(sha256 !== null ? { expectedSha256: sha256 } : {}),
          resumeFrom: offset,
          keepPartialOnFailure: raw,
          signal,
          verify: async (partial) => {
            try {
              inspected = await this.deps.images.inspect(partial, name);
            } catch (error) {
              if (isAppError(error) && error.code === 'VALIDATION_FAILED') {
                throw unreadableImage(error, name, 'body');
              }
              throw OsImageService.asRefusal(error, 'body');
            }
          },
          onProgress: (bytes, total) => {
            this.deps.events.emit({
              kind: 'os_image.upload.progress',
              message: `upload of ${name}: ${bytes} of ${total ?? '?'} bytes`,
              detail: { upload_id: uploadId, file_name: name, bytes, total, percent: total ? Math.floor((bytes / total) * 100) : null },
            });
          },
        });
      } catch (error) {
        if (signal.aborted) throw new AppError('GONE', `upload ${uploadId} was cancelled`);
        if (!isAppError(error)) {
          const have = await this.deps.uploads.received(uploadId);
          throw new AppError('BAD_REQUEST', raw ? `the upload broke off after ${have} bytes; resume with upload_id=${uploadId}&offset=${have}` : `the upload broke off: ${String(error)}`, {
            details: raw ? [{ field: 'querystring.offset', message: `resume from ${have}` }] : [],
          });
        }
        throw error;
      } finally {
        // A partial file that is gone (refused, or a multipart upload) takes its sidecar with it.
        if ((await this.deps.uploads.received(uploadId)) === 0 || !raw) await this.deps.uploads.remove(uploadId);
      }
      const checked = inspected as InspectedImage | null;
      if (!checked) throw new AppError('INTERNAL', `the upload ${name} was not inspected`);
      await this.deps.uploads.remove(uploadId);
      if (replacing) {
        return { image: await this.deps.images.replaced(replacing.id, { size: received.size, sha256: received.sha256, inspected: checked }), uploadId, created: false };
      }
      const image = await this.deps.images.add({ path: finalPath, file_name: name, size: received.size, sha256: received.sha256, source: 'upload', owned: true, name: query.name ?? meta?.name ?? undefined, inspected: checked });
      return { image, uploadId, created: true };
    } finally {
      this.deps.uploads.release(uploadId);
    }
  }
}
