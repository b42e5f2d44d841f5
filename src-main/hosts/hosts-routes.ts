import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import { MAC_INPUT_PATTERN } from '../core/mac.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import type { HostService } from './host-service.js';
import { hostGroups } from './host-groups.js';
import { importHosts } from './host-import.js';
import {
  HOST_IMPORT_COLUMNS,
  HostBatchAssignSchema,
  HostBatchDeleteSchema,
  HostBatchResultSchema,
  HostGroupsSchema,
  HostImportJsonSchema,
  HOST_LIFECYCLES,
  HostViewSchema,
  HostWriteSchema,
  IMPORT_BODY_LIMIT_BYTES,
  ImportQuerySchema,
  ImportReportSchema,
  MAX_HOST_DESCRIPTION,
  MAX_HOST_IMPORT_ROWS,
} from './hosts-contract.js';

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
    lifecycle: Type.Optional(Type.Enum([...HOST_LIFECYCLES], { description: 'Hosts in this lifecycle state' })),
  },
  { additionalProperties: false },
);

/** What the routes call: the hosts area's facade as far as the API uses it. */
export type HostRouteOperations = Pick<HostService, 'all' | 'list' | 'view' | 'create' | 'require' | 'update' | 'remove' | 'importHosts' | 'removeMany' | 'assignMany'>;

/** The CSV as text/csv, or the rows as JSON. */
const ImportBody = Type.Union([
  Type.String({ description: `The CSV file (Content-Type: text/csv), columns ${HOST_IMPORT_COLUMNS.join(', ')}` }),
  HostImportJsonSchema,
  StrictObject({ csv: Type.String({ maxLength: IMPORT_BODY_LIMIT_BYTES, description: 'The CSV file inside JSON (the UI sends this)' }) }),
]);

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
          summary: 'List hosts with what each boots next and its lifecycle state (q matches MAC, hostname, IP, group, tags, description; filters group, tag, profile_id, discovered, enabled, lifecycle)',
          querystring: HostListQuery,
          response: { 200: OkList(HostViewSchema) },
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
          response: { 201: Ok(HostViewSchema) },
        },
      },
      async (request, reply) => reply.code(201).send({ success: true as const, data: hosts.view(await hosts.create(request.body)) }),
    );

    // The import takes text/csv besides JSON, and larger bodies: both only in this child scope.
    await app.register(async (scope) => {
      scope.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
      scope.post<{ Body: Static<typeof ImportBody>; Querystring: Static<typeof ImportQuerySchema> }>(
        '/hosts/import',
        {
          config: { access: 'operator' },
          bodyLimit: IMPORT_BODY_LIMIT_BYTES,
          schema: {
            tags: ['hosts'],
            summary: 'Import hosts from CSV or JSON: every row and DHCP reservation checked first, then all written in one transaction or none',
            description: `Body: text/csv (header row naming ${HOST_IMPORT_COLUMNS.join(',')}; mac required; tags ;-separated) or JSON {"hosts": [...]} or {"csv": "..."}; at most ${MAX_HOST_IMPORT_ROWS} rows and 16 MiB. mode=create refuses MACs already stored, mode=upsert updates those hosts. dry_run=true reports and changes nothing; otherwise any problem is a 400 listing them (rows[<row>].<field>) and nothing is written.`,
            querystring: ImportQuerySchema,
            body: ImportBody,
            response: { 200: Ok(ImportReportSchema), 201: Ok(ImportReportSchema) },
          },
        },
        async (request, reply) => {
          const body = request.body;
          const source = typeof body === 'string' ? { csv: body } : 'csv' in body ? { csv: body.csv } : { rows: body.hosts };
          const dryRun = request.query.dry_run ?? false;
          const report = await importHosts(hosts, source, { mode: request.query.mode ?? 'create', dryRun });
          return reply.code(dryRun ? 200 : 201).send({ success: true as const, data: report });
        },
      );
    });

    app.post<{ Body: Static<typeof HostBatchDeleteSchema> }>(
      '/hosts/batch/delete',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Delete many hosts and their DHCP reservations: all or none (404 listing every unknown id)',
          body: HostBatchDeleteSchema,
          response: { 200: Ok(HostBatchResultSchema) },
        },
      },
      async (request) => {
        const removed = await hosts.removeMany(request.body.ids);
        return { success: true as const, data: { count: removed.length, hosts: removed.map((host) => hosts.view(host)) } };
      },
    );

    app.post<{ Body: Static<typeof HostBatchAssignSchema> }>(
      '/hosts/batch/assign',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Set the profile, group, enabled flag or tags (add/remove) of many hosts: all or none (404 listing every unknown id)',
          body: HostBatchAssignSchema,
          response: { 200: Ok(HostBatchResultSchema) },
        },
      },
      async (request) => {
        const updated = await hosts.assignMany(request.body);
        return { success: true as const, data: { count: updated.length, hosts: updated.map((host) => hosts.view(host)) } };
      },
    );

    app.get(
      '/hosts/groups',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['hosts'],
          summary: 'The groups and tags in use with their host counts (case-insensitive, as the group and tag filters of GET /hosts)',
          response: { 200: Ok(HostGroupsSchema) },
        },
      },
      async () => ({ success: true as const, data: hostGroups(hosts.all()) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/hosts/:id',
      {
        config: { access: 'viewer' },
        schema: { tags: ['hosts'], summary: 'Get a host, with what it boots next and its lifecycle state', params: IdParams, response: { 200: Ok(HostViewSchema) } },
      },
      async (request) => ({ success: true as const, data: hosts.view(hosts.require(request.params.id)) }),
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
          response: { 200: Ok(HostViewSchema) },
        },
      },
      async (request) => ({ success: true as const, data: hosts.view(await hosts.update(request.params.id, request.body)) }),
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/hosts/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['hosts'],
          summary: 'Delete a host and its DHCP reservation; returns the deleted host',
          params: IdParams,
          response: { 200: Ok(HostViewSchema) },
        },
      },
      async (request) => ({ success: true as const, data: hosts.view(await hosts.remove(request.params.id)) }),
    );
  };
}
