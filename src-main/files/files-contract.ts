import { Type, type Static } from 'typebox';
import { literalUnion, nullable, StrictObject, Timestamp } from '../core/http-kit/common-contract.js';

/*
 * File management (docs/files.md): list, upload and delete files inside the
 * configured roots (/files), and pick a folder or file on this machine
 * (/fs/browse). Imports only typebox and other contracts (the renderer
 * imports it as @contracts/files).
 */

/**
 * The roots /files works in: `boot` the boot root (what TFTP and HTTP serve),
 * `images` the OS images folder, `drop` the watched drop folder (when one is
 * set). Paths in requests are relative to the chosen root.
 */
export const FILE_ROOTS = ['boot', 'images', 'drop'] as const;
export type FileRootId = (typeof FILE_ROOTS)[number];

export const FILE_TYPES = ['file', 'directory', 'symlink', 'other'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** A relative path inside a root: no leading slash, no '..', no NUL or backslash (checked again on the real path). */
export const RelativePathSchema = Type.String({ maxLength: 4096, description: 'Relative to the root, "/"-separated; "" is the root itself' });

export const FileRootSchema = Type.Object({
  id: literalUnion(FILE_ROOTS),
  label: Type.String(),
  /** Absolute path on this machine. */
  path: Type.String(),
  /** Whether the root exists and is usable now; else why not. */
  problem: nullable<string>('string'),
  free_bytes: nullable<number>('number'),
  total_bytes: nullable<number>('number'),
});
export type FileRoot = Static<typeof FileRootSchema>;

export const FileEntrySchema = Type.Object({
  name: Type.String(),
  /** Relative to the root. */
  path: Type.String(),
  type: literalUnion(FILE_TYPES),
  size: Type.Number(),
  modified_at: Timestamp,
  /** A symlink's target when it stays inside the root; null otherwise (it is not followed). */
  target: nullable<string>('string'),
});
export type FileEntry = Static<typeof FileEntrySchema>;

export const FileListQuerySchema = StrictObject({
  root: Type.Optional(literalUnion(FILE_ROOTS, { description: 'boot (default), images or drop' })),
  path: Type.Optional(RelativePathSchema),
});
export type FileListQuery = Static<typeof FileListQuerySchema>;

export const FileListSchema = Type.Object({
  root: literalUnion(FILE_ROOTS),
  path: Type.String(),
  entries: Type.Array(FileEntrySchema),
});
export type FileList = Static<typeof FileListSchema>;

/** POST /files/upload: the body is the file (raw application/octet-stream, or multipart with one file part). */
export const FileUploadQuerySchema = StrictObject({
  root: Type.Optional(literalUnion(FILE_ROOTS)),
  /** The file's path; for multipart, a directory the part's file name is put in. */
  path: RelativePathSchema,
  overwrite: Type.Optional(Type.Boolean({ description: 'Replace an existing file (never a directory)' })),
  /** Create missing parent directories. */
  parents: Type.Optional(Type.Boolean()),
  size: Type.Optional(Type.Number({ minimum: 0, description: 'The file\'s size: checked against free space first' })),
});
export type FileUploadQuery = Static<typeof FileUploadQuerySchema>;

/** What POST /files/upload answers (201): the file as listed, and the SHA-256 computed while it arrived. */
export const FileUploadResultSchema = Type.Object({
  root: literalUnion(FILE_ROOTS),
  entry: FileEntrySchema,
  sha256: Type.String(),
  /** Whether an existing file was replaced (overwrite=true). */
  replaced: Type.Boolean(),
});
export type FileUploadResult = Static<typeof FileUploadResultSchema>;

export const FileDeleteQuerySchema = StrictObject({
  root: Type.Optional(literalUnion(FILE_ROOTS)),
  path: Type.String({ minLength: 1, maxLength: 4096 }),
  /** Delete a directory with its content (else only an empty one). */
  recursive: Type.Optional(Type.Boolean()),
});
export type FileDeleteQuery = Static<typeof FileDeleteQuerySchema>;

/** What DELETE /files answers: what was removed (a symlink itself, never its target). */
export const FileDeleteResultSchema = Type.Object({
  root: literalUnion(FILE_ROOTS),
  path: Type.String(),
  type: literalUnion(FILE_TYPES),
});
export type FileDeleteResult = Static<typeof FileDeleteResultSchema>;

export const BrowseQuerySchema = StrictObject({
  /** An absolute path; absent: the browse roots themselves. */
  path: Type.Optional(Type.String({ maxLength: 4096 })),
  /** Which entries to list: directories only (default) or files too. */
  show: Type.Optional(literalUnion(['directories', 'all'] as const)),
  /** Only files with these extensions (comma-separated, e.g. ".iso,.img"), with show=all. */
  extensions: Type.Optional(Type.String({ maxLength: 200 })),
});
export type BrowseQuery = Static<typeof BrowseQuerySchema>;

export const BrowseEntrySchema = Type.Object({
  name: Type.String(),
  /** Absolute path. */
  path: Type.String(),
  type: literalUnion(FILE_TYPES),
  size: Type.Number(),
  modified_at: Timestamp,
});
export const BrowseResultSchema = Type.Object({
  /** The listed directory; null when listing the browse roots. */
  path: nullable<string>('string'),
  /** The directory above, when it is still inside a browse root; else null. */
  parent: nullable<string>('string'),
  /** The roots browsing is confined to (the allowed roots). */
  roots: Type.Array(Type.String()),
  entries: Type.Array(BrowseEntrySchema),
});
export type BrowseResult = Static<typeof BrowseResultSchema>;

/** Largest file a /files upload accepts (bytes). */
export const MAX_FILE_UPLOAD_BYTES = 64 * 1024 ** 3;
