import type { FastifyPluginAsync } from 'fastify';
import { Ok } from '../core/http-kit/schemas.js';
import type { Kernel } from '../core/area.js';
import { directoryUsage, fileSystemSpace, type DirectoryUsage } from '../metrics/disk-usage.js';
import { lanUrls } from '../network/lan-urls.js';
import { SERVICE_STATES, type ServiceState } from '../services/services-contract.js';
import { StatusSchema } from './system-contract.js';

/** What /status reads from the kernel. */
export type StatusRouteDeps = Pick<Kernel, 'build' | 'config' | 'services' | 'settings' | 'startedAt' | 'network' | 'http'>;

/** The data directory walk is reused this long: a UI polling /status must not walk it every time. */
const USAGE_CACHE_MS = 10_000;

/** Overall status: version, uptime, services by state, data directory usage. */
export const statusRoutes = (ctx: StatusRouteDeps): FastifyPluginAsync => async (app) => {
  let usage: { at: number; value: Promise<DirectoryUsage> } | null = null;
  const dataDirUsage = (): Promise<DirectoryUsage> => {
    const now = Date.now();
    if (!usage || now - usage.at > USAGE_CACHE_MS) usage = { at: now, value: directoryUsage(ctx.config.dataDir) };
    return usage.value;
  };

  app.get(
    '/status',
    {
      config: { access: 'viewer' },
      schema: { tags: ['status'], summary: 'Server status: version, uptime, LAN URLs, how interface changes are followed, services by state, data directory usage', response: { 200: Ok(StatusSchema) } },
    },
    async () => {
      const now = new Date();
      const services = ctx.services.list(now);
      const byState = Object.fromEntries(SERVICE_STATES.map((state) => [state, 0])) as Record<ServiceState, number>;
      for (const service of services) byState[service.state] += 1;
      const [used, space] = await Promise.all([dataDirUsage(), fileSystemSpace(ctx.config.dataDir)]);
      return {
        success: true as const,
        data: {
          version: ctx.build.version,
          server_name: ctx.settings.general().server_name,
          started_at: ctx.startedAt.toISOString(),
          uptime_seconds: Math.max(0, Math.floor((now.getTime() - ctx.startedAt.getTime()) / 1000)),
          urls: lanUrls(ctx.network.served(), ctx.http, ctx.http.port()),
          interface_watch: ctx.network.watchState(),
          services: { total: services.length, by_state: byState, list: services },
          data_dir: {
            path: ctx.config.dataDir,
            bytes_used: used.bytes,
            usage_truncated: used.truncated,
            fs_free_bytes: space?.free ?? null,
            fs_total_bytes: space?.total ?? null,
          },
        },
      };
    },
  );
};
