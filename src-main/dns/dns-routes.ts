import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { paginate } from '../core/http-kit/list-query.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import {
  DnsRecordInputSchema,
  DnsRecordPatchSchema,
  DnsRecordSchema,
  DnsRecordTypeSchema,
  DnsSettingsPatchSchema,
  DnsSettingsSchema,
  MAX_COMMENT_LENGTH,
  type DnsRecord,
  type DnsSettings,
  type DnsSettingsPatch,
} from './dns-contract.js';
import type { DnsRecords } from './dns-records.js';

/** What the routes call: the DNS area's facade (server/dns-service.ts) as far as the API uses it. */
export interface DnsRouteOperations {
  readonly records: DnsRecords;
  updateSettings(patch: DnsSettingsPatch): Promise<DnsSettings>;
  /** The settings with `enabled`, the server's auto-start flag. */
  settingsView(): DnsSettings;
  /** Resolves once the running server answers from the records as they are now. */
  sync(): Promise<void>;
}

/** The contract's comment, with the printable-text rule of the ground layer (the contract imports only typebox). */
const Comment = PrintableString({ maxLength: MAX_COMMENT_LENGTH, description: 'Printable text (docs/api.md)' });
const CreateRecordBody = StrictObject({ ...DnsRecordInputSchema.properties, comment: Type.Optional(Comment) });
const UpdateRecordBody = Type.Object({ ...DnsRecordPatchSchema.properties, comment: Type.Optional(Comment) }, { additionalProperties: false, minProperties: 1 });

const RecordListQuery = Type.Object(
  {
    ...ListQueryProperties,
    type: Type.Optional(DnsRecordTypeSchema),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const SORTABLE = ['id', 'name', 'type', 'value', 'ttl', 'priority', 'subnet', 'enabled', 'created_at', 'updated_at'] as const satisfies readonly (keyof DnsRecord)[];

/**
 * The DNS API (docs/dns.md): the settings (port, local domain, upstream list,
 * on/off switch) and CRUD of the local records the DNS server answers.
 */
export function dnsRoutes(dns: DnsRouteOperations): FastifyPluginAsync {
  return async (app) => {
    settingsRoutes(app, dns);
    recordRoutes(app, dns);
  };
}

/** DNS settings: GET and PUT /services/dns. */
function settingsRoutes(app: FastifyInstance, dns: DnsRouteOperations): void {
  app.get(
    '/services/dns',
    {
      config: { access: 'viewer' },
      schema: { tags: ['dns'], summary: 'DNS settings', response: { 200: Ok(DnsSettingsSchema) } },
    },
    async () => ({ success: true as const, data: dns.settingsView() }),
  );

  app.put<{ Body: Static<typeof DnsSettingsPatchSchema> }>(
    '/services/dns',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['dns'],
        summary: 'Update DNS settings (any subset; 400 names a bad upstream entry or domain). A change restarts a running DNS server; enabled false/true stops/starts it and sets its auto-start',
        body: DnsSettingsPatchSchema,
        response: { 200: Ok(DnsSettingsSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await dns.updateSettings(request.body) }),
  );
}

/** DNS records: CRUD under /dns/records. */
function recordRoutes(app: FastifyInstance, dns: DnsRouteOperations): void {
  app.get<{ Querystring: Static<typeof RecordListQuery> }>(
    '/dns/records',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['dns'],
        summary: 'List DNS records (q matches name, value and comment; filters type, enabled)',
        querystring: RecordListQuery,
        response: { 200: OkList(DnsRecordSchema) },
      },
    },
    async (request) => {
      const { type, enabled, ...query } = request.query;
      const rows = dns.records.all().filter((record) => (type === undefined || record.type === type) && (enabled === undefined || record.enabled === enabled));
      return {
        success: true as const,
        ...paginate(rows, query, { sortable: SORTABLE, defaultSort: 'id', searchText: (record) => [record.name, record.value, record.comment] }),
      };
    },
  );

  app.post<{ Body: Static<typeof CreateRecordBody> }>(
    '/dns/records',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['dns'],
        summary: 'Create a DNS record (409 for an exact duplicate or a CNAME sharing its name); answered from the next query on',
        body: CreateRecordBody,
        response: { 201: Ok(DnsRecordSchema) },
      },
    },
    async (request, reply) => {
      const record = await dns.records.create(request.body);
      await dns.sync();
      return reply.code(201).send({ success: true as const, data: record });
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/dns/records/:id',
    {
      config: { access: 'viewer' },
      schema: { tags: ['dns'], summary: 'Get one DNS record', params: IdParams, response: { 200: Ok(DnsRecordSchema) } },
    },
    async (request) => ({ success: true as const, data: dns.records.get(request.params.id) }),
  );

  app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateRecordBody> }>(
    '/dns/records/:id',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['dns'],
        summary: 'Update a DNS record: the fields sent change, the result is validated as a whole',
        params: IdParams,
        body: UpdateRecordBody,
        response: { 200: Ok(DnsRecordSchema) },
      },
    },
    async (request) => {
      const record = await dns.records.update(request.params.id, request.body);
      await dns.sync();
      return { success: true as const, data: record };
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/dns/records/:id',
    {
      config: { access: 'operator' },
      schema: { tags: ['dns'], summary: 'Delete a DNS record; returns it', params: IdParams, response: { 200: Ok(DnsRecordSchema) } },
    },
    async (request) => {
      const record = await dns.records.remove(request.params.id);
      await dns.sync();
      return { success: true as const, data: record };
    },
  );
}
