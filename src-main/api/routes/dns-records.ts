import { Type, type Static } from 'typebox';
import { DNS_RECORD_TYPES, MAX_COMMENT_LENGTH, MAX_TTL, MAX_TXT_BYTES, type DnsRecord } from '../../dns/dns-records.js';
import { paginate } from '../../core/http-kit/list-query.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

/** `{"type": [T, "null"]}`: one clear validation error instead of one per anyOf branch. */
function nullable<T>(type: 'string' | 'integer', options: Record<string, unknown> = {}) {
  return Type.Unsafe<T | null>({ type: [type, 'null'], ...options });
}

const RecordType = Type.Enum([...DNS_RECORD_TYPES], { description: 'A, AAAA, CNAME, TXT or MX' });

export const DnsRecordSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: '"@" for the local domain, a name relative to it, or an absolute name ending in "."; lowercase' }),
    type: RecordType,
    value: Type.String({ description: 'A: IPv4 or {server_ip}; AAAA: IPv6; CNAME/MX: host name; TXT: text' }),
    ttl: Type.Integer(),
    priority: nullable<number>('integer', { description: 'MX preference; null for other types' }),
    subnet: nullable<string>('string', { description: 'CIDR: only clients in it get the record; null for all' }),
    enabled: Type.Boolean(),
    comment: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'DnsRecord' },
);

const RecordFields = {
  name: Type.String({ minLength: 1, maxLength: 254, description: '"@", relative to the local domain, or absolute with a trailing "."' }),
  type: RecordType,
  value: Type.String({ minLength: 1, maxLength: MAX_TXT_BYTES, description: 'Checked per type; TXT up to 4000 bytes' }),
  ttl: Type.Integer({ minimum: 0, maximum: MAX_TTL, description: 'Seconds; default 300' }),
  priority: nullable<number>('integer', { minimum: 0, maximum: 65535, description: 'Required for MX, null or absent otherwise' }),
  subnet: nullable<string>('string', { maxLength: 64, description: 'CIDR, e.g. 192.168.10.0/24' }),
  enabled: Type.Boolean({ description: 'Default true' }),
  comment: PrintableString({ maxLength: MAX_COMMENT_LENGTH, description: 'Printable text (docs/api.md)' }),
};

const CreateRecordBody = StrictObject({
  name: RecordFields.name,
  type: RecordFields.type,
  value: RecordFields.value,
  ttl: Type.Optional(RecordFields.ttl),
  priority: Type.Optional(RecordFields.priority),
  subnet: Type.Optional(RecordFields.subnet),
  enabled: Type.Optional(RecordFields.enabled),
  comment: Type.Optional(RecordFields.comment),
});

const UpdateRecordBody = Type.Object(
  {
    name: Type.Optional(RecordFields.name),
    type: Type.Optional(RecordFields.type),
    value: Type.Optional(RecordFields.value),
    ttl: Type.Optional(RecordFields.ttl),
    priority: Type.Optional(RecordFields.priority),
    subnet: Type.Optional(RecordFields.subnet),
    enabled: Type.Optional(RecordFields.enabled),
    comment: Type.Optional(RecordFields.comment),
  },
  { additionalProperties: false, minProperties: 1 },
);

const RecordListQuery = Type.Object(
  {
    ...ListQueryProperties,
    type: Type.Optional(RecordType),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const SORTABLE = ['id', 'name', 'type', 'value', 'ttl', 'priority', 'subnet', 'enabled', 'created_at', 'updated_at'] as const satisfies readonly (keyof DnsRecord)[];

/** DNS records: CRUD of the local records the DNS server answers (docs/dns.md). */
export const dnsRecordRoutes: RoutePluginFactory = (ctx) => async (app) => {
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
      const rows = ctx.dns.records.all().filter((record) => (type === undefined || record.type === type) && (enabled === undefined || record.enabled === enabled));
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
      const record = await ctx.dns.records.create(request.body);
      await ctx.dns.sync();
      return reply.code(201).send({ success: true as const, data: record });
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/dns/records/:id',
    {
      config: { access: 'viewer' },
      schema: { tags: ['dns'], summary: 'Get one DNS record', params: IdParams, response: { 200: Ok(DnsRecordSchema) } },
    },
    async (request) => ({ success: true as const, data: ctx.dns.records.get(request.params.id) }),
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
      const record = await ctx.dns.records.update(request.params.id, request.body);
      await ctx.dns.sync();
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
      const record = await ctx.dns.records.remove(request.params.id);
      await ctx.dns.sync();
      return { success: true as const, data: record };
    },
  );
};
