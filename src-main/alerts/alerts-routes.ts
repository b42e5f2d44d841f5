import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { Ok } from '../core/http-kit/schemas.js';
import type { AlertCenter } from './alert-center.js';
import { AlertIdParamsSchema, AlertListQuerySchema, AlertSchema } from './alerts-contract.js';

/** GET /alerts and POST /alerts/{id}/dismiss (docs/alerts.md). */
export function alertRoutes(center: Pick<AlertCenter, 'current' | 'dismiss'>): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof AlertListQuerySchema> }>(
      '/alerts',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['alerts'],
          summary: 'What needs attention now: failed services, foreign DHCP servers, missing boot loaders, clients stuck on a missing file, failing BMCs (errors first)',
          querystring: AlertListQuerySchema,
          response: { 200: Ok(Type.Array(AlertSchema)) },
        },
      },
      async (request) => ({ success: true as const, data: await center.current({ includeDismissed: request.query.include_dismissed === true }) }),
    );

    app.post<{ Params: Static<typeof AlertIdParamsSchema> }>(
      '/alerts/:id/dismiss',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['alerts'],
          summary: 'Dismiss an active alert as it is now (it shows again when it changes, or clears and comes back); 404 when not active',
          params: AlertIdParamsSchema,
          response: { 200: Ok(AlertSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await center.dismiss(request.params.id) }),
    );
  };
}
