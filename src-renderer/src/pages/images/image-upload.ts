import type { PartialUpload } from '@contracts/os-images';
import type { Api } from '../../api/clients/index.js';
import { withQuery } from '../../api/query-string.js';
import { xhrSender } from '../../api/upload-sender.js';
import { UploadTask, type UploadPosition, type UploadSnapshot } from '../../api/upload-task.js';
import { safeImageFileName } from './image-labels.js';

/**
 * A fresh upload's id, chosen here (32 hex digits; the server takes a
 * client's id, docs/os-images.md): Retry and Cancel then know which partial
 * file is theirs even when a request broke before its Upload-Id header came.
 */
export function newUploadId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Where the server stands with the upload `uploadId` (null: it kept nothing, start over). */
export function findPartial(partials: readonly PartialUpload[], uploadId: string): UploadPosition | null {
  const match = partials.find((partial) => partial.upload_id === uploadId);
  return match ? { uploadId: match.upload_id, received: match.received } : null;
}

/** An OS image upload: raw body with file_name, size and our upload_id, resumable with offset. */
export function imageUploadTask(api: Api, file: File, key: string, onChange: (snapshot: UploadSnapshot) => void, resumeFrom?: UploadPosition): UploadTask {
  const fileName = safeImageFileName(file.name);
  const ownId = resumeFrom?.uploadId ?? newUploadId();
  return new UploadTask({
    key,
    file,
    name: fileName,
    sender: xhrSender(),
    ...(resumeFrom ? { resumeFrom } : { uploadId: ownId }),
    // A Retry after which the server kept nothing starts over under the same id.
    urlFor: ({ offset, uploadId, overwrite }) =>
      withQuery('/os-images/upload', {
        file_name: fileName,
        size: file.size,
        upload_id: uploadId ?? ownId,
        offset: offset > 0 ? offset : undefined,
        overwrite: overwrite || undefined,
      }),
    locate: async (uploadId) => findPartial(await api.osImages.uploads.list(), uploadId ?? ownId),
    discard: async (uploadId) => {
      await api.osImages.uploads.remove(uploadId);
    },
    onChange,
  });
}
