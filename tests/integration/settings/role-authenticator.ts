import type { Authenticator, Principal, Role } from '../../../src-main/core/http-kit/access.js';

/** Header the stub authenticator reads; real session and token authentication have their own tests. */
export const ROLE_HEADER = 'x-test-role';

/** Authenticates any request that names a role in `x-test-role` as a token user with that role; others are anonymous. */
export const roleAuthenticator: Authenticator = {
  async authenticate(request) {
    const role = request.headers[ROLE_HEADER];
    if (role !== 'viewer' && role !== 'operator' && role !== 'admin') return null;
    const principal: Principal = { kind: 'token', user_id: 1, username: `test-${role}`, role: role as Role, token_id: 1 };
    return principal;
  },
};

export function as(role: Role): Record<string, string> {
  return { [ROLE_HEADER]: role };
}
