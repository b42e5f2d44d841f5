import { Type, type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/password-hash.js';
import { USERNAME_PATTERN } from '../../auth/user-directory.js';
import { AppError } from '../../core/errors.js';
import { IdParams, ListQuery, Ok, OkList, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import { RoleSchema } from './auth.js';
import type { RoutePluginFactory } from './index.js';

export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    role: RoleSchema,
    disabled: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
    password_changed_at: Timestamp,
  },
  { $id: 'User' },
);

const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });

const CreateUserBody = StrictObject({
  username: Type.String({ pattern: USERNAME_PATTERN, description: '1-64 characters A-Z a-z 0-9 . _ -; unique, case-insensitive' }),
  password: Password,
  role: RoleSchema,
});

const UpdateUserBody = Type.Object(
  { role: Type.Optional(RoleSchema), disabled: Type.Optional(Type.Boolean()), password: Type.Optional(Password) },
  { additionalProperties: false, minProperties: 1 },
);

const ChangePasswordBody = StrictObject({
  current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  new_password: Password,
});

/** User management (admin) and the caller's own password change (docs/auth.md). */
export const userRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/users',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], summary: 'List users (q matches username and role)', querystring: ListQuery, response: { 200: OkList(UserSchema) } },
    },
    async (request) => ({ success: true as const, ...ctx.auth.users.list(request.query) }),
  );

  app.post<{ Body: Static<typeof CreateUserBody> }>(
    '/users',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], summary: 'Create a user', body: CreateUserBody, response: { 201: Ok(UserSchema) } },
    },
    async (request, reply) => reply.code(201).send({ success: true as const, data: await ctx.auth.users.create(request.body) }),
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
      const user = await ctx.auth.users.changeOwnPassword(principal.user_id, request.body.current_password, request.body.new_password, keep);
      return { success: true as const, data: user };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], summary: 'Get a user', params: IdParams, response: { 200: Ok(UserSchema) } },
    },
    async (request) => ({ success: true as const, data: ctx.auth.users.get(request.params.id) }),
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
      return { success: true as const, data: await ctx.auth.users.update(request.params.id, request.body, keep) };
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
    async (request) => ({ success: true as const, data: await ctx.auth.users.remove(request.params.id) }),
  );
};
