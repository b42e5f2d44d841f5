import type { FastifyPluginAsync } from 'fastify';
import { Ok } from '../core/http-kit/schemas.js';
import type { BuildInfo } from '../core/version.js';
import { UpdateCheckSchema, UpdateDownloadSchema, VersionInfo } from './system-contract.js';
import type { UpdateService } from './update-service.js';

/** What the version routes read: this build and the update service. */
export interface VersionRouteDeps {
  build: BuildInfo & { electron: string | null };
  updates: Pick<UpdateService, 'check' | 'download'>;
}

/** Version information, update check and verified update download. */
export const versionRoutes = (ctx: VersionRouteDeps): FastifyPluginAsync => async (app) => {
  app.get(
    '/version',
    {
      config: { access: 'viewer' },
      schema: { tags: ['version'], summary: 'Version of this server and its runtime', response: { 200: Ok(VersionInfo) } },
    },
    async () => ({
      success: true as const,
      data: {
        version: ctx.build.version,
        commit: ctx.build.commit,
        build_date: ctx.build.build_date,
        node: process.versions.node,
        electron: ctx.build.electron,
        platform: process.platform,
        arch: process.arch,
      },
    }),
  );

  app.post(
    '/version/check',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['version'],
        summary: 'Fetch the update feed (general.update_feed_url) and compare its version with this one; 409 without a feed, 502 when it fails',
        response: { 200: Ok(UpdateCheckSchema) },
      },
    },
    async () => ({ success: true as const, data: await ctx.updates.check() }),
  );

  app.post(
    '/version/download',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['version'],
        summary: 'Download the release the feed names into <data-dir>/updates/, verified by SHA-256; 502 on failure or mismatch',
        response: { 200: Ok(UpdateDownloadSchema) },
      },
    },
    async () => ({ success: true as const, data: await ctx.updates.download() }),
  );
};
