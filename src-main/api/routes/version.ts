import { Type } from 'typebox';
import { Ok } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

const VersionInfo = Type.Object({
  version: Type.String({ description: 'Bootwright version (package.json)' }),
  commit: Type.Union([Type.String(), Type.Null()], { description: 'Git commit of the build; null when built outside git or run from sources' }),
  build_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  node: Type.String({ description: 'Node.js version' }),
  electron: Type.Union([Type.String(), Type.Null()], { description: 'Electron version; null when headless' }),
  platform: Type.String({ description: 'process.platform: linux, win32, darwin' }),
  arch: Type.String({ description: 'process.arch: x64, arm64' }),
});

const UpdateCheckSchema = Type.Object({
  current: Type.String(),
  latest: Type.String(),
  update_available: Type.Boolean({ description: 'true when latest is newer than current (semver precedence)' }),
  url: Type.String({ description: 'Where the release file is downloaded from' }),
  notes: Type.Union([Type.String(), Type.Null()]),
  published_at: Type.Union([Type.String(), Type.Null()]),
});

const UpdateDownloadSchema = Type.Object({
  file: Type.String({ description: 'Absolute path of the verified file under <data-dir>/updates/' }),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String(),
  version: Type.String(),
});

/** Version information, update check and verified update download. */
export const versionRoutes: RoutePluginFactory = (ctx) => async (app) => {
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
