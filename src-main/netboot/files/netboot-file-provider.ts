import type { BootClient, VirtualDiskFile, VirtualFileProvider } from '../../boot-files/virtual-files.js';
import { isAppError } from '../../core/errors.js';
import { NETBOOT_ARCHES, type NetbootArch } from '../netboot-contract.js';
import type { ResolvedEntry } from '../netboot-ports.js';
import type { NetbootFiles } from './netboot-files.js';

/** Finds a catalog entry by its served path's parts; null when the catalog has no such entry. */
export type EntryLookup = (distro: string, version: string, arch: NetbootArch) => ResolvedEntry | null;

/** A virtual-file provider whose answers are always files on disk. */
export interface NetbootFileProvider extends VirtualFileProvider {
  resolve(requested: string, client: BootClient): Promise<VirtualDiskFile | null>;
}

/**
 * The boot-files provider of entries' files at
 * `netboot/<distro>/<version>/<arch>/<name>` (TFTP and HTTP /boot/). A real
 * file under the boot root at that path wins (the provider steps aside);
 * otherwise the file comes from an OS image or the download cache, fetched
 * from the mirror on demand while the machine waits (not when offline: then
 * the request is a plain "not found").
 */
export function netbootFileProvider(files: Pick<NetbootFiles, 'localFile' | 'serve'>, lookup: EntryLookup): NetbootFileProvider {
  return {
    async resolve(requested: string, _client: BootClient): Promise<VirtualDiskFile | null> {
      const parts = requested.split('/');
      if (parts.length !== 5 || parts[0] !== 'netboot') return null;
      const [, distro, version, arch] = parts;
      if (!distro || !version || !isArch(arch)) return null;
      const resolved = lookup(distro, version, arch);
      const file = resolved?.files.find((candidate) => candidate.served_path === requested);
      if (!resolved || !file) return null;
      if (await files.localFile(file)) return null;
      const served = await files.serve(resolved, file);
      if (!served) return null;
      return { kind: 'file', path: served.path, size: served.size, ...(served.release ? { release: served.release } : {}) };
    },
    owns(requested: string): boolean {
      const parts = requested.split('/');
      if (parts.length !== 5 || parts[0] !== 'netboot') return false;
      const [, distro, version, arch] = parts;
      if (!distro || !version || !isArch(arch)) return false;
      return lookup(distro, version, arch)?.files.some((candidate) => candidate.served_path === requested) ?? false;
    },
  };
}

function isArch(value: string | undefined): value is NetbootArch {
  return (NETBOOT_ARCHES as readonly string[]).includes(value ?? '');
}

/** A lookup over CatalogReader.resolve, which throws NOT_FOUND for an unknown distro, version or arch. */
export function lookupFromCatalog(resolve: (distro: string, version?: string, arch?: NetbootArch) => ResolvedEntry): EntryLookup {
  return (distro, version, arch) => {
    try {
      const resolved = resolve(distro, version, arch);
      // resolve() falls back to defaults only when a part is absent; a served path names all three exactly.
      return resolved.version.version === version && resolved.arch.arch === arch ? resolved : null;
    } catch (err) {
      if (isAppError(err) && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  };
}
