import { Type, type Static } from 'typebox';
import { AppError } from '../../core/errors.js';
import { POWER_ACTIONS } from '../../power/bmc-client.js';
import { WOL_PORTS } from '../../power/wol/magic-packet.js';
import type { WakeResult } from '../../power/wol/wol-service.js';
import { IdParams, Ok, StrictObject } from '../../core/http-kit/schemas.js';
import { actor, nullable, PowerOutcomeSchema } from './bmc.js';
import type { RoutePluginFactory } from './index.js';
import { WolHistorySchema } from './wol.js';

const WakeFields = {
  port: Type.Optional(Type.Union(WOL_PORTS.map((port) => Type.Literal(port)), { description: 'UDP port: 9 (default) or 7' })),
  interface: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Send on this interface only (default: the one on the host subnet)' })),
  password: Type.Optional(Type.String({ maxLength: 32, description: 'SecureOn password: six hex bytes or four dotted decimals' })),
};
const WakeBody = Type.Union([StrictObject(WakeFields), Type.Null()]);
const BatchWakeBody = StrictObject({
  ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500, uniqueItems: true }),
  ...WakeFields,
});
const WakeResultSchema = Type.Object({
  ok: Type.Boolean(),
  host_id: nullable<number>('integer'),
  mac: nullable<string>('string'),
  interfaces: Type.Array(Type.String(), { description: 'Interfaces the magic packet left on' }),
  history: WolHistorySchema,
  error: nullable<string>('string'),
});
const PowerBody = StrictObject({
  action: Type.Union([...POWER_ACTIONS, 'status' as const].map((action) => Type.Literal(action))),
});

/** Wake-on-LAN and power control addressed by host: /hosts/{id}/wake, /hosts/{id}/power, /hosts/batch/wake. */
export const hostPowerRoutes: RoutePluginFactory = (ctx) => async (app) => {
  const wol = ctx.power.wol;

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof WakeBody> | undefined }>(
    '/hosts/:id/wake',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['hosts'],
        summary: 'Send a Wake-on-LAN magic packet to the host (on the interface of its subnet)',
        description: '409 when nothing could be sent (no interface reaches the host); the attempt is in the WOL history either way.',
        params: IdParams,
        body: WakeBody,
        response: { 200: Ok(WakeResultSchema) },
      },
    },
    async (request) => {
      const result = await wol.wakeHost(request.params.id, request.body ?? {}, { trigger: 'manual', user: actor(request) });
      if (!result.ok) throw wakeFailed(result);
      return { success: true as const, data: result };
    },
  );

  app.post<{ Body: Static<typeof BatchWakeBody> }>(
    '/hosts/batch/wake',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['hosts'],
        summary: 'Wake several hosts; one result per id (unknown hosts and hosts without MAC fail individually)',
        body: BatchWakeBody,
        response: { 200: Ok(Type.Array(WakeResultSchema)) },
      },
    },
    async (request) => {
      const { ids, ...options } = request.body;
      return { success: true as const, data: await wol.wakeHosts(ids, options, { trigger: 'batch', user: actor(request) }) };
    },
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof PowerBody> }>(
    '/hosts/:id/power',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['hosts'],
        summary: 'Power control through the host\'s BMC config: on, off, cycle, reset, soft or status (409 when the host has none)',
        params: IdParams,
        body: PowerBody,
        response: { 200: Ok(PowerOutcomeSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.power.bmc.hostPower(request.params.id, request.body.action, actor(request)) }),
  );
};

function wakeFailed(result: WakeResult): AppError {
  return new AppError('INVALID_STATE', `Wake-on-LAN not sent: ${result.error ?? 'unknown reason'} (history entry ${result.history.id})`);
}
