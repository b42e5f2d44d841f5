import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { Ok, StrictObject } from '../../core/http-kit/schemas.js';
import {
  CacheStatsSchema,
  CheckFilesQuerySchema,
  EntryFilesCheckSchema,
  PrefetchBodySchema,
  PrefetchJobSchema,
  type CacheStats,
  type CheckFilesQuery,
  type EntryFilesCheck,
  type PrefetchBody,
  type PrefetchJob,
} from '../netboot-contract.js';

/** What the routes call (the files part's facade, files/index.ts). */
export interface NetbootFilesOperations {
  checkFiles(query: CheckFilesQuery): Promise<EntryFilesCheck[]>;
  cacheStats(): CacheStats;
  prefetch(body: PrefetchBody): Promise<PrefetchJob>;
  prefetchJob(id: string): PrefetchJob;
  clearCache(): Promise<CacheStats>;
}

const JobParams = StrictObject({ id: Type.String({ pattern: '^[0-9a-f-]{36}$' }) });

/** The netboot files routes: availability of entries' files, the download cache, prefetch jobs. */
export function netbootFilesRoutes(files: NetbootFilesOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: CheckFilesQuery }>(
      '/netboot/check-files',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['netboot'],
          summary: 'Where each entry\'s boot files are (local, image, cached, remote, missing), per version and architecture; all of the catalog without filters',
          querystring: CheckFilesQuerySchema,
          response: { 200: Ok(Type.Array(EntryFilesCheckSchema)) },
        },
      },
      async (request) => ({ success: true as const, data: await files.checkFiles(request.query) }),
    );

    app.get(
      '/netboot/cache-stats',
      {
        config: { access: 'viewer' },
        schema: { tags: ['netboot'], summary: 'Netboot download cache: size, limit, entries, hits and misses, bytes served and downloaded', response: { 200: Ok(CacheStatsSchema) } },
      },
      async () => ({ success: true as const, data: files.cacheStats() }),
    );

    app.post<{ Body: PrefetchBody }>(
      '/netboot/prefetch',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['netboot'],
          summary: 'Download an entry\'s remote boot files into the cache in the background (202 with the job; progress events)',
          body: PrefetchBodySchema,
          response: { 202: Ok(PrefetchJobSchema) },
        },
      },
      async (request, reply) => {
        const job = await files.prefetch(request.body);
        return reply.code(202).send({ success: true as const, data: job });
      },
    );

    app.get<{ Params: Static<typeof JobParams> }>(
      '/netboot/prefetch/:id',
      {
        config: { access: 'viewer' },
        schema: { tags: ['netboot'], summary: 'A prefetch job: state, bytes done and total, error', params: JobParams, response: { 200: Ok(PrefetchJobSchema) } },
      },
      async (request) => ({ success: true as const, data: files.prefetchJob(request.params.id) }),
    );

    app.delete(
      '/netboot/cache',
      {
        config: { access: 'operator' },
        schema: { tags: ['netboot'], summary: 'Empty the download cache, except files being served or downloaded; returns the statistics after', response: { 200: Ok(CacheStatsSchema) } },
      },
      async () => ({ success: true as const, data: await files.clearCache() }),
    );
  };
}
