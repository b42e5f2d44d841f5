import type { FieldError } from '../core/errors.js';
import type { OsImage } from './os-images-contract.js';

/*
 * What uses an image, so DELETE /os-images/{id} can refuse (409) and name
 * them: a profile whose files or script point into its mount
 * (`iso/<slug>/…`, the ISO itself `iso/<slug>.iso`) or its extraction
 * (`images/<slug>/…`), a catalog overlay that does the same, and install
 * tasks (not final) that install the catalog entry the image is linked to.
 */

/** One user of an image, as the 409's details list it. */
export interface ImageUser {
  kind: 'profile' | 'catalog' | 'task' | string;
  /** e.g. "profile 3 (Debian from ISO)". */
  label: string;
}

/** Names the users of an image (areas register more with addUsageCheck). */
export type ImageUsageCheck = (image: Pick<OsImage, 'id' | 'slug' | 'detection'>) => ImageUser[];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `text` refers to the slug's mount, ISO file or extraction folder (as path segments, in a path or a URL). */
export function mentionsImage(text: string, slug: string): boolean {
  const s = escape(slug);
  return new RegExp(`(^|[/"'\\s=])(iso/${s}(/|\\.iso(?![A-Za-z0-9._-]))|images/${s}/)`).test(text);
}

/** The 409's details: one per user. */
export function usageDetails(users: readonly ImageUser[]): FieldError[] {
  return users.map((user) => ({ field: user.kind, message: user.label }));
}

export interface ProfileLike {
  id: number;
  name: string;
}

/** Profiles mentioning the image anywhere in what they boot (paths, URLs, script, command line). */
export function profileUsers(profiles: readonly ProfileLike[], slug: string): ImageUser[] {
  const users: ImageUser[] = [];
  for (const profile of profiles) {
    const { id: _id, name, ...rest } = profile as ProfileLike & Record<string, unknown>;
    delete rest.description;
    delete rest.created_at;
    delete rest.updated_at;
    if (mentionsImage(JSON.stringify(rest), slug)) users.push({ kind: 'profile', label: `profile ${profile.id} (${name})` });
  }
  return users;
}

export interface TaskLike {
  id: number;
  mac: string;
  distro: string;
  version: string;
  arch: string;
}

/** Install tasks (not final) installing the entry the image is linked to. */
export function taskUsers(tasks: readonly TaskLike[], image: Pick<OsImage, 'detection'>): ImageUser[] {
  const entry = image.detection?.catalog_entry;
  if (!entry) return [];
  return tasks
    .filter((task) => task.distro === entry.distro && task.version === entry.version && task.arch === entry.arch)
    .map((task) => ({ kind: 'task', label: `install task ${task.id} (${task.mac}: ${task.distro} ${task.version} ${task.arch}) installs the catalog entry this image is linked to` }));
}

/** Catalog overlays whose fields point into the image. */
export function overlayUsers(overlays: readonly { distro: string }[], slug: string): ImageUser[] {
  return overlays.filter((overlay) => mentionsImage(JSON.stringify(overlay), slug)).map((overlay) => ({ kind: 'catalog', label: `netboot catalog overlay of ${overlay.distro}` }));
}
