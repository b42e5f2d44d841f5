import type { PartialUpload } from '@contracts/os-images';
import type { Api } from '../../api/clients/index.js';
import { withQuery } from '../../api/query-string.js';
import { xhrSender } from '../../api/upload-sender.js';
import { UploadTask, type UploadPosition, type UploadSnapshot } from '../../api/upload-task.js';
import { safeImageFileName } from './image-labels.js';

/**
 * Where the server stands with an upload of `fileName`: by its id when the
 * answer gave one; else the newest partial of that name and size (a request
 * cut short never saw its Upload-Id header).
 */
export function findPartial(partials: readonly PartialUpload[], uploadId: string | null, fileName: string, size: number): UploadPosition | null {
  const match = uploadId
    ? partials.find((partial) => partial.upload_id === uploadId)
    : [...partials].filter((partial) => partial.file_name === fileName && (partial.size === null || partial.size === size)).sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0];
  return match ? { uploadId: match.upload_id, received: match.received } : null;
}

/** An OS image upload: raw body with file_name and size, resumable with upload_id and offset. */
export function imageUploadTask(api: Api, file: File, key: string, onChange: (snapshot: UploadSnapshot) => void, resumeFrom?: UploadPosition): UploadTask {
  const fileName = safeImageFileName(file.name);
  return new UploadTask({
    key,
    file,
    name: fileName,
    sender: xhrSender(),
    ...(resumeFrom ? { resumeFrom } : {}),
    urlFor: ({ offset, uploadId, overwrite }) =>
      withQuery('/os-images/upload', {
        file_name: fileName,
        size: file.size,
        upload_id: uploadId,
        offset: uploadId ? offset : undefined,
        overwrite: overwrite || undefined,
      }),
    locate: async (uploadId) => findPartial(await api.osImages.uploads.list(), uploadId, fileName, file.size),
    discard: async (uploadId) => {
      await api.osImages.uploads.remove(uploadId);
    },
    onChange,
  });
}
