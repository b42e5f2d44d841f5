import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveInsideRoot } from '../../boot-files/path-confinement.js';
import { AppError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { EntryFilesCheck, FileAvailability, FileCheck } from '../netboot-contract.js';
import { FILE_AVAILABILITY } from '../netboot-contract.js';
import type { BootFileSource, ResolvedEntry, ResolvedFile } from '../netboot-ports.js';
import { checksumFileUrl, expandPlaceholders, MAX_CHECKSUM_FILE_BYTES, nameInChecksumFile, parseChecksumFile, type ExpectedDigest } from './checksums.js';
import type { CachedFile, DownloadCache } from './download-cache.js';

/*
 * Where an entry's boot files come from, best first: the boot root (a file
 * a technician put at its served path), an OS image (a later area, through
 * ImageFileSource), the download cache, the mirror. Offline, a file only
 * the mirror has is missing, and the entry says what to download or import.
 */

/** A file of an entry found in an OS image's content (extracted or mounted). Implemented by the OS images area, later. */
export interface ImageFile {
  /** The image's id and the path inside it, as check-files shows it. */
  location: string;
  /** Absolute path of the file to serve. */
  absolute: string;
  size: number;
}

/** OS images as the netboot files see them (no implementation yet: the OS images issue). */
export interface ImageFileSource {
  find(resolved: ResolvedEntry, file: ResolvedFile): Promise<ImageFile | null>;
}

/** How long a cached checksum file is trusted while online (point releases republish it). */
export const CHECKSUM_FILE_MAX_AGE_MS = 6 * 60 * 60 * 1000;

export interface NetbootFilesDeps {
  /** The boot root (the boot-files area's `files.root`). */
  bootRoot: string;
  cache: DownloadCache;
  offline: () => boolean;
  images?: ImageFileSource;
  log: Logger;
}

/** A file to send to a booting machine; `release` (cached files) ends its hold against eviction. */
export interface ServedFile {
  path: string;
  size: number;
  release?: (bytesSent: number) => void;
}

/** One file's place, as check() found it. */
interface Located {
  file: ResolvedFile;
  availability: FileAvailability;
  location: string;
  size: number | null;
  absolute: string | null;
}

export class NetbootFiles implements BootFileSource {
  constructor(private readonly deps: NetbootFilesDeps) {}

  async check(resolved: ResolvedEntry): Promise<EntryFilesCheck> {
    const located = await Promise.all(resolved.files.map((file) => this.locate(resolved, file)));
    const files: FileCheck[] = located.map((item) => ({
      role: item.file.role,
      path: item.file.path,
      availability: item.availability,
      location: item.location,
      size_bytes: item.size,
    }));
    const worst = located.reduce<FileAvailability>((acc, item) => (FILE_AVAILABILITY.indexOf(item.availability) > FILE_AVAILABILITY.indexOf(acc) ? item.availability : acc), 'local');
    return {
      distro: resolved.entry.distro,
      version: resolved.version.version,
      arch: resolved.arch.arch,
      availability: files.length === 0 ? 'missing' : worst,
      files,
      problem: this.problem(resolved, located),
    };
  }

  async ensure(resolved: ResolvedEntry): Promise<void> {
    await this.ensureFiles(resolved, () => undefined);
  }

  /**
   * Downloads every file that is only remote (in parallel), reporting the
   * bytes done and, once every download announced its length, the total.
   * Throws the check's problem when a file is missing.
   */
  async ensureFiles(resolved: ResolvedEntry, onProgress: (done: number, total: number | null) => void): Promise<void> {
    const check = await this.check(resolved);
    if (check.problem) throw new AppError('INVALID_STATE', check.problem);
    const remote = check.files.map((item, i) => ({ item, file: resolved.files[i] })).filter(({ item }) => item.availability === 'remote');
    const progress = remote.map(() => ({ done: 0, total: null as number | null }));
    const report = () => {
      const done = progress.reduce((sum, p) => sum + p.done, 0);
      const total = progress.every((p) => p.total !== null) ? progress.reduce((sum, p) => sum + (p.total ?? 0), 0) : null;
      onProgress(done, total);
    };
    report();
    await Promise.all(
      remote.map(async ({ file }, i) => {
        if (!file?.url) return;
        await this.fetch(resolved, file, {
          onProgress: (done, total) => {
            const slot = progress[i];
            if (!slot) return;
            slot.done = done;
            slot.total = total;
            report();
          },
        });
      }),
    );
    report();
  }

  /**
   * The file to serve for `file` when none lies under the boot root: an OS
   * image's, else the cached copy, else downloaded now (unless offline: then
   * null). The answer holds the file until `release` is called.
   */
  async serve(resolved: ResolvedEntry, file: ResolvedFile): Promise<ServedFile | null> {
    const image = this.deps.images ? await this.deps.images.find(resolved, file) : null;
    if (image) return { path: image.absolute, size: image.size };
    if (!file.url) return null;
    if (this.deps.offline() && !this.deps.cache.lookup(file.url)) {
      this.deps.log.warn(`offline mode: ${file.served_path} is not cached; download it with POST /netboot/prefetch once online, or put it at ${path.join(this.deps.bootRoot, file.served_path)}`);
      return null;
    }
    return this.fetch(resolved, file, { lease: true });
  }

  /** Whether `file` lies under the boot root at its served path (a technician's local copy). */
  async localFile(file: ResolvedFile): Promise<{ absolute: string; size: number } | null> {
    const confined = await resolveInsideRoot(this.deps.bootRoot, file.served_path).catch(() => null);
    if (!confined?.ok) return null;
    const info = await stat(confined.absolute).catch(() => null);
    return info?.isFile() ? { absolute: confined.absolute, size: info.size } : null;
  }

  private fetch(resolved: ResolvedEntry, file: ResolvedFile, options: { lease?: boolean; onProgress?: (done: number, total: number | null) => void }): Promise<CachedFile> {
    const url = file.url;
    if (!url) throw new AppError('INVALID_STATE', `${file.served_path} has no mirror URL`);
    // A cached copy was verified when it arrived: only the catalog's own digest (cheap) can call it stale.
    const known = this.deps.cache.lookup(url) ? Promise.resolve(file.sha256 ? this.catalogDigest(file.sha256) : null) : this.expectedDigest(resolved, file);
    return known.then((expected) =>
      this.deps.cache.get(url, {
        expected,
        ...options,
        offlineHint: `download it with POST /netboot/prefetch once offline mode is off, or put it at ${path.join(this.deps.bootRoot, file.served_path)}`,
      }),
    );
  }

  private async locate(resolved: ResolvedEntry, file: ResolvedFile): Promise<Located> {
    const local = await this.localFile(file);
    if (local) return { file, availability: 'local', location: local.absolute, size: local.size, absolute: local.absolute };
    const image = this.deps.images ? await this.deps.images.find(resolved, file).catch(() => null) : null;
    if (image) return { file, availability: 'image', location: image.location, size: image.size, absolute: image.absolute };
    const cached = file.url ? this.deps.cache.lookup(file.url) : undefined;
    // A catalog digest that no longer matches the cached copy: the copy is stale, it would be downloaded again.
    if (cached && (file.sha256 === null || file.sha256 === cached.sha256)) {
      return { file, availability: 'cached', location: file.url ?? '', size: cached.size, absolute: this.deps.cache.filePath(cached.url) };
    }
    if (file.url && !this.deps.offline()) return { file, availability: 'remote', location: file.url, size: null, absolute: null };
    return { file, availability: 'missing', location: path.join(this.deps.bootRoot, file.served_path), size: null, absolute: null };
  }

  /** What to do when the entry cannot boot now (a file missing), else null. */
  private problem(resolved: ResolvedEntry, located: readonly Located[]): string | null {
    const missing = located.filter((item) => item.availability === 'missing');
    if (resolved.files.length === 0) return `${resolved.entry.distro} ${resolved.version.version} ${resolved.arch.arch} lists no boot files`;
    if (missing.length === 0) return null;
    const folder = path.join(this.deps.bootRoot, path.dirname(missing[0]?.file.served_path ?? ''));
    const names = missing.map((item) => item.file.name).join(', ');
    const label = `${resolved.entry.distro} ${resolved.version.version} ${resolved.arch.arch}`;
    const remote = missing.filter((item) => item.file.url !== null);
    if (remote.length > 0) {
      return `${label} cannot boot offline: ${names} ${missing.length === 1 ? 'is' : 'are'} not in the download cache (${remote.map((item) => item.file.url).join(', ')}); turn offline mode off and download with POST /netboot/prefetch, or put ${missing.length === 1 ? 'it' : 'them'} at ${folder}/`;
    }
    return `${label} has no mirror: put ${names} at ${folder}/ (or import an OS image that holds ${missing.length === 1 ? 'it' : 'them'})`;
  }

  private catalogDigest(hex: string): ExpectedDigest {
    return { algorithm: 'sha256', hex: hex.toLowerCase(), source: 'the catalog' };
  }

  /**
   * The digest `file` must have: the catalog's own, else the distro's
   * published checksum file (downloaded through the cache; trusted for
   * CHECKSUM_FILE_MAX_AGE_MS while online), else none.
   */
  async expectedDigest(resolved: ResolvedEntry, file: ResolvedFile): Promise<ExpectedDigest | null> {
    if (file.sha256) return this.catalogDigest(file.sha256);
    const checksums = resolved.arch.checksums;
    if (!checksums || !resolved.mirror) return null;
    const expand = (text: string) =>
      expandPlaceholders(text, { version: resolved.version.version, codename: resolved.version.codename, arch_alias: resolved.entry.arch_aliases?.[resolved.arch.arch] ?? resolved.arch.arch });
    const sumsUrl = checksumFileUrl(resolved.mirror, checksums, expand);
    const name = nameInChecksumFile(file.path, expand(checksums.file));
    if (name === null) {
      this.deps.log.warn(`${file.url ?? file.path} is outside the folder of ${sumsUrl}: downloaded without a published checksum`);
      return null;
    }
    const sums = await this.deps.cache.get(sumsUrl, { maxAgeMs: CHECKSUM_FILE_MAX_AGE_MS });
    if (sums.size > MAX_CHECKSUM_FILE_BYTES) throw new AppError('UPSTREAM_FAILED', `checksum file ${sumsUrl} is ${sums.size} bytes: not a checksum file`);
    let text: string;
    try {
      text = await readFile(sums.path, 'utf8');
    } catch (err) {
      throw new AppError('UPSTREAM_FAILED', `reading checksum file ${sumsUrl} failed: ${errorMessage(err)}`);
    }
    const digest = parseChecksumFile(text, checksums.algorithm, checksums.strip_prefix ?? '').get(name);
    if (!digest) {
      this.deps.log.warn(`${name} is not listed in ${sumsUrl}: downloaded without a published checksum`);
      return null;
    }
    return { algorithm: checksums.algorithm, hex: digest, source: sumsUrl };
  }
}
