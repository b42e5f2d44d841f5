import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { AppError } from '../core/errors.js';
import { IdParams, ListQuery, Ok, OkList } from '../core/http-kit/schemas.js';
import { ChangePasswordBody, CreateUserBody, UpdateUserBody, UserSchema } from './auth-contract.js';
import type { AuthService } from './auth-service.js';

/** User management (admin) and the caller's own password change (docs/auth.md). */
export const userRoutes = (auth: AuthService): FastifyPluginAsync => async (app) => {
  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/users',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], summary: 'List users (q matches username and role)', querystring: ListQuery, response: { 200: OkList(UserSchema) } },
    },
    async (request) => ({ success: true as const, ...auth.users.list(request.query) }),
  );

  app.post<{ Body: Static<typeof CreateUserBody> }>(
    '/users',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], summary: 'Create a user', body: CreateUserBody, response: { 201: Ok(UserSchema) } },
    },
    async (request, reply) => reply.code(201).send({ success: true as const, data: await auth.users.create(request.body) }),
  );

  app.put<{ Body: Static<typeof ChangePasswordBody> }>(
    '/users/me/password',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['users'],
        summary: 'Change your own password; your other sessions end',
        body: ChangePasswordBody,
        response: { 200: Ok(UserSchema) },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (principal?.kind !== 'user' || principal.user_id === null) {
        const who = principal?.kind === 'token' ? 'an API token' : 'the desktop (IPC) user';
        throw new AppError('BAD_REQUEST', `${who} has no password to change; log in as a user to change that user's password`);
      }
      const keep = principal.session_id === undefined ? undefined : Number(principal.session_id);
      const user = await auth.users.changeOwnPassword(principal.user_id, request.body.current_password, request.body.new_password, keep);
      return { success: true as const, data: user };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], summary: 'Get a user', params: IdParams, response: { 200: Ok(UserSchema) } },
    },
    async (request) => ({ success: true as const, data: auth.users.get(request.params.id) }),
  );

  app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateUserBody> }>(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Change role, disabled flag or password (409 for the last enabled admin); disabling or a new password ends the user\'s sessions (not the caller\'s own)',
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: Ok(UserSchema) },
      },
    },
    async (request) => {
      const principal = request.principal;
      // An admin setting their own password keeps the session they did it from.
      const keep = principal?.user_id === request.params.id && principal.session_id !== undefined ? Number(principal.session_id) : undefined;
      return { success: true as const, data: await auth.users.update(request.params.id, request.body, keep) };
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Delete a user and end its sessions (409 for the last enabled admin); returns the deleted user',
        params: IdParams,
        response: { 200: Ok(UserSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await auth.users.remove(request.params.id) }),
  );
};
