import { isApiError } from './api-error.js';
import type { ApiClient } from './api-client.js';
import type { Role } from './models/auth.js';

export type { Role };

export interface SessionUser {
  id: number | null;
  username: string;
  role: Role;
}

/** GET /auth/session: who is calling and how. */
export interface SessionInfo {
  user: SessionUser;
  role: Role;
  expires_at: string | null;
  via: 'session' | 'token' | 'local';
}

export interface LoginResult {
  user: SessionUser;
  expires_at: string;
}

/** The current session, or null when not logged in (the API answers 401). */
export async function fetchSession(client: ApiClient): Promise<SessionInfo | null> {
  try {
    return await client.get<SessionInfo>('/auth/session');
  } catch (err) {
    if (isApiError(err) && err.status === 401) return null;
    throw err;
  }
}

export function login(client: ApiClient, username: string, password: string): Promise<LoginResult> {
  return client.post<LoginResult>('/auth/login', { username, password });
}

export function logout(client: ApiClient): Promise<{ session_revoked: boolean }> {
  return client.post<{ session_revoked: boolean }>('/auth/logout');
}

/** PUT /users/me/password: the caller's own password; their other sessions end. */
export function changeOwnPassword(client: ApiClient, currentPassword: string, newPassword: string): Promise<unknown> {
  return client.put('/users/me/password', { current_password: currentPassword, new_password: newPassword });
}
