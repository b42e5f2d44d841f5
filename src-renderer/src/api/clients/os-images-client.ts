import type { BootProfileBody, ExtractBody, ImageSettings, ImportBody, OsImage, OsImageUpdate, PartialUpload } from '@contracts/os-images';
import type { Profile } from '@contracts/profiles';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';
import { API_PREFIX } from '../transport.js';

/** What POST /os-images/{id}/boot-profile answers: the profile made to boot the image, and what to know about it. */
export interface BootProfileResult {
  profile: Profile;
  /** False when a profile for the image existed already (200 instead of 201). */
  created: boolean;
  notes: string[];
}

export interface ImageDeleteOptions {
  /** Delete even while profiles, catalog links or tasks use the image. */
  force?: boolean;
  /** An imported (linked) image: also delete the user's file. */
  deleteFile?: boolean;
}

/**
 * The OS images area's API (src-main/os-images/*-routes.ts, docs/os-images.md),
 * typed by its contract. Uploads carry a file body and go through
 * api/upload.ts instead (XHR, for progress).
 */
export function osImagesClient(client: ApiClient) {
  return {
    /** Paging plus the filters state, family, q. */
    list: (params: ListParams = {}): Promise<ListResult<OsImage>> => client.list(withQuery('/os-images', params)),
    get: (id: number): Promise<OsImage> => client.get(`/os-images/${segment(id)}`),
    update: (id: number, body: OsImageUpdate): Promise<OsImage> => client.put(`/os-images/${segment(id)}`, body),
    /** 409 names what uses the image unless `force`. */
    remove: (id: number, options: ImageDeleteOptions = {}): Promise<OsImage> =>
      client.delete(withQuery(`/os-images/${segment(id)}`, { force: options.force || undefined, delete_file: options.deleteFile || undefined })),
    import: (body: ImportBody): Promise<OsImage> => client.post('/os-images/import', body),
    /** 202: the extraction runs on; os_image.extract.progress events follow it. */
    extract: (id: number, body: ExtractBody): Promise<OsImage> => client.post(`/os-images/${segment(id)}/extract`, body),
    reprocess: (id: number): Promise<OsImage> => client.post(`/os-images/${segment(id)}/reprocess`),
    mount: (id: number): Promise<OsImage> => client.post(`/os-images/${segment(id)}/mount`),
    unmount: (id: number): Promise<OsImage> => client.post(`/os-images/${segment(id)}/unmount`),
    bootProfile: (id: number, body: BootProfileBody = {}): Promise<BootProfileResult> => client.post(`/os-images/${segment(id)}/boot-profile`, body),
    uploads: {
      list: (): Promise<PartialUpload[]> => client.get('/os-images/uploads'),
      remove: (uploadId: string): Promise<unknown> => client.delete(`/os-images/uploads/${segment(uploadId)}`),
    },
    settings: {
      get: (): Promise<ImageSettings> => client.get('/os-images/settings'),
      update: (body: Partial<ImageSettings>): Promise<ImageSettings> => client.put('/os-images/settings', body),
    },
  };
}

/** The image file's download URL (same origin; the session cookie authorises it; ranges work). */
export function imageFileUrl(id: number): string {
  return `${API_PREFIX}/os-images/${segment(id)}/file`;
}
