import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { notFound } from '../core/errors.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import { OsFamilySchema } from '../scripts/scripts-contract.js';
import {
  AssignedBaselineSchema,
  AssignedQuerySchema,
  BaselineCreateSchema,
  BaselineSchema,
  BaselineScriptsPutSchema,
  BaselineScriptViewSchema,
  BaselineUpdateSchema,
  type AssignedQuery,
} from './baselines-contract.js';
import type { BaselinesFacade } from './baselines-facade.js';

/** The contract's description with the printable-text rule of the ground layer (the contract imports only typebox). */
const Description = Type.Optional(PrintableString({ maxLength: 1024 }));
const CreateBody = StrictObject({ ...BaselineCreateSchema.properties, description: Description });
const UpdateBody = Type.Object({ ...BaselineUpdateSchema.properties, description: Description }, { additionalProperties: false, minProperties: 1 });
const ListQuery = Type.Object({ ...ListQueryProperties, os_family: Type.Optional(OsFamilySchema) }, { additionalProperties: false });

function authorOf(request: FastifyRequest): string {
  return request.principal?.username ?? 'unknown';
}

/** Baselines and which one applies to a machine (docs/baselines.md). */
export function baselineRoutes(baselines: BaselinesFacade): FastifyPluginAsync {
  return async (app) => {
    // Static paths first: /baselines/assigned is not a baseline id.
    app.get<{ Querystring: AssignedQuery }>(
      '/baselines/assigned',
      {
        // Operator: the answer holds the rendered scripts, whose variables may carry secrets (keys, join tokens).
        config: { access: 'operator' },
        schema: {
          tags: ['baselines'],
          summary: 'Which baseline applies to a machine (exactly one of mac or host_id; task_id adds the task rule), the rule that matched, and its scripts rendered',
          querystring: AssignedQuerySchema,
          response: { 200: Ok(AssignedBaselineSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await baselines.assigned(request.query) }),
    );

    app.get<{ Querystring: Static<typeof ListQuery> }>(
      '/baselines',
      {
        config: { access: 'viewer' },
        schema: { tags: ['baselines'], summary: 'List baselines (q matches name, description, groups, tags and script names)', querystring: ListQuery, response: { 200: OkList(BaselineSchema) } },
      },
      async (request) => ({ success: true as const, ...baselines.page(request.query) }),
    );

    app.post<{ Body: Static<typeof CreateBody> }>(
      '/baselines',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['baselines'],
          summary: 'Create a baseline (409 for a taken name, a target another baseline has, or a second default)',
          body: CreateBody,
          response: { 201: Ok(BaselineSchema) },
        },
      },
      async (request, reply) => reply.code(201).send({ success: true as const, data: await baselines.create(request.body, authorOf(request)) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/baselines/:id',
      { config: { access: 'viewer' }, schema: { tags: ['baselines'], summary: 'Get a baseline', params: IdParams, response: { 200: Ok(BaselineSchema) } } },
      async (request) => {
        const baseline = baselines.get(request.params.id);
        if (!baseline) throw notFound('baseline', request.params.id);
        return { success: true as const, data: baseline };
      },
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateBody> }>(
      '/baselines/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['baselines'],
          summary: 'Update a baseline (the fields sent; assign replaces the lists it names)',
          params: IdParams,
          body: UpdateBody,
          response: { 200: Ok(BaselineSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await baselines.update(request.params.id, request.body, authorOf(request)) }),
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/baselines/:id',
      { config: { access: 'operator' }, schema: { tags: ['baselines'], summary: 'Delete a baseline', params: IdParams, response: { 200: Ok(BaselineSchema) } } },
      async (request) => ({ success: true as const, data: await baselines.remove(request.params.id, authorOf(request)) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/baselines/:id/scripts',
      {
        config: { access: 'viewer' },
        schema: { tags: ['baselines'], summary: 'The ordered scripts of a baseline', params: IdParams, response: { 200: Ok(Type.Array(BaselineScriptViewSchema)) } },
      },
      async (request) => ({ success: true as const, data: baselines.scriptsOf(request.params.id) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof BaselineScriptsPutSchema> }>(
      '/baselines/:id/scripts',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['baselines'],
          summary: 'Replace the ordered scripts of a baseline (each script must exist and fit its os_family; overrides only of declared variables)',
          params: IdParams,
          body: BaselineScriptsPutSchema,
          response: { 200: Ok(Type.Array(BaselineScriptViewSchema)) },
        },
      },
      async (request) => ({ success: true as const, data: await baselines.setScripts(request.params.id, request.body.scripts, authorOf(request)) }),
    );
  };
}
