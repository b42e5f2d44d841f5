import { Type } from 'typebox';
import { directoryUsage, fileSystemSpace, type DirectoryUsage } from '../../metrics/disk-usage.js';
import { SERVICE_STATES, type ServiceState } from '../../services/service-manager.js';
import { Ok } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';
import { ServiceStatusSchema } from '../../services/services-contract.js';

/** The data directory walk is reused this long: a UI polling /status must not walk it every time. */
const USAGE_CACHE_MS = 10_000;

const StatusSchema = Type.Object({
  version: Type.String(),
  server_name: Type.String(),
  started_at: Type.String({ format: 'date-time' }),
  uptime_seconds: Type.Integer({ minimum: 0 }),
  services: Type.Object({
    total: Type.Integer({ minimum: 0 }),
    by_state: Type.Object(Object.fromEntries(SERVICE_STATES.map((state) => [state, Type.Integer({ minimum: 0 })])) as Record<ServiceState, ReturnType<typeof Type.Integer>>),
    list: Type.Array(ServiceStatusSchema),
  }),
  data_dir: Type.Object({
    path: Type.String(),
    bytes_used: Type.Integer({ minimum: 0 }),
    usage_truncated: Type.Boolean({ description: 'true when the walk stopped at 100000 entries; bytes_used is then a lower bound' }),
    fs_free_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    fs_total_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  }),
});

/** Overall status: version, uptime, services by state, data directory usage. */
export const statusRoutes: RoutePluginFactory = (ctx) => async (app) => {
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
      schema: { tags: ['status'], summary: 'Server status: version, uptime, services by state, data directory usage', response: { 200: Ok(StatusSchema) } },
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
