import { Type, type Static } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { TEMPLATE_LIMITS } from '../../boot-scripts/template-engine.js';
import { GROUP_PATTERN } from '../../hosts/host-validation.js';
import { BOOT_TYPES, type ChangeNote, type ProfileInput } from '../../profiles/profile-types.js';
import { NAME_MAX } from '../../profiles/profile-validation.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import { nullable } from './hosts.js';
import type { RoutePluginFactory } from './index.js';

const BootTypeSchema = Type.Enum([...BOOT_TYPES], { description: 'ipxe_script, linux, chain, sanboot, local or menu' });
const Location = Type.String({ minLength: 1, maxLength: 2048, description: 'Path under the boot root or absolute URL; may use {{ }} expressions' });

const LinuxSchema = Type.Object({ kernel: Type.String(), initrds: Type.Array(Type.String()), cmdline: Type.String() });
const UrlSchema = Type.Object({ url: Type.String() });
const MenuSchema = Type.Object({
  title: Type.String(),
  entries: Type.Array(Type.Object({ profile_id: Type.Integer(), label: Type.String() })),
  default_entry: nullable<number>('integer'),
  timeout_seconds: Type.Integer(),
});
const VariablesSchema = Type.Record(Type.String({ pattern: '^[a-z_][a-z0-9_]{0,63}$' }), Type.String({ maxLength: 4096 }), {
  maxProperties: 64,
  additionalProperties: false,
  description: 'Template variables (variables.<name>): lowercase names, string values',
});

export const ProfileSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    boot_type: BootTypeSchema,
    script: Type.String({ description: 'The script template: hand-written for ipxe_script, generated for the other types' }),
    linux: Type.Union([LinuxSchema, Type.Null()]),
    chain: Type.Union([UrlSchema, Type.Null()]),
    sanboot: Type.Union([UrlSchema, Type.Null()]),
    menu: Type.Union([MenuSchema, Type.Null()]),
    variables: VariablesSchema,
    default_for_groups: Type.Array(Type.String()),
    script_version: Type.Integer({ description: 'Version number of the current script' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Profile' },
);

const ScriptVersionSchema = Type.Object(
  {
    id: Type.Integer(),
    profile_id: Type.Integer(),
    version: Type.Integer(),
    boot_type: BootTypeSchema,
    script: Type.String(),
    author: Type.String(),
    comment: Type.String(),
    created_at: Timestamp,
  },
  { $id: 'ProfileScriptVersion' },
);

const ScriptDiffSchema = Type.Object({
  profile_id: Type.Integer(),
  from_version: Type.Integer(),
  to_version: Type.Integer(),
  diff: Type.String({ description: 'Unified diff' }),
  additions: Type.Integer(),
  deletions: Type.Integer(),
});

const ProfileFields = {
  description: Type.Optional(PrintableString({ maxLength: 1024 })),
  script: Type.Optional(Type.String({ maxLength: TEMPLATE_LIMITS.maxSourceChars, description: 'ipxe_script only: the script template' })),
  linux: Type.Optional(
    StrictObject({
      kernel: Location,
      initrds: Type.Optional(Type.Array(Location, { maxItems: 16 })),
      cmdline: Type.Optional(Type.String({ maxLength: 4096 })),
    }),
  ),
  chain: Type.Optional(StrictObject({ url: Location })),
  sanboot: Type.Optional(StrictObject({ url: Location })),
  menu: Type.Optional(
    StrictObject({
      title: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX })),
      entries: Type.Array(StrictObject({ profile_id: Type.Integer({ minimum: 1 }), label: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX })) }), {
        minItems: 1,
        maxItems: 64,
      }),
      default_entry: Type.Optional(nullable<number>('integer', { minimum: 1, description: 'An entry\'s profile_id; null: the local disk' })),
      timeout_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600, description: '0 waits for a key press; default 10' })),
    }),
  ),
  variables: Type.Optional(VariablesSchema),
  default_for_groups: Type.Optional(Type.Array(Type.String({ pattern: GROUP_PATTERN }), { maxItems: 32 })),
  comment: Type.Optional(PrintableString({ maxLength: 500, description: 'Stored with the new script version, if the script changes' })),
};

const NameField = Type.String({ minLength: 1, maxLength: NAME_MAX, description: 'Unique (case-insensitive); printable, without $ { } # ; & | quotes or backslash' });
const CreateProfileBody = StrictObject({ name: NameField, boot_type: BootTypeSchema, ...ProfileFields });
const UpdateProfileBody = Type.Object(
  { name: Type.Optional(NameField), boot_type: Type.Optional(BootTypeSchema), ...ProfileFields },
  { additionalProperties: false, minProperties: 1 },
);
const RollbackBody = StrictObject({ comment: Type.Optional(PrintableString({ maxLength: 500 })) });

const ProfileListQuery = Type.Object(
  {
    ...ListQueryProperties,
    boot_type: Type.Optional(BootTypeSchema),
    group: Type.Optional(Type.String({ maxLength: 64, description: 'Profiles that are the default of this group' })),
  },
  { additionalProperties: false },
);
const VersionListQuery = Type.Object(ListQueryProperties, { additionalProperties: false });
const ProfileParams = StrictObject({ profileId: Type.Integer({ minimum: 1 }) });
const VersionParams = StrictObject({ profileId: Type.Integer({ minimum: 1 }), verId: Type.Integer({ minimum: 1, description: 'The version\'s id (not its number)' }) });
const DiffQuery = Type.Object({ to: Type.Optional(Type.Integer({ minimum: 1, description: 'Another version id; default: the current script' })) }, { additionalProperties: false });

