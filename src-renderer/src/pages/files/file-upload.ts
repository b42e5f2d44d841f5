import type { FileRootId } from '@contracts/files';
import { withQuery } from '../../api/query-string.js';
import { xhrSender } from '../../api/upload-sender.js';
import { UploadTask, type UploadSnapshot } from '../../api/upload-task.js';

/** `dir` + `name` as a root-relative path ('' is the root). */
export function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir.replace(/\/$/, '')}/${name}`;
}

/** The parent of a root-relative path ('' for a top-level entry). */
export function parentPath(path: string): string {
  const index = path.lastIndexOf('/');
  return index < 0 ? '' : path.slice(0, index);
}

/**
 * A /files upload of `file` into `dir` of `root`: a raw body with the path
 * and size; a 409 (the file exists) waits for Overwrite, which sends it
 * again with overwrite=true. Not resumable (files are small next to ISOs).
 */
export function fileUploadTask(root: FileRootId, dir: string, file: File, key: string, onChange: (snapshot: UploadSnapshot) => void): UploadTask {
  const path = joinPath(dir, file.name);
  return new UploadTask({
    key,
    file,
    name: path,
    sender: xhrSender(),
    urlFor: ({ overwrite }) => withQuery('/files/upload', { root, path, size: file.size, overwrite: overwrite || undefined }),
    onChange,
  });
}
