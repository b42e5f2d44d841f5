import type { BrowseQuery, BrowseResult, FileDeleteQuery, FileList, FileListQuery, FileRoot } from '@contracts/files';
import type { ApiClient } from '../api-client.js';
import { withQuery } from '../query-string.js';

/**
 * The files area's API (src-main/files/*-routes.ts, docs/files.md), typed by
 * its contract. Uploads carry a file body and go through api/upload.ts.
 */
export function filesClient(client: ApiClient) {
  return {
    roots: (): Promise<FileRoot[]> => client.get('/files/root'),
    list: (query: FileListQuery): Promise<FileList> => client.get(withQuery('/files', { root: query.root, path: query.path })),
    remove: (query: FileDeleteQuery): Promise<unknown> => client.delete(withQuery('/files', { root: query.root, path: query.path, recursive: query.recursive || undefined })),
    /** Admin: folders (and files, with show=all) on this machine inside the browse roots. */
    browse: (query: BrowseQuery = {}): Promise<BrowseResult> => client.get(withQuery('/fs/browse', { path: query.path, show: query.show, extensions: query.extensions })),
  };
}
