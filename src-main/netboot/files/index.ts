import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { BootFiles } from '../../boot-files/boot-files.js';
import type { Kernel } from '../../core/area.js';
import { notFound } from '../../core/errors.js';
import type { CheckFilesQuery, EntryFilesCheck, NetbootArch } from '../netboot-contract.js';
import type { BootFileSource, CatalogReader, ResolvedEntry } from '../netboot-ports.js';
import { CACHE_COLLECTION, type CacheRow } from './cache-index.js';
import { DownloadCache, type CacheSettings } from './download-cache.js';
import { netbootFilesRoutes, type NetbootFilesOperations } from './files-routes.js';
import { lookupFromCatalog, netbootFileProvider } from './netboot-file-provider.js';
import { NetbootFiles, type ImageFileSource } from './netboot-files.js';
import { PrefetchJobs } from './prefetch-jobs.js';

export { DownloadCache, MAX_FILE_BYTES, type CacheSettings, type CachedFile } from './download-cache.js';
export { NetbootFiles, type ImageFile, type ImageFileSource, type ServedFile } from './netboot-files.js';
export { PrefetchJobs } from './prefetch-jobs.js';
export { netbootFileProvider, lookupFromCatalog, type EntryLookup } from './netboot-file-provider.js';
export { netbootFilesRoutes, type NetbootFilesOperations } from './files-routes.js';

/**
 * Stands in for the catalog until NetbootCatalog is wired (the catalog part):
 * no entries, every resolve is NOT_FOUND.
 */
export const NO_CATALOG: CatalogReader & CatalogListing = {
  resolve(distro) {
    throw notFound('netboot catalog entry', distro);
  },
  supports: () => false,
  entries: () => [],
};

/**
 * What the files part needs of the catalog besides CatalogReader: the list of
 * entries with their versions and architectures (check-files without
 * filters walks all of it). CatalogEntryView satisfies it.
 */
export interface CatalogListing {
  entries(): readonly { distro: string; versions: readonly { version: string; architectures: readonly { arch: NetbootArch }[] }[] }[];
}

/** The files part as the netboot facade shows it (`netboot.files`). */
export interface NetbootFilesFacade extends NetbootFilesOperations {
  /** check/ensure of a resolved entry (the install tasks make an entry's files reachable before it boots). */
  source: BootFileSource;
  cache: DownloadCache;
  jobs: PrefetchJobs;
}

export interface NetbootFilesPart {
  facade: NetbootFilesFacade;
  routes: FastifyPluginAsync[];
  /** Stops following settings, removes the boot-files provider, aborts downloads and waits for prefetches to end. */
  close(): Promise<void>;
}

export interface NetbootFilesPartOptions {
  kernel: Pick<Kernel, 'config' | 'store' | 'settings' | 'events' | 'log'>;
  bootFiles: Pick<BootFiles, 'root' | 'addVirtualProvider'>;
  catalog: CatalogReader & CatalogListing;
  images?: ImageFileSource;
  now?: () => Date;
  /** Observes the headers of every mirror request (tests). */
  onMirrorRequest?: (url: string, headers: Record<string, string>) => void;
}

/** The netboot download cache's directory under the data dir. */
export function cacheDir(dataDir: string): string {
  return path.join(dataDir, 'netboot-cache');
}

/**
 * Builds the files part (docs/netboot.md, "Boot files and the download
 * cache"): the cache (opened and reconciled with its index), the file
 * source, prefetch jobs, the boot-files provider of
 * `netboot/<distro>/<version>/<arch>/<name>`, and the routes.
 */
export async function createNetbootFilesPart(options: NetbootFilesPartOptions): Promise<NetbootFilesPart> {
  const { kernel, bootFiles, catalog } = options;
  const log = kernel.log.scope('netboot-files');
  const settings = (): CacheSettings => {
    const current = kernel.settings.netboot();
    return {
      maxBytes: current.cache_max_mb * 1024 * 1024,
      offline: current.offline,
      stallTimeoutMs: current.download_timeout_seconds * 1000,
      proxy: current.http_proxy,
    };
  };
  const cache = new DownloadCache({
    dir: cacheDir(kernel.config.dataDir),
    rows: kernel.store.collection<CacheRow>(CACHE_COLLECTION),
    settings,
    events: kernel.events,
    log,
    ...(options.now ? { now: options.now } : {}),
    ...(options.onMirrorRequest ? { onRequest: options.onMirrorRequest } : {}),
  });
  await cache.open();
  const source = new NetbootFiles({ bootRoot: bootFiles.root, cache, offline: () => settings().offline, log, ...(options.images ? { images: options.images } : {}) });
  const jobs = new PrefetchJobs(source, kernel.events);
  const removeProvider = bootFiles.addVirtualProvider(netbootFileProvider(source, lookupFromCatalog((d, v, a) => catalog.resolve(d, v, a))));
  const stopFollowing = kernel.settings.onChange('netboot', (next, previous) => {
    if (next.cache_max_mb < previous.cache_max_mb) void cache.enforceLimit().catch((err: unknown) => log.warn(`netboot cache eviction failed: ${String(err)}`));
  });

  const facade: NetbootFilesFacade = {
    source,
    cache,
    jobs,
    checkFiles: (query) => checkFiles(catalog, source, query),
    cacheStats: () => cache.stats(),
    prefetch: (body) => jobs.start(catalog.resolve(body.distro, body.version, body.arch)),
    prefetchJob: (id) => jobs.get(id),
    clearCache: async () => {
      await cache.clear();
      return cache.stats();
    },
  };
  return {
    facade,
    routes: [netbootFilesRoutes(facade)],
    async close() {
      stopFollowing();
      removeProvider();
      await cache.close();
      await jobs.settle();
    },
  };
}

/** check-files: one entry/version/arch, or every one of the catalog that matches the filters. */
async function checkFiles(catalog: CatalogReader & CatalogListing, source: BootFileSource, query: CheckFilesQuery): Promise<EntryFilesCheck[]> {
  // An unknown distro or version is a 404 (resolve throws NOT_FOUND), not an empty list.
  if (query.distro) catalog.resolve(query.distro, query.version);
  const targets: ResolvedEntry[] = [];
  for (const entry of catalog.entries()) {
    if (query.distro && entry.distro !== query.distro) continue;
    for (const version of entry.versions) {
      if (query.version && version.version !== query.version) continue;
      for (const arch of version.architectures) {
        if (query.arch && arch.arch !== query.arch) continue;
        targets.push(catalog.resolve(entry.distro, version.version, arch.arch));
      }
    }
  }
  return Promise.all(targets.map((resolved) => source.check(resolved)));
}