type ProfileBody = Static<typeof CreateProfileBody> | Static<typeof UpdateProfileBody>;

function splitBody(request: FastifyRequest, body: ProfileBody): { input: ProfileInput; note: ChangeNote } {
  const { comment, ...input } = body;
  return { input, note: { author: authorOf(request), ...(comment !== undefined ? { comment } : {}) } };
}

function authorOf(request: FastifyRequest): string {
  return request.principal?.username ?? 'unknown';
}

function versionView(version: { id: number; profile_id: number; version: number; script: string; source: { boot_type: string }; author: string; comment: string; created_at: string }) {
  return {
    id: version.id,
    profile_id: version.profile_id,
    version: version.version,
    boot_type: version.source.boot_type,
    script: version.script,
    author: version.author,
    comment: version.comment,
    created_at: version.created_at,
  };
}

/** Boot profiles and their script history (docs/hosts-and-profiles.md). */
export const profileRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get<{ Querystring: Static<typeof ProfileListQuery> }>(
    '/profiles',
    {
      config: { access: 'viewer' },
      schema: { tags: ['profiles'], summary: 'List profiles (q matches name, description, boot type, groups)', querystring: ProfileListQuery, response: { 200: OkList(ProfileSchema) } },
    },
    async (request) => ({ success: true as const, ...ctx.profiles.list(request.query) }),
  );

  app.post<{ Body: Static<typeof CreateProfileBody> }>(
    '/profiles',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['profiles'],
        summary: 'Create a profile (its script becomes version 1; 400 with the line when the script does not render)',
        body: CreateProfileBody,
        response: { 201: Ok(ProfileSchema) },
      },
    },
    async (request, reply) => {
      const { input, note } = splitBody(request, request.body);
      return reply.code(201).send({ success: true as const, data: await ctx.profiles.create(input, note) });
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/profiles/:id',
    { config: { access: 'viewer' }, schema: { tags: ['profiles'], summary: 'Get a profile', params: IdParams, response: { 200: Ok(ProfileSchema) } } },
    async (request) => ({ success: true as const, data: ctx.profiles.require(request.params.id) }),
  );

  app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateProfileBody> }>(
    '/profiles/:id',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['profiles'],
        summary: 'Update a profile (the fields sent); a changed script becomes a new version',
        params: IdParams,
        body: UpdateProfileBody,
        response: { 200: Ok(ProfileSchema) },
      },
    },
    async (request) => {
      const { input, note } = splitBody(request, request.body);
      return { success: true as const, data: await ctx.profiles.update(request.params.id, input, note) };
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/profiles/:id',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['profiles'],
        summary: 'Delete a profile and its script history (409 naming the hosts, menus or setting that use it)',
        params: IdParams,
        response: { 200: Ok(ProfileSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.profiles.remove(request.params.id) }),
  );

  app.get<{ Params: Static<typeof ProfileParams>; Querystring: Static<typeof VersionListQuery> }>(
    '/profiles/:profileId/script-versions',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['profiles'],
        summary: 'List script versions, newest first (q matches author, comment, script)',
        params: ProfileParams,
        querystring: VersionListQuery,
        response: { 200: OkList(ScriptVersionSchema) },
      },
    },
    async (request) => {
      const page = ctx.profiles.listVersions(request.params.profileId, request.query);
      return { success: true as const, data: page.data.map(versionView), meta: page.meta };
    },
  );

  app.get<{ Params: Static<typeof VersionParams> }>(
    '/profiles/:profileId/script-versions/:verId',
    {
      config: { access: 'viewer' },
      schema: { tags: ['profiles'], summary: 'Get one script version', params: VersionParams, response: { 200: Ok(ScriptVersionSchema) } },
    },
    async (request) => ({ success: true as const, data: versionView(ctx.profiles.getVersion(request.params.profileId, request.params.verId)) }),
  );

  app.get<{ Params: Static<typeof VersionParams>; Querystring: Static<typeof DiffQuery> }>(
    '/profiles/:profileId/script-diff/:verId',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['profiles'],
        summary: 'Unified diff from a version to the current script, or to version ?to=<verId>',
        params: VersionParams,
        querystring: DiffQuery,
        response: { 200: Ok(ScriptDiffSchema) },
      },
    },
    async (request) => ({ success: true as const, data: ctx.profiles.diff(request.params.profileId, request.params.verId, request.query.to) }),
  );

  app.post<{ Params: Static<typeof VersionParams>; Body: Static<typeof RollbackBody> }>(
    '/profiles/:profileId/script-rollback/:verId',
    {
      config: { access: 'operator' },
      // The body is optional: no body is the same as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['profiles'],
        summary: 'Make a version current again as a new version (its script and boot settings); history is kept',
        params: VersionParams,
        body: RollbackBody,
        response: { 200: Ok(ProfileSchema) },
      },
    },
    async (request) => {
      const note: ChangeNote = { author: authorOf(request), ...(request.body.comment !== undefined ? { comment: request.body.comment } : {}) };
      return { success: true as const, data: await ctx.profiles.rollback(request.params.profileId, request.params.verId, note) };
    },
  );
};
