import { Type, type Static } from 'typebox';
import { nullable } from '../core/http-kit/common-contract.js';

/*
 * The DNS API's contract: the TypeBox schemas and constants of /api/v1/dns/*
 * and /api/v1/services/dns. It imports nothing but typebox and other contracts (a test checks it)
 * so the renderer can import it too (alias @contracts/dns): the record types,
 * limits and shapes are written once for the server, the API document and
 * the UI.
 */

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** An A record value that answers with the server's own address on the client's subnet. */
export const SERVER_IP_MARKER = '{server_ip}';
export const DEFAULT_TTL = 300;
export const MAX_TTL = 604_800;
/** TXT values are split into 255-byte character-strings on the wire (RFC 1035 §3.3.14). */
export const MAX_TXT_BYTES = 4000;
export const MAX_COMMENT_LENGTH = 500;
/** MX preference is a 16-bit unsigned integer (RFC 1035 §3.3.9). */
export const MAX_PRIORITY = 65_535;
/** Every record travels to the DNS worker on each change; this keeps that cheap. */
export const MAX_RECORDS = 20_000;


export const DnsRecordTypeSchema = Type.Enum([...DNS_RECORD_TYPES], { description: 'A, AAAA, CNAME, TXT or MX' });

/** A stored record as the API returns it. */
export const DnsRecordSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: '"@" for the local domain, a name relative to it, or an absolute name ending in "."; lowercase' }),
    type: DnsRecordTypeSchema,
    value: Type.String({ description: 'A: IPv4 or {server_ip}; AAAA: IPv6; CNAME/MX: host name; TXT: text' }),
    ttl: Type.Integer(),
    priority: nullable<number>('integer', { description: 'MX preference; null for other types' }),
    subnet: nullable<string>('string', { description: 'CIDR: only clients in it get the record; null for all' }),
    enabled: Type.Boolean(),
    comment: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'DnsRecord' },
);

/**
 * The writable fields. `comment` is printable text: the routes add the
 * printable-text pattern, a rule of the ground layer shared by every area
 * (core/printable-text.ts), which this file may not import.
 */
const RecordFields = {
  name: Type.String({ minLength: 1, maxLength: 254, description: '"@", relative to the local domain, or absolute with a trailing "."' }),
  type: DnsRecordTypeSchema,
  value: Type.String({ minLength: 1, maxLength: MAX_TXT_BYTES, description: 'Checked per type; TXT up to 4000 bytes' }),
  ttl: Type.Integer({ minimum: 0, maximum: MAX_TTL, description: 'Seconds; default 300' }),
  priority: nullable<number>('integer', { minimum: 0, maximum: MAX_PRIORITY, description: 'Required for MX, null or absent otherwise' }),
  subnet: nullable<string>('string', { maxLength: 64, description: 'CIDR, e.g. 192.168.10.0/24' }),
  enabled: Type.Boolean({ description: 'Default true' }),
  comment: Type.String({ maxLength: MAX_COMMENT_LENGTH, description: 'Printable text (docs/api.md)' }),
};

/** POST /dns/records body. */
export const DnsRecordInputSchema = Type.Object(
  {
    name: RecordFields.name,
    type: RecordFields.type,
    value: RecordFields.value,
    ttl: Type.Optional(RecordFields.ttl),
    priority: Type.Optional(RecordFields.priority),
    subnet: Type.Optional(RecordFields.subnet),
    enabled: Type.Optional(RecordFields.enabled),
    comment: Type.Optional(RecordFields.comment),
  },
  { additionalProperties: false },
);

/** PUT /dns/records/{id} body: the fields sent change; at least one. */
export const DnsRecordPatchSchema = Type.Object(
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

export type DnsRecord = Static<typeof DnsRecordSchema>;
export type DnsRecordInput = Static<typeof DnsRecordInputSchema>;
export type DnsRecordPatch = Static<typeof DnsRecordPatchSchema>;

const DnsSettingsFields = {
  enabled: Type.Boolean({ description: 'The service auto-start flag (runs and starts with the app), as for TFTP; false stops the server and turns auto-start off, true starts it and turns auto-start on' }),
  port: Type.Integer({ minimum: 1, maximum: 65535, description: 'UDP and TCP port (53)' }),
  local_domain: Type.String({ minLength: 1, maxLength: 254, description: 'Domain the server is authoritative for; record names are relative to it' }),
  upstream: Type.String({
    maxLength: 2048,
    description: 'Upstream servers: <ip>:<port> entries separated by commas or whitespace (port optional, 53; IPv6 as [addr]:port); empty forwards nothing',
  }),
};

/** GET /services/dns. */
export const DnsSettingsSchema = Type.Object(DnsSettingsFields, { additionalProperties: false });
/** PUT /services/dns body: any subset of the fields; unknown fields are rejected. */
export const DnsSettingsPatchSchema = Type.Object(
  {
    enabled: Type.Optional(DnsSettingsFields.enabled),
    port: Type.Optional(DnsSettingsFields.port),
    local_domain: Type.Optional(DnsSettingsFields.local_domain),
    upstream: Type.Optional(DnsSettingsFields.upstream),
  },
  { additionalProperties: false },
);

export type DnsSettings = Static<typeof DnsSettingsSchema>;
export type DnsSettingsPatch = Static<typeof DnsSettingsPatchSchema>;
