import { Type, type Static } from 'typebox';
import { BOOT_ACTIONS, BOOT_REASONS } from '../../boot-scripts/boot-resolver.js';
import { MAC_INPUT_PATTERN } from '../../core/mac.js';
import { ARCH_PATTERN, GROUP_PATTERN, TAG_PATTERN } from '../../hosts/host-validation.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

/**
 * `{"type": [T, "null"]}` rather than anyOf: one clear validation error
 * ("must be string,null") instead of one per branch. Range keywords ignore null.
 */
export function nullable<T>(type: 'string' | 'integer', options: Record<string, unknown> = {}) {
  return Type.Unsafe<T | null>({ type: [type, 'null'], ...options });
}

export const HostSchema = Type.Object(
  {
    id: Type.Integer(),
    mac: Type.String({ description: 'Lowercase, colon-separated; unique' }),
    hostname: nullable<string>('string'),
    ip: nullable<string>('string', { description: 'Fixed IPv4 address; a DHCP reservation follows it' }),
    profile_id: nullable<number>('integer'),
    group: nullable<string>('string'),
    tags: Type.Array(Type.String()),
    description: Type.String(),
    arch: nullable<string>('string', { description: 'iPXE ${buildarch}: set by hand or learned at boot' }),
    platform: nullable<string>('string', { description: 'iPXE ${platform} (pcbios, efi): learned at boot' }),
    enabled: Type.Boolean({ description: 'false: the machine boots from its local disk whatever its profile' }),
    discovered: Type.Boolean({ description: 'Recorded when an unknown machine booted; set false to adopt it' }),
    last_boot_at: nullable<string>('string', { format: 'date-time' }),
    last_seen_ip: nullable<string>('string'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Host' },
);

const HostFields = {
  hostname: Type.Optional(nullable<string>('string', { maxLength: 253, description: 'RFC 1123 host name; stored lowercase' })),
  ip: Type.Optional(nullable<string>('string', { maxLength: 64, description: 'IPv4 address; creates or updates the DHCP reservation' })),
  profile_id: Type.Optional(nullable<number>('integer', { minimum: 1 })),
  group: Type.Optional(nullable<string>('string', { pattern: GROUP_PATTERN })),
  tags: Type.Optional(Type.Array(Type.String({ pattern: TAG_PATTERN }), { maxItems: 32 })),
  description: Type.Optional(PrintableString({ maxLength: 1024, description: 'Printable text (docs/api.md)' })),
  arch: Type.Optional(nullable<string>('string', { pattern: ARCH_PATTERN })),
  enabled: Type.Optional(Type.Boolean()),
  discovered: Type.Optional(Type.Boolean()),
};

const MacField = Type.String({ pattern: MAC_INPUT_PATTERN, description: 'Any common spelling (colons, dashes, dots, bare hex)' });
const CreateHostBody = StrictObject({ mac: MacField, ...HostFields });
const UpdateHostBody = Type.Object({ mac: Type.Optional(MacField), ...HostFields }, { additionalProperties: false, minProperties: 1 });

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

const BootConfigSchema = Type.Object(
  {
    host_id: Type.Integer(),
    mac: Type.String(),
    action: Type.Enum([...BOOT_ACTIONS], { description: 'profile, menu (the netboot default menu), local or denied' }),
    reason: Type.Enum([...BOOT_REASONS], { description: 'Why: host_assignment, group_default, global_default, host_disabled, access_denied' }),
    reason_text: Type.String(),
    profile: Type.Union([
      Type.Object({ id: Type.Integer(), name: Type.String(), boot_type: Type.String(), script_version: Type.Integer() }),
      Type.Null(),
    ]),
    script: Type.String({ description: 'The rendered iPXE script the host would receive now' }),
    render_error: nullable<string>('string', { description: 'Set when the template fails: the host would get the fallback script shown in `script`' }),
    files: Type.Array(Type.Object({ command: Type.String(), url: Type.String() }), { description: 'What the script would fetch' }),
    entry_url: Type.String(),
    script_url: Type.String(),
    client_ip: nullable<string>('string', { description: 'Client address assumed (last seen or fixed IP)' }),
  },
  { $id: 'HostBootConfig' },
);

/** Hosts: CRUD with filters and the boot-config preview (docs/hosts-and-profiles.md). */
export const hostRoutes: RoutePluginFactory = (ctx) => async (app) => {
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
    async (request) => ({ success: true as const, ...ctx.hosts.list(request.query) }),
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
    async (request, reply) => reply.code(201).send({ success: true as const, data: await ctx.hosts.create(request.body) }),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/hosts/:id',
    {
      config: { access: 'viewer' },
      schema: { tags: ['hosts'], summary: 'Get a host', params: IdParams, response: { 200: Ok(HostSchema) } },
    },
    async (request) => ({ success: true as const, data: ctx.hosts.require(request.params.id) }),
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
    async (request) => ({ success: true as const, data: await ctx.hosts.update(request.params.id, request.body) }),
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
    async (request) => ({ success: true as const, data: await ctx.hosts.remove(request.params.id) }),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/hosts/:id/boot-config',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['hosts'],
        summary: 'What the host would receive if it booted now: rendered script, profile and why, files it would fetch',
        params: IdParams,
        response: { 200: Ok(BootConfigSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.bootScripts.preview(request.params.id) }),
  );
};
