import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError } from '../core/errors.js';
import { paginate } from '../core/http-kit/list-query.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import { MAC_INPUT_PATTERN } from '../core/mac.js';
import type { AccessEntry, AccessPolicy, UnauthorizedDevice } from './access-policy.js';
import {
  ACCESS_LISTS,
  AccessEntrySchema,
  MAX_ACCESS_COMMENT,
  MoveBodySchema,
  MoveResultSchema,
  UnauthorizedDeviceSchema,
} from './dhcp-contract.js';

/** What the routes call: the DHCP facade's access policy. */
export type AccessRouteOperations = Pick<AccessPolicy, 'list' | 'add' | 'remove' | 'unauthorizedDevices' | 'moveUnauthorized' | 'removeUnauthorized'>;

const AddBody = StrictObject({
  mac: Type.String({ pattern: MAC_INPUT_PATTERN, description: 'Any common spelling; stored lowercase with colons' }),
  comment: Type.Optional(PrintableString({ maxLength: MAX_ACCESS_COMMENT })),
});

const ListQuery = Type.Object(ListQueryProperties, { additionalProperties: false });

const ENTRY_SORTABLE: (keyof AccessEntry)[] = ['id', 'mac', 'comment', 'created_at'];
const DEVICE_SORTABLE: (keyof UnauthorizedDevice)[] = ['id', 'mac', 'first_seen', 'last_seen', 'count', 'vendor_class', 'arch', 'hostname'];

function entryView(entry: AccessEntry) {
  return { id: entry.id, mac: entry.mac, comment: entry.comment, created_at: entry.created_at };
}

/** Access control: blacklist, whitelist and the devices refused in whitelist mode. */
export function accessRoutes(access: AccessRouteOperations): FastifyPluginAsync {
  return async (app) => {
    for (const list of ACCESS_LISTS) {
      const meaning = list === 'blacklist' ? 'never answered (DHCP, proxyDHCP, boot files)' : 'the only MACs answered in whitelist mode';
      app.get<{ Querystring: Static<typeof ListQuery> }>(
        `/access/${list}`,
        {
          config: { access: 'viewer' },
          schema: { tags: ['access'], summary: `List the ${list}: MACs ${meaning}`, querystring: ListQuery, response: { 200: OkList(AccessEntrySchema) } },
        },
        async (request) => {
          const page = paginate(access.list(list), request.query, { sortable: ENTRY_SORTABLE, defaultSort: 'id', searchText: (row) => [row.mac, row.comment] });
          return { success: true as const, data: page.data.map(entryView), meta: page.meta };
        },
      );

      app.post<{ Body: Static<typeof AddBody> }>(
        `/access/${list}`,
        {
          config: { access: 'operator' },
          schema: { tags: ['access'], summary: `Add a MAC to the ${list} (409 when it is there already)`, body: AddBody, response: { 201: Ok(AccessEntrySchema) } },
        },
        async (request, reply) => {
          const entry = await access.add(list, request.body);
          return reply.code(201).send({ success: true as const, data: entryView(entry) });
        },
      );

      app.delete<{ Params: Static<typeof IdParams> }>(
        `/access/${list}/:id`,
        {
          config: { access: 'operator' },
          schema: { tags: ['access'], summary: `Delete a ${list} entry`, params: IdParams, response: { 200: Ok(AccessEntrySchema) } },
        },
        async (request) => ({ success: true as const, data: entryView(await access.remove(list, request.params.id)) }),
      );
    }

    app.get<{ Querystring: Static<typeof ListQuery> }>(
      '/access/unauthorized',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['access'],
          summary: 'Devices refused in whitelist mode (q over MAC, vendor class, hostname)',
          querystring: ListQuery,
          response: { 200: OkList(UnauthorizedDeviceSchema) },
        },
      },
      async (request) => ({
        success: true as const,
        ...paginate(access.unauthorizedDevices(), request.query, {
          sortable: DEVICE_SORTABLE,
          defaultSort: '-last_seen',
          searchText: (row) => [row.mac, row.vendor_class, row.hostname],
        }),
      }),
    );

    for (const target of ['whitelist', 'blacklist'] as const) {
      app.post<{ Body: Static<typeof MoveBodySchema> }>(
        `/access/unauthorized/add-to-${target}`,
        {
          config: { access: 'operator' },
          schema: {
            tags: ['access'],
            summary: `Move unauthorized devices to the ${target}; each record leaves the unauthorized list; one result per id`,
            body: MoveBodySchema,
            response: { 200: Ok(Type.Array(MoveResultSchema)) },
          },
        },
        async (request) => {
          const body = request.body;
          const ids = 'ids' in body ? body.ids : [body.id];
          const results = await access.moveUnauthorized(ids, target);
          // A single id that does not exist is a plain 404, as for any resource.
          if (!('ids' in body) && results[0] && !results[0].ok && results[0].code === 'NOT_FOUND') {
            throw new AppError('NOT_FOUND', results[0].error ?? 'not found');
          }
          return { success: true as const, data: results };
        },
      );
    }

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/access/unauthorized/:id',
      {
        config: { access: 'operator' },
        schema: { tags: ['access'], summary: 'Delete an unauthorized device record', params: IdParams, response: { 200: Ok(UnauthorizedDeviceSchema) } },
      },
      async (request) => ({ success: true as const, data: await access.removeUnauthorized(request.params.id) }),
    );
  };
}
