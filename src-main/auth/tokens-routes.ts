import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { IdParams, ListQuery, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import { ApiTokenSchema, CreatedTokenSchema, CreateTokenFields, TOKEN_NAME_MAX_LENGTH } from './auth-contract.js';
import type { AuthService } from './auth-service.js';

const CreateTokenBody = StrictObject({
  name: PrintableString({ minLength: 1, maxLength: TOKEN_NAME_MAX_LENGTH, description: 'Unique label, case-insensitive; printable text' }),
  ...CreateTokenFields,
});

/** API tokens (admin): create (secret shown once), list, revoke (docs/auth.md). */
export const tokenRoutes = (auth: AuthService): FastifyPluginAsync => async (app) => {
  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/tokens',
    {
      config: { access: 'admin' },
      schema: { tags: ['tokens'], summary: 'List API tokens (never their secrets)', querystring: ListQuery, response: { 200: OkList(ApiTokenSchema) } },
    },
    async (request) => ({ success: true as const, ...auth.tokens.list(request.query) }),
  );

  app.post<{ Body: Static<typeof CreateTokenBody> }>(
    '/tokens',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['tokens'],
        summary: 'Create an API token; the response carries the secret once',
        body: CreateTokenBody,
        response: { 201: Ok(CreatedTokenSchema) },
      },
    },
    async (request, reply) => {
      const { token, secret } = await auth.tokens.create(request.body, request.principal?.username ?? null);
      return reply.code(201).send({ success: true as const, data: { ...token, token: secret } });
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/tokens/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['tokens'], summary: 'Revoke an API token; returns it', params: IdParams, response: { 200: Ok(ApiTokenSchema) } },
    },
    async (request) => ({ success: true as const, data: await auth.tokens.revoke(request.params.id) }),
  );
};
