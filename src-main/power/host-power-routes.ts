import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError } from '../core/errors.js';
import { IdParams, Ok } from '../core/http-kit/schemas.js';
import { actor } from './bmc-routes.js';
import { BatchWakeSchema, HostPowerSchema, PowerOutcomeSchema, WakeResultSchema, WakeSchema, type WakeResult } from './power-contract.js';
import type { PowerService } from './power-service.js';

/** Wake-on-LAN and power control addressed by host: /hosts/{id}/wake, /hosts/{id}/power, /hosts/batch/wake. */
export function hostPowerRoutes(power: Pick<PowerService, 'wol' | 'bmc'>): FastifyPluginAsync {
  const wol = power.wol;
  return async (app) => {
    app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof WakeSchema> | undefined }>(
      '/hosts/:id/wake',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Send a Wake-on-LAN magic packet to the host (on the interface of its subnet)',
          description: '409 when nothing could be sent (no interface reaches the host); the attempt is in the WOL history either way.',
          params: IdParams,
          body: WakeSchema,
          response: { 200: Ok(WakeResultSchema) },
        },
      },
      async (request) => {
        const result = await wol.wakeHost(request.params.id, request.body ?? {}, { trigger: 'manual', user: actor(request) });
        if (!result.ok) throw wakeFailed(result);
        return { success: true as const, data: result };
      },
    );

    app.post<{ Body: Static<typeof BatchWakeSchema> }>(
      '/hosts/batch/wake',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Wake several hosts; one result per id (unknown hosts and hosts without MAC fail individually)',
          body: BatchWakeSchema,
          response: { 200: Ok(Type.Array(WakeResultSchema)) },
        },
      },
      async (request) => {
        const { ids, ...options } = request.body;
        return { success: true as const, data: await wol.wakeHosts(ids, options, { trigger: 'batch', user: actor(request) }) };
      },
    );

    app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof HostPowerSchema> }>(
      '/hosts/:id/power',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Power control through the host\'s BMC config: on, off, cycle, reset, soft or status (409 when the host has none)',
          params: IdParams,
          body: HostPowerSchema,
          response: { 200: Ok(PowerOutcomeSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await power.bmc.hostPower(request.params.id, request.body.action, actor(request)) }),
    );
  };
}

function wakeFailed(result: WakeResult): AppError {
  return new AppError('INVALID_STATE', `Wake-on-LAN not sent: ${result.error ?? 'unknown reason'} (history entry ${result.history.id})`);
}
