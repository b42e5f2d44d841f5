import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../../core/http-kit/schemas.js';
import {
  ANSWER_KINDS,
  AnswerPresetSchema,
  AnswerTemplateSchema,
  AnswerTemplateVersionSchema,
  AnswerTemplateWriteSchema,
  PreviewBodySchema,
  PreviewSchema,
  ValidateBodySchema,
  ValidationResultSchema,
} from '../netboot-contract.js';
import type { AnswerTemplateService } from './answer-template-service.js';
import type { AnswerChangeNote } from './answer-template-types.js';

/** The contract's write fields with the printable-text rule of the ground layer (the contract imports only typebox). */
const PrintableFields = {
  name: Type.Optional(PrintableString({ minLength: 1, maxLength: 64 })),
  description: Type.Optional(PrintableString({ maxLength: 1024 })),
  comment: Type.Optional(PrintableString({ maxLength: 500, description: 'Stored with the new version when the content changes' })),
};
const WriteBody = Type.Object({ ...AnswerTemplateWriteSchema.properties, ...PrintableFields }, { additionalProperties: false, minProperties: 1 });
type WriteBodyType = Static<typeof WriteBody>;

const TemplateListQuery = Type.Object(
  { ...ListQueryProperties, kind: Type.Optional(Type.Enum([...ANSWER_KINDS], { description: 'Only templates of this kind' })) },
  { additionalProperties: false },
);
const VersionListQuery = Type.Object(ListQueryProperties, { additionalProperties: false });
const VersionParams = StrictObject({
  id: Type.Integer({ minimum: 1 }),
  version: Type.Integer({ minimum: 1, description: 'The version number (1, 2, 3…)' }),
});
const RollbackBody = StrictObject({ comment: Type.Optional(PrintableString({ maxLength: 500 })) });

/** What the routes call: the answer templates as far as the API uses them. */
export type AnswerRouteOperations = Pick<
  AnswerTemplateService,
  'list' | 'create' | 'require' | 'update' | 'remove' | 'presets' | 'validate' | 'validateStored' | 'listVersions' | 'getVersion' | 'preview' | 'rollback'
>;

function authorOf(request: FastifyRequest): string {
  return request.principal?.username ?? 'unknown';
}

function split(request: FastifyRequest, body: WriteBodyType): { input: Omit<WriteBodyType, 'comment'>; note: AnswerChangeNote } {
  const { comment, ...input } = body;
  return { input, note: { author: authorOf(request), ...(comment !== undefined ? { comment } : {}) } };
}

const tags = ['netboot'];

/**
 * The answer-template endpoints (docs/netboot.md, "Answer templates"). The
 * static paths (presets, validate) sit beside /{id}: the router prefers a
 * static segment, and ids are integers. Viewers read; every POST is an
 * operator's (the API's rule for mutating methods, kept by the auth matrix
 * test, even for validate and preview, which change nothing).
 */
