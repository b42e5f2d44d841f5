import type { AreaModule } from '../core/area.js';
import { authRoutes } from './auth-routes.js';
import { AuthService, type AuthServiceOptions } from './auth-service.js';
import { tokenRoutes } from './tokens-routes.js';
import { userRoutes } from './users-routes.js';

export { AuthService, INVALID_CREDENTIALS, type AuthServiceOptions, type SessionInfo, type UserRef, type AuthVia } from './auth-service.js';
export { SessionAndTokenAuthenticator, tokenPrincipalName } from './authenticator.js';
export { assertSameOrigin, crossOriginReason } from './csrf.js';
export { HostAllowlist, createHostGuard, normalizeHost } from './host-guard.js';
export { ensureInitialAdmin, INITIAL_ADMIN_PASSWORD_FILE, INITIAL_ADMIN_USERNAME } from './initial-admin.js';
export { LoginLimits, type LoginAttempt, type LoginLimitsOptions } from './login-limits.js';
export { LoginThrottle } from './login-throttle.js';
export { PasswordHasher, type HashCaller, type PasswordHasherOptions } from './password-hasher.js';
export { RefusalDelay, type RefusalDelayOptions } from './refusal-delay.js';
export { hashPassword, verifyPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-hash.js';
export { SESSION_COOKIE, clearSessionCookie, setSessionCookie } from './session-cookie.js';
export { SessionStore, DEFAULT_SESSION_LIMITS, type SessionLimits, type SessionRow } from './session-store.js';
export { TokenStore, TOKEN_PREFIX, type PublicToken, type TokenRow } from './token-store.js';
export { UserDirectory, USERNAME_PATTERN, type PublicUser, type UserRow } from './user-directory.js';
export * from './auth-contract.js';
export { authRoutes } from './auth-routes.js';
export { userRoutes } from './users-routes.js';
export { tokenRoutes } from './tokens-routes.js';

/** Options of the auth area the core passes through from its own. */
export interface AuthAreaOptions extends Pick<AuthServiceOptions, 'throttle' | 'hasher' | 'refusalDelay'> {
  /** Host names the DNS-rebinding guard accepts beyond the machine's own names and addresses. */
  allowedHosts?: readonly string[];
}

/**
 * The auth area (docs/auth.md): the facade is the AuthService (users,
 * sessions, tokens, login limits); it contributes the API's authenticator
 * and the Host guard, whose allowed names include general.allowed_hosts.
 * Routes: /auth/*, /users, /tokens.
 */
export function authArea(options: AuthAreaOptions = {}): AreaModule<'auth', AuthService, Record<string, never>> {
  return {
    name: 'auth',
    needs: [],
    async create(kernel) {
      const { allowedHosts, ...limits } = options;
      const auth = await AuthService.create({
        store: kernel.store,
        events: kernel.events,
        log: kernel.log,
        config: kernel.config,
        ...limits,
        ...(allowedHosts ? { extraHosts: allowedHosts } : {}),
      });
      // general.allowed_hosts feeds the Host guard; IPv6 literals go in brackets, as in a Host header.
      auth.hosts.addSource(() => kernel.settings.general().allowed_hosts.map((host) => (host.includes(':') ? `[${host}]` : host)));
      kernel.settings.onChange('general', () => auth.hosts.invalidate());
      kernel.network.onChange(() => auth.hosts.invalidate());
      // Every address the network area knows of, served or not and whatever its link state, and the configured
      // server-address overrides: node's own interface list leaves out interfaces without a carrier.
      auth.hosts.addSource(() =>
        [...kernel.network.list().flatMap((nic) => nic.addresses.map((entry) => entry.address)), ...kernel.network.resolvedAddresses().map((entry) => entry.address)].map(
          (address) => (address.includes(':') ? `[${address.split('%')[0]}]` : address),
        ),
      );
      return {
        facade: auth,
        routes: [authRoutes(auth), userRoutes(auth), tokenRoutes(auth)],
        authenticator: auth.authenticator,
        guards: auth.guards,
        services: [],
      };
    },
  };
}
