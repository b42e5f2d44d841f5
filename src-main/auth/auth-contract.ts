import { Type, type Static } from 'typebox';
import { ROLES, StrictObject, Timestamp, literalUnion } from '../core/http-kit/common-contract.js';

/*
 * The auth API's contract (/api/v1/auth/*, /users, /tokens): schemas and
 * limits, typebox and other contracts only (the renderer imports it:
 * @contracts/auth). The token name's printable-text rule is added in the routes.
 */

/** Minimum and maximum password length (characters); the maximum bounds hashing work per request. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
export const USERNAME_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
export const TOKEN_NAME_MAX_LENGTH = 64;

export { ROLES, type Role } from '../core/http-kit/common-contract.js';

export const RoleSchema = literalUnion(ROLES, {
  description: 'viewer (read-only) < operator (everything but users, tokens, security) < admin',
});

export const UserRefSchema = Type.Object({
  id: Type.Union([Type.Integer(), Type.Null()], { description: 'null for API tokens and the desktop (IPC) user' }),
  username: Type.String(),
  role: RoleSchema,
});

export const LoginBody = StrictObject({
  username: Type.String({ minLength: 1, maxLength: 256 }),
  password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
});

export const LoginResult = Type.Object({
  user: UserRefSchema,
  expires_at: Type.String({ format: 'date-time', description: 'When the session ends if unused (idle limit, capped by the absolute limit)' }),
});

export const AUTH_VIAS = ['session', 'token', 'local'] as const;

export const SessionResult = Type.Object({
  authenticated: Type.Literal(true),
  user: UserRefSchema,
  role: RoleSchema,
  expires_at: Type.Union([Timestamp, Type.Null()], { description: 'Session idle/absolute end, token expiry, or null' }),
  via: literalUnion(AUTH_VIAS),
});

/**
 * GET /auth/session without a valid session or token: a 200 saying so, not a
 * 401 — asking "am I logged in?" is not a failed request (browsers log every
 * 4xx to the console, so the login page would start with an error).
 */
export const NoSessionResult = Type.Object({
  authenticated: Type.Literal(false),
  reason: Type.String({ description: 'e.g. "no valid session or API token: log in (POST /api/v1/auth/login)"' }),
});

export const SessionCheckResult = Type.Union([SessionResult, NoSessionResult]);

export const LogoutResult = Type.Object({ session_revoked: Type.Boolean({ description: 'false for API tokens and the desktop user, which have no session' }) });

export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    role: RoleSchema,
    disabled: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
    password_changed_at: Timestamp,
    last_login_at: Type.Union([Timestamp, Type.Null()], { description: 'The last successful password login; null until one' }),
  },
  { $id: 'User' },
);

const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });

export const CreateUserBody = StrictObject({
  username: Type.String({ pattern: USERNAME_PATTERN, description: '1-64 characters A-Z a-z 0-9 . _ -; unique, case-insensitive' }),
  password: Password,
  role: RoleSchema,
});

export const UpdateUserBody = Type.Object(
  { role: Type.Optional(RoleSchema), disabled: Type.Optional(Type.Boolean()), password: Type.Optional(Password) },
  { additionalProperties: false, minProperties: 1 },
);

export const ChangePasswordBody = StrictObject({
  current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  new_password: Password,
});

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

export const CreatedTokenSchema = Type.Object({
  ...tokenProperties,
  token: Type.String({ description: 'The secret, shown only in this response; send it as Authorization: Bearer <token>' }),
});

/** The token fields but the name (whose printable-text rule the routes add). */
export const CreateTokenFields = {
  role: RoleSchema,
  expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Must be in the future; null or absent: never' })),
};

export type UserRefData = Static<typeof UserRefSchema>;
export type LoginRequest = Static<typeof LoginBody>;
export type LoginResultData = Static<typeof LoginResult>;
export type SessionData = Static<typeof SessionResult>;
export type SessionCheckData = Static<typeof SessionCheckResult>;
export type LogoutResultData = Static<typeof LogoutResult>;
export type UserData = Static<typeof UserSchema>;
export type CreateUserRequest = Static<typeof CreateUserBody>;
export type UpdateUserRequest = Static<typeof UpdateUserBody>;
export type ChangePasswordRequest = Static<typeof ChangePasswordBody>;
export type ApiTokenData = Static<typeof ApiTokenSchema>;
export type CreatedTokenData = Static<typeof CreatedTokenSchema>;
const CreateTokenShape = Type.Object({ name: Type.String(), ...CreateTokenFields });
export type CreateTokenRequest = Static<typeof CreateTokenShape>;
export type AuthVia = (typeof AUTH_VIAS)[number];
