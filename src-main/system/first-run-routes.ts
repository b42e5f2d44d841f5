import type { FastifyPluginAsync } from 'fastify';
import { Ok } from '../core/http-kit/schemas.js';
import type { FirstRun } from './first-run.js';
import { FirstRunBodySchema, FirstRunStateSchema, type FirstRunBody } from './system-contract.js';

/** The first-run wizard's state (docs/quickstart.md). */
export const firstRunRoutes = (firstRun: Pick<FirstRun, 'view' | 'record'>): FastifyPluginAsync => async (app) => {
  app.get(
    '/system/first-run',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['system'],
        summary: 'Whether the first-run wizard was completed or skipped, and whether an admin still has the generated password',
        response: { 200: Ok(FirstRunStateSchema) },
      },
    },
    async () => ({ success: true as const, data: firstRun.view() }),
  );

  app.post<{ Body: FirstRunBody }>(
    '/system/first-run',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['system'],
        summary: 'Mark the first-run wizard completed ({"action":"complete"}) or skipped ({"action":"skip"})',
        body: FirstRunBodySchema,
        response: { 200: Ok(FirstRunStateSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await firstRun.record(request.body.action) }),
  );
};
