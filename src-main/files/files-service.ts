import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { opendir, realpath, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../boot-files/path-confinement.js';
import { AppError, isAppError } from '../core/errors.js';
import type { FileBody } from '../core/http-kit/file-body.js';
import { receiveFile, requireFreeSpace } from '../core/upload/receive-file.js';
import {
  MAX_FILE_UPLOAD_BYTES,
  type FileDeleteQuery,
  type FileDeleteResult,
  type FileEntry,
  type FileList,
  type FileListQuery,
  type FileRoot,
  type FileRootId,
  type FileUploadQuery,
  type FileUploadResult,
} from './files-contract.js';
import { checkFileName, checkRelativePath, PARTIAL_PREFIX, refuse, splitPath } from './file-paths.js';
import type { FileRoots, OpenedRoot } from './file-roots.js';
import { errnoOf, fileTypeOf, fsError, isSpecial, lstatOrNull, walkDirectory } from './file-walk.js';

/**
 * Listing, uploading and deleting inside the file roots (docs/files.md).
 * Every path goes through the lexical rules (file-paths.ts), then the walk
 * down from the root's real path (file-walk.ts); a symlink inside a root is
 * listed, deleted as itself, replaced as itself, and never followed out.
 */

/** Called before a path is deleted; throws (e.g. 409 naming the OS image that uses it) to refuse. */
export type BeforeDelete = (root: FileRootId, absolutePath: string) => Promise<void>;

export interface FilesServiceDeps {
  roots: FileRoots;
  /** The os-images area's usage check, wired at merge; default: nothing refuses. */
  beforeDelete?: BeforeDelete;
  /** Largest upload (tests lower it); default MAX_FILE_UPLOAD_BYTES. */
  maxUploadBytes?: number;
}

/** What the route hands over for an upload: the body, read only after the query passed. */
/** The request's file (core/http-kit/file-body.ts): a stream, the multipart part's name, and a raw body the native addon may receive. */
export type UploadBody = FileBody;

export interface UploadRequest {
  query: FileUploadQuery;
  /** The request's Content-Length, when sent: the file's size for a raw body, an upper bound for multipart. */
  contentLength: number | null;
  multipart: boolean;
  /** Reads the body (the multipart file part); called once the path is known to be acceptable. */
  body: () => Promise<UploadBody>;
  signal?: AbortSignal;
}

const ROOT_FIELD = 'query.root';
const PATH_FIELD = 'query.path';

export class FilesService {
  readonly maxUploadBytes: number;
  private readonly beforeDelete: BeforeDelete;

  constructor(private readonly deps: FilesServiceDeps) {
    this.maxUploadBytes = deps.maxUploadBytes ?? MAX_FILE_UPLOAD_BYTES;
    this.beforeDelete = deps.beforeDelete ?? (async () => undefined);
  }

  /** The roots, whether each is usable, and their free space. */
  roots(): Promise<FileRoot[]> {
    return this.deps.roots.describe();
  }

  /** A directory's entries: directories first, then by name; partial uploads are not listed. */
  async list(query: FileListQuery): Promise<FileList> {
    const rootId = query.root ?? 'boot';
    const relative = checkRelativePath(query.path ?? '', PATH_FIELD);
    const root = await this.deps.roots.open(rootId, ROOT_FIELD);
    const dir = await walkDirectory(relative, { rootReal: root.real, rootId, field: PATH_FIELD });
    const entries: FileEntry[] = [];
    const handle = await opendir(dir).catch((error: unknown) => {
      throw fsError(relative || '/', error, PATH_FIELD);
    });
    for await (const dirent of handle) {
      if (dirent.name.startsWith(PARTIAL_PREFIX)) continue;
      const childPath = relative === '' ? dirent.name : `${relative}/${dirent.name}`;
      const absolute = path.join(dir, dirent.name);
      const info = await lstatOrNull(absolute, childPath, PATH_FIELD).catch(() => null);
      if (!info) continue; // gone since the directory was read
      entries.push(await this.entry(root, childPath, absolute, info));
    }
    entries.sort((a, b) => Number(b.type === 'directory') - Number(a.type === 'directory') || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { root: rootId, path: relative, entries };
  }

  /**
   * Receives a file into a root: never over an existing file without
   * overwrite, never over a directory, a special file or through a symlinked
   * directory leading out; missing directories only with parents. The bytes
   * go to a hidden partial file beside the target (same file system), which
   * becomes the file only when complete and is removed on any failure.
   */
  async upload(request: UploadRequest): Promise<FileUploadResult> {
    const { query } = request;
    const rootId = query.root ?? 'boot';
    const relative = checkRelativePath(query.path, PATH_FIELD);
    if (!request.multipart && relative === '') throw refuse(PATH_FIELD, 'name the file to write (a raw body has no file name)');
    const root = await this.deps.roots.open(rootId, ROOT_FIELD);
    const { dir: dirPart, name: rawName } = request.multipart ? { dir: relative, name: null } : splitPath(relative);
    // Every directory that exists is checked before a byte is read; missing ones are made only after the body started.
    await this.walkExisting(root, dirPart);
    const body = await request.body();
    const name = rawName ?? checkFileName(body.fileName ?? '', 'body.file');
    const target = dirPart === '' ? name : `${dirPart}/${name}`;
    const dir = await walkDirectory(dirPart, {
      rootReal: root.real,
      rootId,
      field: PATH_FIELD,
      create: query.parents === true,
      missingHint: 'send parents=true to create missing directories',
    });
    const finalPath = path.join(dir, name);
    const existing = await lstatOrNull(finalPath, target, PATH_FIELD);
    if (existing?.isDirectory()) throw new AppError('CONFLICT', `${rootId}:${target} is a directory; an upload never replaces a directory`);
    if (existing && isSpecial(existing)) throw refuse(PATH_FIELD, `${target} is a device file, socket or FIFO`);
    if (existing && query.overwrite !== true) throw new AppError('CONFLICT', `${rootId}:${target} already exists; send overwrite=true to replace it`);

    const expectedSize = query.size ?? (request.multipart ? null : request.contentLength);
    // A multipart body is a little larger than its file: still a fair bound for the free-space check.
    if (expectedSize === null && request.contentLength !== null) await requireFreeSpace(dir, request.contentLength);
    const partialPath = path.join(dir, `${PARTIAL_PREFIX}${randomUUID()}`);
    try {
      const received = await receiveFile({
        source: body.stream,
        direct: body.direct,
        finalPath,
        partialPath,
        overwrite: query.overwrite === true,
        maxBytes: this.maxUploadBytes,
        ...(expectedSize !== null ? { expectedSize } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const info = await lstatOrNull(received.path, target, PATH_FIELD);
      if (!info) throw new Error(`${rootId}:${target} vanished right after it was written`);
      return { root: rootId, entry: await this.entry(root, target, received.path, info), sha256: received.sha256, replaced: existing !== null };
    } catch (error) {
      await unlink(partialPath).catch(() => undefined);
      body.stream.resume();
      throw uploadError(error, target, rootId);
    }
  }

  /** Deletes a file, a symlink (itself), an empty directory, or with recursive a tree; never a root itself. */
  async remove(query: FileDeleteQuery): Promise<FileDeleteResult> {
    const rootId = query.root ?? 'boot';
    const relative = checkRelativePath(query.path, PATH_FIELD);
    if (relative === '') throw refuse(PATH_FIELD, `the ${rootId} root itself is never deleted`);
    const root = await this.deps.roots.open(rootId, ROOT_FIELD);
    const { dir: dirPart, name } = splitPath(relative);
    const dir = await walkDirectory(dirPart, { rootReal: root.real, rootId, field: PATH_FIELD });
    const absolute = path.join(dir, name);
    const info = await lstatOrNull(absolute, relative, PATH_FIELD);
    if (!info) throw new AppError('NOT_FOUND', `${rootId}:${relative} does not exist`);
    if (isSpecial(info)) throw refuse(PATH_FIELD, `${relative} is a device file, socket or FIFO; it is never deleted here`);
    await this.beforeDelete(rootId, absolute);
    // The directory was walked segment by segment; make sure it is still where it was (not swapped for a link meanwhile).
    if ((await realpath(dir).catch(() => null)) !== dir) throw refuse(PATH_FIELD, `${dirPart} changed while it was checked; try again`);
    const type = fileTypeOf(info);
    try {
      if (type !== 'directory') await unlink(absolute);
      else if (query.recursive === true) await rm(absolute, { recursive: true });
      else await rmdir(absolute);
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new AppError('CONFLICT', `${rootId}:${relative} is a directory that is not empty; send recursive=true to delete it with its content`);
      if (code === 'ENOENT') throw new AppError('NOT_FOUND', `${rootId}:${relative} does not exist`);
      throw fsError(relative, error, PATH_FIELD);
    }
    return { root: rootId, path: relative, type };
  }

  /** Checks the directories of `dirPart` that exist, stopping at the first missing one (made later, with parents). */
  private async walkExisting(root: OpenedRoot, dirPart: string): Promise<void> {
    try {
      await walkDirectory(dirPart, { rootReal: root.real, rootId: root.id, field: PATH_FIELD });
    } catch (error) {
      if (isAppError(error) && error.code === 'NOT_FOUND') return;
      throw error;
    }
  }

  private async entry(root: OpenedRoot, relative: string, absolute: string, info: Stats): Promise<FileEntry> {
    const type = fileTypeOf(info);
    return {
      name: path.basename(relative),
      path: relative,
      type,
      size: type === 'file' ? info.size : 0,
      modified_at: info.mtime.toISOString(),
      target: type === 'symlink' ? await this.linkTarget(root, absolute) : null,
    };
  }

  /** Where a symlink leads, relative to its root, when it resolves inside it; else null (it is never followed out). */
  private async linkTarget(root: OpenedRoot, absolute: string): Promise<string | null> {
    const real = await realpath(absolute).catch(() => null);
    if (real === null || !isInside(root.real, real)) return null;
    return path.relative(root.real, real).split(path.sep).join('/');
  }
}

/** An upload's failure as the client should see it: refusals stay, a broken-off body is a 400, a full disk a 413. */
function uploadError(error: unknown, target: string, rootId: FileRootId): Error {
  if (isAppError(error)) return error;
  const code = errnoOf(error);
  if (code === 'ENOSPC' || code === 'EDQUOT') return new AppError('PAYLOAD_TOO_LARGE', `${rootId}:${target}: the file system filled up during the upload; the partial file was removed`);
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('PAYLOAD_TOO_LARGE', `${rootId}:${target}: the file exceeds the upload limit`);
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ABORT_ERR' || (error as Error | null)?.message === 'aborted') {
    return new AppError('BAD_REQUEST', `${rootId}:${target}: the upload broke off; the partial file was removed`);
  }
  return fsError(target, error, PATH_FIELD);
}
