import { Type, type Static } from 'typebox';
import { TOKEN_NAME_MAX_LENGTH } from '../../auth/token-store.js';
import { IdParams, ListQuery, Ok, OkList, PrintableString, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import { RoleSchema } from './auth.js';
import type { RoutePluginFactory } from './index.js';

const tokenProperties = {
  id: Type.Integer(),
  name: Type.String(),
  role: RoleSchema,
  hint: Type.String({ description: 'The first characters of the token, to recognise it' }),
  expires_at: Type.Union([Timestamp, Type.Null()]),
  last_used_at: Type.Union([Timestamp, Type.Null()], { description: 'Updated at most once a minute' }),
  created_by: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const ApiTokenSchema = Type.Object(tokenProperties, { $id: 'ApiToken' });

const CreatedTokenSchema = Type.Object({
  ...tokenProperties,
  token: Type.String({ description: 'The secret, shown only in this response; send it as Authorization: Bearer <token>' }),
});

const CreateTokenBody = StrictObject({
  name: PrintableString({ minLength: 1, maxLength: TOKEN_NAME_MAX_LENGTH, description: 'Unique label, case-insensitive; printable text' }),
  role: RoleSchema,
  expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Must be in the future; null or absent: never' })),
});

/** API tokens (admin): create (secret shown once), list, revoke (docs/auth.md). */
export const tokenRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/tokens',
    {
      config: { access: 'admin' },
      schema: { tags: ['tokens'], summary: 'List API tokens (never their secrets)', querystring: ListQuery, response: { 200: OkList(ApiTokenSchema) } },
    },
    async (request) => ({ success: true as const, ...ctx.auth.tokens.list(request.query) }),
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
      const { token, secret } = await ctx.auth.tokens.create(request.body, request.principal?.username ?? null);
      return reply.code(201).send({ success: true as const, data: { ...token, token: secret } });
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/tokens/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['tokens'], summary: 'Revoke an API token; returns it', params: IdParams, response: { 200: Ok(ApiTokenSchema) } },
    },
    async (request) => ({ success: true as const, data: await ctx.auth.tokens.revoke(request.params.id) }),
  );
};
