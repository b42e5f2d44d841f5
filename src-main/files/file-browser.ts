import type { Stats } from 'node:fs';
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../core/errors.js';
import type { AllowedRootView } from '../settings/served-roots.js';
import { isWithin } from '../settings/served-root-policy.js';
import type { BrowseQuery, BrowseResult } from './files-contract.js';
import { checkAbsolutePath, PARTIAL_PREFIX, refuse } from './file-paths.js';
import { errnoOf, fileTypeOf, fsError } from './file-walk.js';

/**
 * GET /fs/browse: an admin picks a folder or file on this machine (for an
 * image import, an NFS export), confined to the browse roots, which are the
 * usable allowed roots of the served-root policy (docs/files.md). A path
 * is judged on its real path; a symlink is listed only when it resolves
 * inside a browse root (with the type of what it leads to) and special files
 * are not listed.
 */

/** Most entries one directory listing returns (a folder of 100,000 files is no picker). */
export const MAX_BROWSE_ENTRIES = 5000;

const FIELD = 'query.path';

export class FileBrowser {
  constructor(private readonly allowedRoots: () => Promise<AllowedRootView[]>) {}

  /** The real paths of the usable allowed roots, without duplicates. */
  async roots(): Promise<string[]> {
    const roots: string[] = [];
    for (const view of await this.allowedRoots()) {
      if (view.problem !== null) continue;
      const real = await realpath(view.path).catch(() => null);
      if (real !== null && !roots.includes(real)) roots.push(real);
    }
    return roots;
  }

  async browse(query: BrowseQuery): Promise<BrowseResult> {
    const roots = await this.roots();
    if (query.path === undefined) {
      const entries: BrowseResult['entries'] = [];
      for (const root of roots) {
        const info = await stat(root).catch(() => null);
        if (info) entries.push({ name: root, path: root, type: 'directory', size: 0, modified_at: info.mtime.toISOString() });
      }
      return { path: null, parent: null, roots, entries };
    }
    const asked = checkAbsolutePath(query.path, FIELD);
    let real: string;
    try {
      real = await realpath(asked);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') throw new AppError('NOT_FOUND', `${asked} does not exist`);
      throw fsError(asked, error, FIELD);
    }
    const within = (candidate: string) => roots.some((root) => isWithin(root, candidate));
    if (!within(real)) {
      const shown = real === asked ? asked : `${asked} (really ${real})`;
      throw refuse(FIELD, `${shown} is outside the browse roots (${roots.join(', ') || 'none usable'}); an admin can allow more with PUT /settings/served-roots`);
    }
    const info = await stat(real);
    if (!info.isDirectory()) throw refuse(FIELD, `${asked} is not a directory`);

    const showFiles = query.show === 'all';
    const extensions = parseExtensions(query.extensions);
    const entries: BrowseResult['entries'] = [];
    const dir = await opendir(real).catch((error: unknown) => {
      throw fsError(asked, error, FIELD);
    });
    for await (const dirent of dir) {
      if (entries.length >= MAX_BROWSE_ENTRIES) break;
      if (dirent.name.startsWith(PARTIAL_PREFIX)) continue;
      const absolute = path.join(real, dirent.name);
      const own = await lstat(absolute).catch(() => null);
      if (!own) continue;
      let shown: Stats | null = own;
      if (own.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => null);
        shown = target !== null && within(target) ? await stat(target).catch(() => null) : null;
      }
      if (!shown) continue;
      const type = fileTypeOf(shown);
      if (type === 'directory' || (type === 'file' && showFiles && matches(dirent.name, extensions))) {
        entries.push({ name: dirent.name, path: absolute, type, size: type === 'file' ? shown.size : 0, modified_at: shown.mtime.toISOString() });
      }
    }
    entries.sort((a, b) => Number(b.type === 'directory') - Number(a.type === 'directory') || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const above = path.dirname(real);
    const parent = roots.includes(real) || above === real || !within(above) ? null : above;
    return { path: real, parent, roots, entries };
  }
}

/** ".iso,img, .IMG" → ['.iso', '.img']; empty: every file. */
function parseExtensions(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '')
    .map((part) => (part.startsWith('.') ? part : `.${part}`));
}

function matches(name: string, extensions: readonly string[]): boolean {
  if (extensions.length === 0) return true;
  const lower = name.toLowerCase();
  return extensions.some((extension) => lower.endsWith(extension));
}
