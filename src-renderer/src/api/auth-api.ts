import type { LoginResultData, SessionData } from '@contracts/auth';
import { isApiError } from './api-error.js';
import type { ApiClient } from './api-client.js';
import { authClient } from './clients/auth-client.js';

export type { Role } from '@contracts/auth';
/** GET /auth/session: who is calling and how. */
export type SessionInfo = SessionData;
export type LoginResult = LoginResultData;

/** The current session, or null when not logged in (`authenticated: false`; older servers answered 401). */
export async function fetchSession(client: ApiClient): Promise<SessionInfo | null> {
  try {
    const session = await authClient(client).session();
    return session.authenticated ? session : null;
  } catch (err) {
    if (isApiError(err) && err.status === 401) return null;
    throw err;
  }
}

export function login(client: ApiClient, username: string, password: string): Promise<LoginResult> {
  return authClient(client).login({ username, password });
}

export function logout(client: ApiClient): Promise<{ session_revoked: boolean }> {
  return authClient(client).logout();
}
