import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import { ScriptCreateBody, ScriptUpdateBody } from './script-input.js';
import type { ScriptService } from './script-service.js';
import {
  OsFamilySchema,
  ScriptCheckBodySchema,
  ScriptCheckSchema,
  ScriptDiffSchema,
  ScriptKindSchema,
  ScriptSchema,
  ScriptVersionSchema,
} from './scripts-contract.js';

const tags = ['scripts'];

const ScriptListQuery = Type.Object(
  {
    ...ListQueryProperties,
    kind: Type.Optional(ScriptKindSchema),
    os_family: Type.Optional(OsFamilySchema),
  },
  { additionalProperties: false },
);
const VersionListQuery = Type.Object(ListQueryProperties, { additionalProperties: false });
const VersionParams = StrictObject({
  id: Type.Integer({ minimum: 1 }),
  version: Type.Integer({ minimum: 1, description: 'The version number (1, 2, 3…)' }),
});
const DiffQuery = Type.Object({ to: Type.Optional(Type.Integer({ minimum: 1, description: 'Another version number; default: the current content' })) }, { additionalProperties: false });
const DeleteQuery = Type.Object(
  { force: Type.Optional(Type.Boolean({ description: 'Delete even while baselines use the script (they keep a reference to a missing script)' })) },
  { additionalProperties: false },
);
const RollbackBody = StrictObject({ comment: Type.Optional(PrintableString({ maxLength: 500 })) });

/** What the routes call: the scripts area as far as the API uses it. */
export type ScriptRouteOperations = Pick<ScriptService, 'page' | 'require' | 'create' | 'update' | 'remove' | 'check' | 'listVersions' | 'getVersion' | 'diff' | 'rollback'>;

function authorOf(request: FastifyRequest): string {
  return request.principal?.username ?? 'unknown';
}

/**
 * The scripts endpoints (docs/scripts.md). Viewers read; every POST, PUT and
 * DELETE is an operator's, POST /scripts/check too (the API's rule for
 * mutating methods, kept by the auth matrix test). The static
 * `/scripts/check` sits beside `/scripts/{id}`: the router prefers a static
 * segment, and ids are integers.
 */
export function scriptRoutes(scripts: ScriptRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof ScriptListQuery> }>(
      '/scripts',
      {
        config: { access: 'viewer' },
        schema: { tags, summary: 'List scripts (q matches name, description, kind, OS family)', querystring: ScriptListQuery, response: { 200: OkList(ScriptSchema) } },
      },
      async (request) => ({ success: true as const, ...scripts.page(request.query) }),
    );

    app.post<{ Body: Static<typeof ScriptCreateBody> }>(
      '/scripts',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Create a script (version 1); 400 listing the check\'s errors with their lines, 409 when the name is taken',
          body: ScriptCreateBody,
          response: { 201: Ok(ScriptSchema) },
        },
      },
      async (request, reply) => {
        const created = await scripts.create(request.body, authorOf(request));
        request.auditDetail = { name: created.name, version: String(created.version) };
        return reply.code(201).send({ success: true as const, data: created });
      },
    );

    app.post<{ Body: Static<typeof ScriptCheckBodySchema> }>(
      '/scripts/check',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Check an unsaved script: encoding, Liquid with its variables, then the kind\'s check (sh -n, bash -n, YAML, PowerShell/batch well-formedness)',
          body: ScriptCheckBodySchema,
          response: { 200: Ok(ScriptCheckSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await scripts.check(request.body.kind, request.body.content, request.body.variables ?? {}) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/scripts/:id',
      { config: { access: 'viewer' }, schema: { tags, summary: 'Get a script', params: IdParams, response: { 200: Ok(ScriptSchema) } } },
      async (request) => ({ success: true as const, data: scripts.require(request.params.id) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof ScriptUpdateBody> }>(
      '/scripts/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Update a script (the fields sent); a changed content or kind becomes a new version',
          params: IdParams,
          body: ScriptUpdateBody,
          response: { 200: Ok(ScriptSchema) },
        },
      },
      async (request) => {
        const updated = await scripts.update(request.params.id, request.body, authorOf(request));
        request.auditDetail = { name: updated.name, version: String(updated.version) };
        return { success: true as const, data: updated };
      },
    );

    app.delete<{ Params: Static<typeof IdParams>; Querystring: Static<typeof DeleteQuery> }>(
      '/scripts/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Delete a script and its versions (409 naming the baselines that use it, unless ?force=true)',
          params: IdParams,
          querystring: DeleteQuery,
          response: { 200: Ok(ScriptSchema) },
        },
      },
      async (request) => {
        const force = request.query.force === true;
        const removed = await scripts.remove(request.params.id, { force }, authorOf(request));
        request.auditDetail = { name: removed.name, force: String(force) };
        return { success: true as const, data: removed };
      },
    );

    app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof VersionListQuery> }>(
      '/scripts/:id/versions',
      {
        config: { access: 'viewer' },
        schema: {
          tags,
          summary: 'List the versions of a script, newest first (q matches author, comment, content)',
          params: IdParams,
          querystring: VersionListQuery,
          response: { 200: OkList(ScriptVersionSchema) },
        },
      },
      async (request) => ({ success: true as const, ...scripts.listVersions(request.params.id, request.query) }),
    );

    app.get<{ Params: Static<typeof VersionParams> }>(
      '/scripts/:id/versions/:version',
      {
        config: { access: 'viewer' },
        schema: { tags, summary: 'Get one version by number, with the unified diff to the current content', params: VersionParams, response: { 200: Ok(ScriptVersionSchema) } },
      },
      async (request) => ({ success: true as const, data: scripts.getVersion(request.params.id, request.params.version) }),
    );

    app.get<{ Params: Static<typeof VersionParams>; Querystring: Static<typeof DiffQuery> }>(
      '/scripts/:id/versions/:version/diff',
      {
        config: { access: 'viewer' },
        schema: {
          tags,
          summary: 'Unified diff from a version to the current content, or to version ?to=<number>',
          params: VersionParams,
          querystring: DiffQuery,
          response: { 200: Ok(ScriptDiffSchema) },
        },
      },
      async (request) => ({ success: true as const, data: scripts.diff(request.params.id, request.params.version, request.query.to) }),
    );

    app.post<{ Params: Static<typeof VersionParams>; Body: Static<typeof RollbackBody> }>(
      '/scripts/:id/versions/:version/rollback',
      {
        config: { access: 'operator' },
        // No body is the same as {}.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary: 'Make a version\'s content and kind current again as a new version (checked like a save; nothing changes when it already is current)',
          params: VersionParams,
          body: RollbackBody,
          response: { 200: Ok(ScriptSchema) },
        },
      },
      async (request) => {
        const note = { author: authorOf(request), ...(request.body.comment !== undefined ? { comment: request.body.comment } : {}) };
        return { success: true as const, data: await scripts.rollback(request.params.id, request.params.version, note) };
      },
    );
  };
}
