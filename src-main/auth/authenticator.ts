import type { FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../core/http-kit/access.js';
import { assertSameOrigin } from './csrf.js';
import { sessionCookieValue } from './session-cookie.js';
import type { SessionStore } from './session-store.js';
import type { TokenStore } from './token-store.js';
import type { UserDirectory } from './user-directory.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function tokenPrincipalName(tokenName: string): string {
  return `token:${tokenName}`;
}

/**
 * Resolves a request's principal: an `Authorization` header, when present,
 * is the only credential looked at (a bearer token, RFC 6750 §2.1);
 * otherwise the session cookie. Invalid or expired credentials give null, so
 * protected routes answer 401. Cookie-authenticated unsafe requests must be
 * same-origin (CSRF); bearer tokens are exempt, as a cross-site page cannot set them.
 */
export class SessionAndTokenAuthenticator implements Authenticator {
  constructor(
    private readonly users: UserDirectory,
    private readonly sessions: SessionStore,
    private readonly tokens: TokenStore,
  ) {}

  async authenticate(request: FastifyRequest): Promise<Principal | null> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) return this.fromBearer(authorization);
    const secret = sessionCookieValue(request);
    if (secret === undefined) return null;
    const session = await this.sessions.resolve(secret);
    if (!session) return null;
    const user = this.users.row(session.user_id);
    if (!user || user.disabled) return null;
    assertSameOrigin(request);
    return { kind: 'user', user_id: user.id, username: user.username, role: user.role, session_id: String(session.id) };
  }

  private async fromBearer(header: string): Promise<Principal | null> {
    const match = BEARER.exec(header);
    if (!match?.[1]) return null;
    const token = await this.tokens.resolve(match[1]);
    if (!token) return null;
    return { kind: 'token', user_id: null, username: tokenPrincipalName(token.name), role: token.role, token_id: token.id };
  }
}
