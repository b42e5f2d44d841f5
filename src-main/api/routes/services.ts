import { Type, type Static } from 'typebox';
import type { AppContext } from '../../core/app-context.js';
import { AppError, errorMessage, isAppError } from '../../core/errors.js';
import { SERVICE_ACTIONS, SERVICE_STATES, type ServiceAction } from '../../services/service-manager.js';
import { Ok, StrictObject } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

export const ServiceStatusSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    state: Type.Union(SERVICE_STATES.map((state) => Type.Literal(state))),
    auto_start: Type.Boolean(),
    protected: Type.Boolean({ description: 'true for the HTTP service, which the API cannot stop' }),
    listen: Type.Array(Type.String(), { description: 'e.g. "udp 0.0.0.0:53"; empty unless running' }),
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    uptime_seconds: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'ServiceStatus' },
);

const NameParams = StrictObject({ name: Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' }) });
const ActionParams = StrictObject({ name: Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' }), action: Type.Union(SERVICE_ACTIONS.map((a) => Type.Literal(a))) });
const BatchParams = StrictObject({ action: Type.Union(SERVICE_ACTIONS.map((a) => Type.Literal(a))) });
const BatchBody = StrictObject({
  names: Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 32, uniqueItems: true }),
});
const AutoStartBody = StrictObject({ auto_start: Type.Boolean() });
const BatchResult = Type.Object({
  name: Type.String(),
  ok: Type.Boolean(),
  service: Type.Optional(ServiceStatusSchema),
  error: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
});

async function runAction(ctx: AppContext, name: string, action: ServiceAction) {
  return ctx.services[action](name);
}

/** Service lifecycle: list, start/stop/restart (one or a batch), auto-start flag. */
export const serviceRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get(
    '/services',
    {
      config: { access: 'viewer' },
      schema: { tags: ['services'], summary: 'List all services with their states', response: { 200: Ok(Type.Array(ServiceStatusSchema)) } },
    },
    async () => ({ success: true as const, data: ctx.services.list() }),
  );

  app.post<{ Params: Static<typeof BatchParams>; Body: Static<typeof BatchBody> }>(
    '/services/batch/:action',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['services'],
        summary: 'Start, stop or restart several services; one result per name',
        params: BatchParams,
        body: BatchBody,
        response: { 200: Ok(Type.Array(BatchResult)) },
      },
    },
    async (request) => {
      const results = await Promise.all(
        request.body.names.map(async (name) => {
          try {
            return { name, ok: true, service: await runAction(ctx, name, request.params.action) };
          } catch (err) {
            return { name, ok: false, error: errorMessage(err), code: isAppError(err) ? err.code : 'INTERNAL' };
          }
        }),
      );
      return { success: true as const, data: results };
    },
  );

  app.post<{ Params: Static<typeof ActionParams> }>(
    '/services/:name/:action',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['services'],
        summary: 'Start, stop or restart a service (idempotent; 409 while it is starting or stopping)',
        params: ActionParams,
        response: { 200: Ok(ServiceStatusSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await runAction(ctx, request.params.name, request.params.action) }),
  );

  app.put<{ Params: Static<typeof NameParams>; Body: Static<typeof AutoStartBody> }>(
    '/services/:name/auto-start',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['services'],
        summary: 'Set whether the service starts with the app',
        params: NameParams,
        body: AutoStartBody,
        response: { 200: Ok(ServiceStatusSchema) },
      },
    },
    async (request) => {
      if (!ctx.services.has(request.params.name)) throw new AppError('NOT_FOUND', `service "${request.params.name}" not found`);
      return { success: true as const, data: await ctx.services.setAutoStart(request.params.name, request.body.auto_start) };
    },
  );
};
