import { Type, type Static } from 'typebox';
import { notFound } from '../../core/errors.js';
import { MAC_INPUT_PATTERN, normalizeMac } from '../../core/mac.js';
import { WOL_RESULTS, WOL_TRIGGERS, historyView } from '../../power/wol/wol-history.js';
import { SCHEDULE_RESULTS } from '../../power/wol/wol-schedules.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import { nullable } from './bmc.js';
import type { RoutePluginFactory } from './index.js';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

export const WolInterfaceSchema = Type.Object({
  name: Type.String(),
  mac: nullable<string>('string'),
  address: Type.String({ description: 'Our IPv4 address on the interface; the WOL socket binds here' }),
  prefix: Type.Integer(),
  subnet: Type.String(),
  broadcast: Type.String({ description: 'Directed broadcast address the magic packet is sent to' }),
  served: Type.Boolean({ description: 'Bootwright serves this interface (settings → interfaces)' }),
});

export const WolHistorySchema = Type.Object(
  {
    id: Type.Integer(),
    mac: nullable<string>('string'),
    host_id: nullable<number>('integer'),
    interface: nullable<string>('string', { description: 'Interface(s) the packet left on, comma-separated' }),
    port: Type.Integer(),
    trigger: literals(WOL_TRIGGERS),
    user: Type.String(),
    result: literals(WOL_RESULTS),
    error: nullable<string>('string'),
    created_at: Timestamp,
  },
  { $id: 'WolHistoryEntry' },
);

const HistoryFilters = {
  host_id: Type.Optional(Type.Integer({ minimum: 1 })),
  trigger: Type.Optional(literals(WOL_TRIGGERS)),
  result: Type.Optional(literals(WOL_RESULTS)),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before this time' })),
};
const HistoryQuery = Type.Object(
  { ...ListQueryProperties, mac: Type.Optional(Type.String({ pattern: MAC_INPUT_PATTERN })), ...HistoryFilters },
  { additionalProperties: false },
);
const MacHistoryQuery = Type.Object({ ...ListQueryProperties, ...HistoryFilters }, { additionalProperties: false });
const MacParams = StrictObject({ mac: Type.String({ pattern: MAC_INPUT_PATTERN }) });

export const WolScheduleSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    host_ids: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
    macs: Type.Union([Type.Array(Type.String()), Type.Null()]),
    cron: nullable<string>('string'),
    at: nullable<string>('string', { format: 'date-time' }),
    timezone: Type.String(),
    enabled: Type.Boolean(),
    next_run_at: nullable<string>('string', { format: 'date-time', description: 'null when no run is left (a past one-shot, disabled)' }),
    last_run_at: nullable<string>('string', { format: 'date-time' }),
    last_result: nullable<string>('string', { enum: [...SCHEDULE_RESULTS] }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'WolSchedule' },
);

const ScheduleBody = StrictObject({
  name: PrintableString({ minLength: 1, maxLength: 100 }),
  host_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 })),
  macs: Type.Optional(Type.Array(Type.String({ pattern: MAC_INPUT_PATTERN }), { minItems: 1, maxItems: 500 })),
  cron: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: '5 fields, or 6 with seconds first (croner syntax)' })),
  at: Type.Optional(Type.String({ format: 'date-time', description: 'One run at this time' })),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA zone the cron is read in; default UTC' })),
});

const ScheduleListQuery = Type.Object(ListQueryProperties, { additionalProperties: false });

/** Wake-on-LAN: interfaces, history, schedules. */
export const wolRoutes: RoutePluginFactory = (ctx) => async (app) => {
  const wol = ctx.power.wol;
  const schedules = ctx.power.schedules;

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

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/wol/schedule/:id',
    {
      config: { access: 'operator' },
      schema: { tags: ['wol'], summary: 'Delete a scheduled wake', params: IdParams, response: { 200: Ok(WolScheduleSchema) } },
    },
    async (request) => ({ success: true as const, data: await schedules.remove(request.params.id) }),
  );
};
