import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, errorMessage, isAppError } from '../core/errors.js';
import { Ok } from '../core/http-kit/schemas.js';
import { ActionParams, AutoStartBody, BatchBody, BatchParams, BatchResult, NameParams, ServiceStatusSchema } from './services-contract.js';
import type { ServiceAction, ServiceManager } from './service-manager.js';

async function runAction(services: ServiceManager, name: string, action: ServiceAction) {
  return services[action](name);
}

/** Service lifecycle: list, start/stop/restart (one or a batch), auto-start flag. */
export const serviceRoutes = (services: ServiceManager): FastifyPluginAsync => async (app) => {
  app.get(
    '/services',
    {
      config: { access: 'viewer' },
      schema: { tags: ['services'], summary: 'List all services with their states', response: { 200: Ok(Type.Array(ServiceStatusSchema)) } },
    },
    async () => ({ success: true as const, data: services.list() }),
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
            return { name, ok: true, service: await runAction(services, name, request.params.action) };
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
    async (request) => ({ success: true as const, data: await runAction(services, request.params.name, request.params.action) }),
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
      if (!services.has(request.params.name)) throw new AppError('NOT_FOUND', `service "${request.params.name}" not found`);
      return { success: true as const, data: await services.setAutoStart(request.params.name, request.body.auto_start) };
    },
  );
};
