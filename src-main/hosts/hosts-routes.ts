import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import { MAC_INPUT_PATTERN } from '../core/mac.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import type { HostService } from './host-service.js';
import { HostSchema, HostWriteSchema, MAX_HOST_DESCRIPTION } from './hosts-contract.js';

/** The contract's fields with the ground-layer rules: the MAC spellings and printable text (the contract imports only typebox). */
const MacField = Type.String({ pattern: MAC_INPUT_PATTERN, description: 'Any common spelling (colons, dashes, dots, bare hex)' });
const Description = PrintableString({ maxLength: MAX_HOST_DESCRIPTION, description: 'Printable text (docs/api.md)' });
const CreateHostBody = StrictObject({ ...HostWriteSchema.properties, mac: MacField, description: Type.Optional(Description) });
const UpdateHostBody = Type.Object(
  { ...HostWriteSchema.properties, mac: Type.Optional(MacField), description: Type.Optional(Description) },
  { additionalProperties: false, minProperties: 1 },
);

const HostListQuery = Type.Object(
  {
    ...ListQueryProperties,
    group: Type.Optional(Type.String({ maxLength: 64, description: 'Hosts of this group (case-insensitive)' })),
    tag: Type.Optional(Type.String({ maxLength: 64, description: 'Hosts with this tag (case-insensitive)' })),
    profile_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Hosts assigned this profile' })),
    discovered: Type.Optional(Type.Boolean({ description: 'true: only discovered hosts; false: only adopted ones' })),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** What the routes call: the hosts area's facade as far as the API uses it. */
export type HostRouteOperations = Pick<HostService, 'list' | 'create' | 'require' | 'update' | 'remove'>;

/**
 * Hosts: CRUD with filters (docs/hosts-and-profiles.md). The boot-config
 * preview of a host is the boot scripts area's (boot-scripts-routes.ts).
 */
export function hostRoutes(hosts: HostRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof HostListQuery> }>(
      '/hosts',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['hosts'],
          summary: 'List hosts (q matches MAC, hostname, IP, group, tags, description; filters group, tag, profile_id, discovered, enabled)',
          querystring: HostListQuery,
          response: { 200: OkList(HostSchema) },
        },
      },
      async (request) => ({ success: true as const, ...hosts.list(request.query) }),
    );

    app.post<{ Body: Static<typeof CreateHostBody> }>(
      '/hosts',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Create a host (409 when the MAC is taken; with ip, its DHCP reservation too)',
          body: CreateHostBody,
          response: { 201: Ok(HostSchema) },
        },
      },
      async (request, reply) => reply.code(201).send({ success: true as const, data: await hosts.create(request.body) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/hosts/:id',
      {
        config: { access: 'viewer' },
        schema: { tags: ['hosts'], summary: 'Get a host', params: IdParams, response: { 200: Ok(HostSchema) } },
      },
      async (request) => ({ success: true as const, data: hosts.require(request.params.id) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateHostBody> }>(
      '/hosts/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Update a host (the fields sent); {"discovered": false} adopts a discovered host',
          params: IdParams,
          body: UpdateHostBody,
          response: { 200: Ok(HostSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await hosts.update(request.params.id, request.body) }),
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/hosts/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Delete a host and its DHCP reservation; returns the deleted host',
          params: IdParams,
          response: { 200: Ok(HostSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await hosts.remove(request.params.id) }),
    );
  };
}
