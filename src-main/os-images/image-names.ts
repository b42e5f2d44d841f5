import path from 'node:path';
import { IMAGE_EXTENSIONS, IMAGE_FILE_NAME_PATTERN, IMAGE_NAME_PATTERN, IMAGE_SLUG_PATTERN } from './os-images-contract.js';

/*
 * Names an image gets from its file: the display name, the slug (the URL
 * segment of its mount and extraction folder), and the checks of a file name.
 * Pure functions, so they are tested without a disk.
 */

const FILE_NAME = new RegExp(IMAGE_FILE_NAME_PATTERN);
const DISPLAY_NAME = new RegExp(IMAGE_NAME_PATTERN);
const SLUG = new RegExp(IMAGE_SLUG_PATTERN);

/** Whether `name` ends in .iso or .img (any case). */
export function hasImageExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return IMAGE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** A file name the images folder accepts: the contract's pattern and an image extension. */
export function isImageFileName(name: string): boolean {
  return FILE_NAME.test(name) && hasImageExtension(name);
}

function stem(fileName: string): string {
  const base = path.basename(fileName);
  return hasImageExtension(base) ? base.slice(0, -path.extname(base).length) : base;
}

/** "debian-12.5.0-amd64-netinst.iso" → "debian-12.5.0-amd64-netinst"; characters a display name may not hold become spaces. */
export function nameFromFileName(fileName: string): string {
  const cleaned = stem(fileName)
    .replace(/[^A-Za-z0-9 ._()+-]+/g, ' ')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 128)
    .trim();
  return DISPLAY_NAME.test(cleaned) ? cleaned : 'image';
}

/** "Debian 12.5 netinst.iso" → "debian-12.5-netinst": lower case, runs of other characters as one '-'. */
export function slugFromFileName(fileName: string): string {
  const slug = stem(fileName)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/[-.]+$/, '');
  return SLUG.test(slug) ? slug : 'image';
}

/** `wanted`, or `wanted-2`, `wanted-3`… the first one `taken` does not hold (kept within the slug's 64 characters). */
export function uniqueSlug(wanted: string, taken: (slug: string) => boolean): string {
  if (!taken(wanted)) return wanted;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${wanted.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}
