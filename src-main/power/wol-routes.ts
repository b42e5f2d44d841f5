import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { notFound } from '../core/errors.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import { MAC_INPUT_PATTERN, normalizeMac } from '../core/mac.js';
import { MAX_BATCH_IDS, MAX_SCHEDULE_NAME_LENGTH, WolHistoryFilters, WolHistorySchema, WolInterfaceSchema, WolScheduleInputSchema, WolScheduleSchema, WolScheduleUpdateSchema } from './power-contract.js';
import type { PowerService } from './power-service.js';
import { historyView } from './wol/wol-history.js';

const MacString = Type.String({ pattern: MAC_INPUT_PATTERN });
const HistoryQuery = Type.Object({ ...ListQueryProperties, mac: Type.Optional(MacString), ...WolHistoryFilters }, { additionalProperties: false });
const MacHistoryQuery = Type.Object({ ...ListQueryProperties, ...WolHistoryFilters }, { additionalProperties: false });
const MacParams = StrictObject({ mac: MacString });

/** The contract's schedule body with the ground layer's rules added: printable-text name, MAC pattern (the contract imports only typebox). */
const ScheduleBody = StrictObject({
  ...WolScheduleInputSchema.properties,
  name: PrintableString({ minLength: 1, maxLength: MAX_SCHEDULE_NAME_LENGTH }),
  macs: Type.Optional(Type.Array(MacString, { minItems: 1, maxItems: MAX_BATCH_IDS })),
});

/** PUT /wol/schedule/{id}: the same rules, every field optional. */
const ScheduleUpdateBody = StrictObject({
  ...WolScheduleUpdateSchema.properties,
  name: Type.Optional(PrintableString({ minLength: 1, maxLength: MAX_SCHEDULE_NAME_LENGTH })),
  macs: Type.Optional(Type.Array(MacString, { minItems: 1, maxItems: MAX_BATCH_IDS })),
});

const ScheduleListQuery = Type.Object(ListQueryProperties, { additionalProperties: false });

/** Wake-on-LAN: interfaces, history, schedules. */
export function wolRoutes(power: Pick<PowerService, 'wol' | 'schedules'>): FastifyPluginAsync {
  const { wol, schedules } = power;
  return async (app) => {
    app.get(
      '/wol/interfaces',
      {
        config: { access: 'viewer' },
        schema: { tags: ['wol'], summary: 'Interfaces that can send Wake-on-LAN, with their broadcast addresses', response: { 200: Ok(Type.Array(WolInterfaceSchema)) } },
      },
      async () => ({ success: true as const, data: wol.interfaces() }),
    );

    app.get<{ Querystring: Static<typeof HistoryQuery> }>(
      '/wol/history',
      {
        config: { access: 'viewer' },
        schema: { tags: ['wol'], summary: 'Wake history, newest first', querystring: HistoryQuery, response: { 200: OkList(WolHistorySchema) } },
      },
      async (request) => {
        const { mac, ...rest } = request.query;
        return { success: true as const, ...wol.history.list({ ...rest, ...(mac ? { mac: normalizeMac(mac)! } : {}) }) };
      },
    );

    app.get<{ Params: Static<typeof MacParams>; Querystring: Static<typeof MacHistoryQuery> }>(
      '/wol/history/:mac',
      {
        config: { access: 'viewer' },
        schema: { tags: ['wol'], summary: 'Wake history of one MAC address', params: MacParams, querystring: MacHistoryQuery, response: { 200: OkList(WolHistorySchema) } },
      },
      async (request) => ({ success: true as const, ...wol.history.list({ ...request.query, mac: normalizeMac(request.params.mac)! }) }),
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/wol/history/:id',
      {
        config: { access: 'operator' },
        schema: { tags: ['wol'], summary: 'Delete one history entry', params: IdParams, response: { 200: Ok(WolHistorySchema) } },
      },
      async (request) => {
        const removed = await wol.history.remove(request.params.id);
        if (!removed) throw notFound('WOL history entry', request.params.id);
        return { success: true as const, data: historyView(removed) };
      },
    );

    app.delete(
      '/wol/history',
      {
        config: { access: 'operator' },
        schema: { tags: ['wol'], summary: 'Clear the whole wake history (audit-logged)', response: { 200: Ok(Type.Object({ deleted: Type.Integer() })) } },
      },
      async () => ({ success: true as const, data: { deleted: await wol.history.clear() } }),
    );

    app.post<{ Body: Static<typeof ScheduleBody> }>(
      '/wol/schedule',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['wol'],
          summary: 'Create a scheduled wake (host_ids or macs; cron or at)',
          description: 'A run due while the app was not running is skipped at the next start, with a wol.schedule.missed event.',
          body: ScheduleBody,
          response: { 201: Ok(WolScheduleSchema) },
        },
      },
      async (request, reply) => reply.code(201).send({ success: true as const, data: await schedules.create(request.body) }),
    );

    app.get<{ Querystring: Static<typeof ScheduleListQuery> }>(
      '/wol/schedules',
      {
        config: { access: 'viewer' },
        schema: { tags: ['wol'], summary: 'Scheduled wakes with their next run time', querystring: ScheduleListQuery, response: { 200: OkList(WolScheduleSchema) } },
      },
      async (request) => ({ success: true as const, ...schedules.list(request.query) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof ScheduleUpdateBody> }>(
      '/wol/schedule/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['wol'],
          summary: 'Edit a scheduled wake; omitted fields keep their value ({"enabled": false} pauses it, true resumes it)',
          description: 'macs replaces host_ids and the other way round; at replaces cron and the other way round. The next run is computed anew from now.',
          params: IdParams,
          body: ScheduleUpdateBody,
          response: { 200: Ok(WolScheduleSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await schedules.update(request.params.id, request.body) }),
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/wol/schedule/:id',
      {
        config: { access: 'operator' },
        schema: { tags: ['wol'], summary: 'Delete a scheduled wake', params: IdParams, response: { 200: Ok(WolScheduleSchema) } },
      },
      async (request) => ({ success: true as const, data: await schedules.remove(request.params.id) }),
    );
  };
}