export function answerRoutes(answers: AnswerRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof TemplateListQuery> }>(
      '/netboot/answer-templates',
      {
        config: { access: 'viewer' },
        schema: { tags, summary: 'List answer templates (q matches name, description, kind, preset)', querystring: TemplateListQuery, response: { 200: OkList(AnswerTemplateSchema) } },
      },
      async (request) => ({ success: true as const, ...answers.list(request.query) }),
    );

    app.post<{ Body: WriteBodyType }>(
      '/netboot/answer-templates',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Create an answer template (from a preset, or kind + content); secrets are stored encrypted and never returned',
          body: WriteBody,
          response: { 201: Ok(AnswerTemplateSchema) },
        },
      },
      async (request, reply) => {
        const { input, note } = split(request, request.body);
        return reply.code(201).send({ success: true as const, data: await answers.create(input, note) });
      },
    );

    app.get(
      '/netboot/answer-templates/presets',
      { config: { access: 'viewer' }, schema: { tags, summary: 'Built-in presets, one per answer-file kind, with their variables', response: { 200: Ok(Type.Array(AnswerPresetSchema)) } } },
      async () => ({ success: true as const, data: [...answers.presets()] }),
    );

    app.post<{ Body: Static<typeof ValidateBodySchema> }>(
      '/netboot/answer-templates/validate',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Validate an unsaved template: Liquid syntax, then the output rendered with sample data checked for its kind (issues with lines)',
          body: ValidateBodySchema,
          response: { 200: Ok(ValidationResultSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await answers.validate(request.body) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/netboot/answer-templates/:id',
      { config: { access: 'viewer' }, schema: { tags, summary: 'Get an answer template', params: IdParams, response: { 200: Ok(AnswerTemplateSchema) } } },
      async (request) => ({ success: true as const, data: answers.require(request.params.id) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: WriteBodyType }>(
      '/netboot/answer-templates/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags,
          summary: 'Update an answer template (the fields sent); changed content becomes a new version; a null secret removes it',
          params: IdParams,
          body: WriteBody,
          response: { 200: Ok(AnswerTemplateSchema) },
        },
      },
      async (request) => {
        const { input, note } = split(request, request.body);
        return { success: true as const, data: await answers.update(request.params.id, input, note) };
      },
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/netboot/answer-templates/:id',
      {
        config: { access: 'operator' },
        schema: { tags, summary: 'Delete an answer template and its versions (409 while an active install task uses it)', params: IdParams, response: { 200: Ok(AnswerTemplateSchema) } },
      },
      async (request) => ({ success: true as const, data: await answers.remove(request.params.id) }),
    );

    app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof VersionListQuery> }>(
      '/netboot/answer-templates/:id/versions',
      {
        config: { access: 'viewer' },
        schema: {
          tags,
          summary: 'List the versions of a template, newest first (q matches author, comment, content)',
          params: IdParams,
          querystring: VersionListQuery,
          response: { 200: OkList(AnswerTemplateVersionSchema) },
        },
      },
      async (request) => ({ success: true as const, ...answers.listVersions(request.params.id, request.query) }),
    );

    app.get<{ Params: Static<typeof VersionParams> }>(
      '/netboot/answer-templates/:id/versions/:version',
      {
        config: { access: 'viewer' },
        schema: { tags, summary: 'Get one version by number, with the unified diff to the current content', params: VersionParams, response: { 200: Ok(AnswerTemplateVersionSchema) } },
      },
      async (request) => ({ success: true as const, data: answers.getVersion(request.params.id, request.params.version) }),
    );

    app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof PreviewBodySchema> }>(
      '/netboot/answer-templates/:id/preview',
      {
        config: { access: 'operator' },
        // No body is the same as {}: a preview for a sample machine.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary: 'Render a template for a host, MAC or install task (secrets masked) and validate the output',
          params: IdParams,
          body: PreviewBodySchema,
          response: { 200: Ok(PreviewSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await answers.preview(request.params.id, request.body) }),
    );

    app.post<{ Params: Static<typeof VersionParams>; Body: Static<typeof RollbackBody> }>(
      '/netboot/answer-templates/:id/rollback/:version',
      {
        config: { access: 'operator' },
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary: 'Make a version\'s content current again as a new version (nothing changes when it already is current)',
          params: VersionParams,
          body: RollbackBody,
          response: { 200: Ok(AnswerTemplateSchema) },
        },
      },
      async (request) => {
        const note: AnswerChangeNote = { author: authorOf(request), ...(request.body.comment !== undefined ? { comment: request.body.comment } : {}) };
        return { success: true as const, data: await answers.rollback(request.params.id, request.params.version, note) };
      },
    );

    app.post<{ Params: Static<typeof IdParams> }>(
      '/netboot/answer-templates/:id/validate',
      {
        config: { access: 'operator' },
        schema: { tags, summary: 'Validate a stored template (syntax and its rendered output with sample data)', params: IdParams, response: { 200: Ok(ValidationResultSchema) } },
      },
      async (request) => ({ success: true as const, data: await answers.validateStored(request.params.id) }),
    );
  };
}
