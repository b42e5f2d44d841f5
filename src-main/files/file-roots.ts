import { fileSystemSpace } from '../metrics/disk-usage.js';
import type { RootCheck } from '../settings/served-roots.js';
import { FILE_ROOTS, type FileRoot, type FileRootId } from './files-contract.js';
import { refuse } from './file-paths.js';

/**
 * The roots /files works in (docs/files.md, "Roots"): the boot root, the OS
 * images folder and the drop folder. Each is checked by the served-root
 * policy before every use, so a root swapped for a symlink to /etc (or a
 * drop folder that is no longer allowed) is refused rather than worked in;
 * the operations then work under the real path that check returned.
 */

export interface FileRootsDeps {
  /** The boot root (`<data-dir>/boot`, the boot-files area's). */
  bootRoot: string;
  /** `<data-dir>/images`. */
  imagesRoot: string;
  /** The OS images drop folder, or null when none is set (the os-images area's setting). */
  dropFolder: () => string | null;
  /** The served-root policy (ServedRoots.check). */
  checkRoot: (root: string) => Promise<RootCheck>;
}

const LABELS: Record<FileRootId, string> = { boot: 'Boot files', images: 'OS images', drop: 'Drop folder' };

export interface OpenedRoot {
  id: FileRootId;
  /** As configured. */
  path: string;
  /** Its real path, checked: what every operation works under. */
  real: string;
}

export class FileRoots {
  constructor(private readonly deps: FileRootsDeps) {}

  /** The configured path of a root; null for an unset drop folder. */
  pathOf(id: FileRootId): string | null {
    switch (id) {
      case 'boot':
        return this.deps.bootRoot;
      case 'images':
        return this.deps.imagesRoot;
      case 'drop':
        return this.deps.dropFolder();
    }
  }

  /** A usable root, or a VALIDATION_FAILED naming `field`. */
  async open(id: FileRootId, field = 'query.root'): Promise<OpenedRoot> {
    const configured = this.pathOf(id);
    if (configured === null) throw refuse(field, 'no drop folder is set (os-images settings)');
    const verdict = await this.deps.checkRoot(configured);
    if (!verdict.ok) throw refuse(field, `the ${id} root ${configured} is not usable: ${verdict.problem}`);
    return { id, path: configured, real: verdict.real };
  }

  /** Every root with whether it is usable now and its file system's space. */
  async describe(): Promise<FileRoot[]> {
    const roots: FileRoot[] = [];
    for (const id of FILE_ROOTS) {
      const configured = this.pathOf(id);
      if (configured === null) {
        roots.push({ id, label: LABELS[id], path: '', problem: 'no drop folder is set (os-images settings)', free_bytes: null, total_bytes: null });
        continue;
      }
      const verdict = await this.deps.checkRoot(configured);
      const space = verdict.ok ? await fileSystemSpace(verdict.real) : null;
      roots.push({
        id,
        label: LABELS[id],
        path: configured,
        problem: verdict.ok ? null : verdict.problem,
        free_bytes: space?.free ?? null,
        total_bytes: space?.total ?? null,
      });
    }
    return roots;
  }
}
