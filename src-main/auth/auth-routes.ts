import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { AppError } from '../core/errors.js';
import { Ok } from '../core/http-kit/schemas.js';
import { LoginBody, LoginResult, LogoutResult, SessionCheckResult } from './auth-contract.js';
import type { AuthService } from './auth-service.js';
import { assertSameOrigin } from './csrf.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

/** Login, logout and the current session (docs/auth.md). */
export const authRoutes = (auth: AuthService): FastifyPluginAsync => async (app) => {
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
      const result = await auth.login({
        username: request.body.username,
        password: request.body.password,
        ip: request.ip,
        userAgent: typeof userAgent === 'string' ? userAgent : null,
      });
      setSessionCookie(reply, result.secret, { maxAgeSeconds: result.maxAgeSeconds, secure: auth.secureCookies });
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
      const revoked = await auth.logout(principal, request.ip);
      if (principal.kind === 'user') clearSessionCookie(reply, auth.secureCookies);
      return { success: true as const, data: { session_revoked: revoked } };
    },
  );

  app.get(
    '/auth/session',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Who is calling: user, role, expiry and how authenticated; {"authenticated": false, "reason": …} without a valid session or token',
        response: { 200: Ok(SessionCheckResult) },
      },
    },
    async (request) => {
      if (!request.principal) return { success: true as const, data: { authenticated: false as const, reason: 'no valid session or API token: log in (POST /api/v1/auth/login)' } };
      return { success: true as const, data: auth.describe(request.principal) };
    },
  );
};
