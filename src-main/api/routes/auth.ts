import { Type, type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH } from '../../auth/password-hash.js';
import { assertSameOrigin } from '../../auth/csrf.js';
import { clearSessionCookie, setSessionCookie } from '../../auth/session-cookie.js';
import { AppError } from '../../core/errors.js';
import { ROLES } from '../../core/http-kit/access.js';
import { Ok, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

export const RoleSchema = Type.Union(ROLES.map((role) => Type.Literal(role)), {
  description: 'viewer (read-only) < operator (everything but users, tokens, security) < admin',
});

const UserRefSchema = Type.Object({
  id: Type.Union([Type.Integer(), Type.Null()], { description: 'null for API tokens and the desktop (IPC) user' }),
  username: Type.String(),
  role: RoleSchema,
});

const LoginBody = StrictObject({
  username: Type.String({ minLength: 1, maxLength: 256 }),
  password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
});

const LoginResult = Type.Object({
  user: UserRefSchema,
  expires_at: Type.String({ format: 'date-time', description: 'When the session ends if unused (idle limit, capped by the absolute limit)' }),
});

const SessionResult = Type.Object({
  user: UserRefSchema,
  role: RoleSchema,
  expires_at: Type.Union([Timestamp, Type.Null()], { description: 'Session idle/absolute end, token expiry, or null' }),
  via: Type.Union([Type.Literal('session'), Type.Literal('token'), Type.Literal('local')]),
});

const LogoutResult = Type.Object({ session_revoked: Type.Boolean({ description: 'false for API tokens and the desktop user, which have no session' }) });

/** Login, logout and the current session (docs/auth.md). */
export const authRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.post<{ Body: Static<typeof LoginBody> }>(
    '/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Log in with username and password; sets the bootwright_session cookie',
        body: LoginBody,
        response: { 200: Ok(LoginResult) },
      },
    },
    async (request, reply) => {
      // A cross-site page must not log the browser into another account either (login CSRF).
      assertSameOrigin(request);
      const userAgent = request.headers['user-agent'];
      const result = await ctx.auth.login({
        username: request.body.username,
        password: request.body.password,
        ip: request.ip,
        userAgent: typeof userAgent === 'string' ? userAgent : null,
      });
      setSessionCookie(reply, result.secret, { maxAgeSeconds: result.maxAgeSeconds, secure: ctx.auth.secureCookies });
      // The audit hook records who acted; from now on that is the user who just logged in.
      request.principal = result.principal;
      return { success: true as const, data: { user: result.user, expires_at: result.expires_at } };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'viewer' },
      schema: { tags: ['auth'], summary: 'End the current session and clear its cookie', response: { 200: Ok(LogoutResult) } },
    },
    async (request, reply) => {
      const principal = request.principal;
      if (!principal) throw new AppError('UNAUTHENTICATED', 'not logged in');
      const revoked = await ctx.auth.logout(principal, request.ip);
      if (principal.kind === 'user') clearSessionCookie(reply, ctx.auth.secureCookies);
      return { success: true as const, data: { session_revoked: revoked } };
    },
  );

  app.get(
    '/auth/session',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Who is calling: user, role, expiry and how authenticated (401 without a valid session or token)',
        response: { 200: Ok(SessionResult) },
      },
    },
    async (request) => {
      if (!request.principal) throw new AppError('UNAUTHENTICATED', 'no valid session or API token: log in (POST /api/v1/auth/login)');
      return { success: true as const, data: ctx.auth.describe(request.principal) };
    },
  );
};
