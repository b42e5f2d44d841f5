import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'bootwright_session';

/**
 * HttpOnly (no script access), SameSite=Strict (never sent on cross-site
 * requests, RFC 6265bis §5.4.7), Path=/, Secure when the server speaks TLS.
 */
function cookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'strict' as const, path: '/', secure };
}

/**
 * `maxAgeSeconds` is the session's absolute lifetime: the browser may keep
 * the cookie that long, while the server also enforces the idle limit.
 */
export function setSessionCookie(reply: FastifyReply, secret: string, options: { maxAgeSeconds: number; secure: boolean }): void {
  reply.setCookie(SESSION_COOKIE, secret, { ...cookieOptions(options.secure), maxAge: Math.max(0, Math.floor(options.maxAgeSeconds)) });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(secure));
}

export function sessionCookieValue(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}
