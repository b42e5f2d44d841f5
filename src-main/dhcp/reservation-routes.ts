import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { paginate } from '../core/http-kit/list-query.js';
import { IdParams, ListQueryProperties, Ok, OkList, StrictObject } from '../core/http-kit/schemas.js';
import { MAC_INPUT_PATTERN } from '../core/mac.js';
import {
  IMPORT_BODY_LIMIT_BYTES,
  ImportQuerySchema,
  ImportReportSchema,
  MAX_RESERVATION_IMPORT_ROWS,
  RESERVATION_IMPORT_COLUMNS,
  ReservationFields,
  ReservationImportRowSchema,
  ReservationSchema,
  type DhcpReservation,
} from './dhcp-contract.js';
import { importReservations } from './reservation-import.js';
import type { Reservations } from './reservations.js';

/** What the routes call: the DHCP facade's reservations. */
export type ReservationRouteOperations = Pick<Reservations, 'list' | 'create' | 'get' | 'update' | 'remove' | 'importRows'>;

/** The contract's fields with the MAC pattern of the ground layer (the contract imports only typebox). */
const Fields = {
  mac: Type.String({ pattern: MAC_INPUT_PATTERN, description: 'Any common spelling; stored lowercase with colons' }),
  ...ReservationFields,
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
/** The CSV as text/csv, or the rows as JSON. */
const ImportBody = Type.Union([
  Type.String({ description: `The CSV file (Content-Type: text/csv), columns ${RESERVATION_IMPORT_COLUMNS.join(', ')}` }),
  StrictObject({ reservations: Type.Array(ReservationImportRowSchema, { maxItems: MAX_RESERVATION_IMPORT_ROWS }) }),
  StrictObject({ csv: Type.String({ maxLength: IMPORT_BODY_LIMIT_BYTES, description: 'The CSV file inside JSON (the UI sends this)' }) }),
]);

const SORTABLE: (keyof DhcpReservation)[] = ['id', 'mac', 'ip', 'hostname', 'host_id', 'created_at', 'updated_at'];

/** DHCP reservations: fixed addresses per MAC. */
export function reservationRoutes(reservations: ReservationRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof ListQuery> }>(
      '/dhcp/reservations',
      {
        config: { access: 'viewer' },
        schema: { tags: ['dhcp'], summary: 'List DHCP reservations (q over MAC, IP, hostname)', querystring: ListQuery, response: { 200: OkList(ReservationSchema) } },
      },
      async (request) => ({
        success: true as const,
        ...paginate(reservations.list(), request.query, { sortable: SORTABLE, defaultSort: 'id', searchText: (row) => [row.mac, row.ip, row.hostname] }),
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
        const row = await reservations.create(request.body);
        return reply.code(201).send({ success: true as const, data: row });
      },
    );

    // The import takes text/csv besides JSON, and larger bodies: both only in this child scope.
    await app.register(async (scope) => {
      scope.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
      scope.post<{ Body: Static<typeof ImportBody>; Querystring: Static<typeof ImportQuerySchema> }>(
        '/dhcp/reservations/import',
        {
          config: { access: 'operator' },
          bodyLimit: IMPORT_BODY_LIMIT_BYTES,
          schema: {
            tags: ['dhcp'],
            summary: 'Import reservations from CSV or JSON: every row checked first, then all written in one transaction or none',
            description: `Body: text/csv (header ${RESERVATION_IMPORT_COLUMNS.join(',')}) or JSON {"reservations": [...]} or {"csv": "..."}; at most ${MAX_RESERVATION_IMPORT_ROWS} rows and 16 MiB. dry_run=true reports and changes nothing; otherwise any problem is a 400 listing them (rows[<row>].<field>) and nothing is written.`,
            querystring: ImportQuerySchema,
            body: ImportBody,
            response: { 200: Ok(ImportReportSchema), 201: Ok(ImportReportSchema) },
          },
        },
        async (request, reply) => {
          const body = request.body;
          const source = typeof body === 'string' ? { csv: body } : 'csv' in body ? { csv: body.csv } : { rows: body.reservations };
          const dryRun = request.query.dry_run ?? false;
          const report = await importReservations(reservations, source, { mode: request.query.mode ?? 'create', dryRun });
          return reply.code(dryRun ? 200 : 201).send({ success: true as const, data: report });
        },
      );
    });

    app.get<{ Params: Static<typeof IdParams> }>(
      '/dhcp/reservations/:id',
      {
        config: { access: 'viewer' },
        schema: { tags: ['dhcp'], summary: 'Get a reservation', params: IdParams, response: { 200: Ok(ReservationSchema) } },
      },
      async (request) => ({ success: true as const, data: reservations.get(request.params.id) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateBody> }>(
      '/dhcp/reservations/:id',
      {
        config: { access: 'operator' },
        schema: { tags: ['dhcp'], summary: 'Update a reservation (fields given replace the stored ones)', params: IdParams, body: UpdateBody, response: { 200: Ok(ReservationSchema) } },
      },
      async (request) => ({ success: true as const, data: await reservations.update(request.params.id, request.body) }),
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/dhcp/reservations/:id',
      {
        config: { access: 'operator' },
        schema: { tags: ['dhcp'], summary: 'Delete a reservation', params: IdParams, response: { 200: Ok(ReservationSchema) } },
      },
      async (request) => ({ success: true as const, data: await reservations.remove(request.params.id) }),
    );
  };
}
