import { Type, type Static } from 'typebox';
import { MAC_INPUT_PATTERN } from '../../core/mac.js';
import { CustomOptionSchema } from '../../dhcp/dhcp-config.js';
import type { DhcpReservation } from '../../dhcp/reservations.js';
import { paginate } from '../../core/http-kit/list-query.js';
import { IdParams, ListQueryProperties, Ok, OkList, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

export const ReservationSchema = Type.Object(
  {
    id: Type.Integer(),
    mac: Type.String(),
    ip: Type.String(),
    hostname: Type.Union([Type.String(), Type.Null()]),
    boot_file: Type.Union([Type.String(), Type.Null()], { description: 'Overrides the architecture map\'s first-stage file for this client' }),
    options: Type.Array(CustomOptionSchema),
    host_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The host record this reservation belongs to (set through the hosts API)' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'DhcpReservation' },
);

const Fields = {
  mac: Type.String({ pattern: MAC_INPUT_PATTERN, description: 'Any common spelling; stored lowercase with colons' }),
  ip: Type.String({ minLength: 7, maxLength: 15, description: 'IPv4 address inside a configured subnet' }),
  hostname: Type.Union([Type.String({ minLength: 1, maxLength: 253 }), Type.Null()]),
  boot_file: Type.Union([Type.String({ minLength: 1, maxLength: 127 }), Type.Null()]),
  options: Type.Array(CustomOptionSchema, { maxItems: 64 }),
};

const CreateBody = StrictObject({
  mac: Fields.mac,
  ip: Fields.ip,
  hostname: Type.Optional(Fields.hostname),
  boot_file: Type.Optional(Fields.boot_file),
  options: Type.Optional(Fields.options),
});
const UpdateBody = StrictObject({
  mac: Type.Optional(Fields.mac),
  ip: Type.Optional(Fields.ip),
  hostname: Type.Optional(Fields.hostname),
  boot_file: Type.Optional(Fields.boot_file),
  options: Type.Optional(Fields.options),
});
const ListQuery = Type.Object(ListQueryProperties, { additionalProperties: false });

const SORTABLE: (keyof DhcpReservation)[] = ['id', 'mac', 'ip', 'hostname', 'host_id', 'created_at', 'updated_at'];

/** DHCP reservations: fixed addresses per MAC. */
export const dhcpReservationRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/dhcp/reservations',
    {
      config: { access: 'viewer' },
      schema: { tags: ['dhcp'], summary: 'List DHCP reservations (q over MAC, IP, hostname)', querystring: ListQuery, response: { 200: OkList(ReservationSchema) } },
    },
    async (request) => ({
      success: true as const,
      ...paginate(ctx.reservations.list(), request.query, { sortable: SORTABLE, defaultSort: 'id', searchText: (row) => [row.mac, row.ip, row.hostname] }),
    }),
  );

  app.post<{ Body: Static<typeof CreateBody> }>(
    '/dhcp/reservations',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['dhcp'],
        summary: 'Create a reservation (409 on a duplicate MAC or IP; 400 when the IP is outside every configured subnet)',
        body: CreateBody,
        response: { 201: Ok(ReservationSchema) },
      },
    },
    async (request, reply) => {
      const row = await ctx.reservations.create(request.body);
      return reply.code(201).send({ success: true as const, data: row });
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/dhcp/reservations/:id',
    {
      config: { access: 'viewer' },
      schema: { tags: ['dhcp'], summary: 'Get a reservation', params: IdParams, response: { 200: Ok(ReservationSchema) } },
    },
    async (request) => ({ success: true as const, data: ctx.reservations.get(request.params.id) }),
  );

  app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateBody> }>(
    '/dhcp/reservations/:id',
    {
      config: { access: 'operator' },
      schema: { tags: ['dhcp'], summary: 'Update a reservation (fields given replace the stored ones)', params: IdParams, body: UpdateBody, response: { 200: Ok(ReservationSchema) } },
    },
    async (request) => ({ success: true as const, data: await ctx.reservations.update(request.params.id, request.body) }),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/dhcp/reservations/:id',
    {
      config: { access: 'operator' },
      schema: { tags: ['dhcp'], summary: 'Delete a reservation', params: IdParams, response: { 200: Ok(ReservationSchema) } },
    },
    async (request) => ({ success: true as const, data: await ctx.reservations.remove(request.params.id) }),
  );
};
