import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import type { ChangeNote } from './profile-types.js';
import type { ProfileService } from './profile-service.js';
import {
  BootTypeSchema,
  ProfileNameSchema,
  ProfileSavedSchema,
  ProfileSchema,
  ProfileViewSchema,
  ProfileWriteSchema,
  type Profile,
  ScriptDiffSchema,
  ScriptVersionSchema,
  type ProfileInput,
} from './profiles-contract.js';

/** The contract's fields with the printable-text rule of the ground layer (the contract imports only typebox). */
const PrintableFields = {
  description: Type.Optional(PrintableString({ maxLength: 1024 })),
  comment: Type.Optional(PrintableString({ maxLength: 500, description: 'Stored with the new script version, if the script changes' })),
};
const CreateProfileBody = StrictObject({ ...ProfileWriteSchema.properties, name: ProfileNameSchema, boot_type: BootTypeSchema, ...PrintableFields });
const UpdateProfileBody = Type.Object({ ...ProfileWriteSchema.properties, ...PrintableFields }, { additionalProperties: false, minProperties: 1 });
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

/** What the routes call: the profiles area's facade as far as the API uses it. */
export type ProfileRouteOperations = Pick<ProfileService, 'list' | 'create' | 'require' | 'update' | 'remove' | 'listVersions' | 'getVersion' | 'diff' | 'rollback' | 'usage'>;

/** The warnings a save answers with (profile-files.ts): files missing from the boot root. */
export type ProfileSaveWarnings = (profile: Profile) => Promise<string[]>;

/** Boot profiles and their script history (docs/hosts-and-profiles.md). */
export function profileRoutes(profiles: ProfileRouteOperations, warningsFor: ProfileSaveWarnings = async () => []): FastifyPluginAsync {
  const saved = async (profile: Profile) => ({ ...profile, warnings: await warningsFor(profile) });
  const NO_USE = { assigned: 0, by_group: 0 };
  return async (app) => {
    app.get<{ Querystring: Static<typeof ProfileListQuery> }>(
      '/profiles',
      {
        config: { access: 'viewer' },
        schema: { tags: ['profiles'], summary: 'List profiles (q matches name, description, boot type, groups), each with the hosts using it', querystring: ProfileListQuery, response: { 200: OkList(ProfileViewSchema) } },
      },
      async (request) => {
        const page = profiles.list(request.query);
        const usage = profiles.usage();
        return { success: true as const, ...page, data: page.data.map((profile) => ({ ...profile, used_by: usage.get(profile.id) ?? NO_USE })) };
      },
    );

    app.post<{ Body: Static<typeof CreateProfileBody> }>(
      '/profiles',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['profiles'],
          summary: 'Create a profile (its script becomes version 1; 400 with the line when the script does not render); `warnings` names files missing from the boot root',
          body: CreateProfileBody,
          response: { 201: Ok(ProfileSavedSchema) },
        },
      },
      async (request, reply) => {
        const { input, note } = splitBody(request, request.body);
        return reply.code(201).send({ success: true as const, data: await saved(await profiles.create(input, note)) });
      },
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/profiles/:id',
      { config: { access: 'viewer' }, schema: { tags: ['profiles'], summary: 'Get a profile, with the hosts using it', params: IdParams, response: { 200: Ok(ProfileViewSchema) } } },
      async (request) => {
        const profile = profiles.require(request.params.id);
        return { success: true as const, data: { ...profile, used_by: profiles.usage().get(profile.id) ?? NO_USE } };
      },
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateProfileBody> }>(
      '/profiles/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['profiles'],
          summary: 'Update a profile (the fields sent); a changed script becomes a new version; `warnings` names files missing from the boot root',
          params: IdParams,
          body: UpdateProfileBody,
          response: { 200: Ok(ProfileSavedSchema) },
        },
      },
      async (request) => {
        const { input, note } = splitBody(request, request.body);
        return { success: true as const, data: await saved(await profiles.update(request.params.id, input, note)) };
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
      async (request) => ({ success: true as const, data: await profiles.remove(request.params.id) }),
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
        const page = profiles.listVersions(request.params.profileId, request.query);
        return { success: true as const, data: page.data.map(versionView), meta: page.meta };
      },
    );

    app.get<{ Params: Static<typeof VersionParams> }>(
      '/profiles/:profileId/script-versions/:verId',
      {
        config: { access: 'viewer' },
        schema: { tags: ['profiles'], summary: 'Get one script version', params: VersionParams, response: { 200: Ok(ScriptVersionSchema) } },
      },
      async (request) => ({ success: true as const, data: versionView(profiles.getVersion(request.params.profileId, request.params.verId)) }),
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
      async (request) => ({ success: true as const, data: profiles.diff(request.params.profileId, request.params.verId, request.query.to) }),
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
        return { success: true as const, data: await profiles.rollback(request.params.profileId, request.params.verId, note) };
      },
    );
  };
}
