import type { FastifyRequest } from 'fastify';
import type { Authenticator, Principal, Role } from '../../../src-main/core/http-kit/access.js';

/** Header the stub reads: `<role>` or `<role>:<username>`; absent → viewer "vera". */
export const TEST_AUTH_HEADER = 'x-test-principal';

/**
 * Stands in for the real authentication (which lands separately): every HTTP
 * request gets a fixed principal, chosen per request by a test header.
 */
export const stubAuthenticator: Authenticator = {
  async authenticate(request: FastifyRequest): Promise<Principal | null> {
    const header = request.headers[TEST_AUTH_HEADER];
    if (header === 'none') return null;
    const [role = 'viewer', username = defaultName(role)] = typeof header === 'string' ? header.split(':') : [];
    return { kind: 'user', user_id: 1, username, role: role as Role };
  },
};

function defaultName(role: string): string {
  return role === 'admin' ? 'ada' : role === 'operator' ? 'olivia' : 'vera';
}

export function as(principal: string): Record<string, string> {
  return { [TEST_AUTH_HEADER]: principal };
}
