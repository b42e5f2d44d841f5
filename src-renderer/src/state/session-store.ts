import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiError, describeError, isApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/api-client.js';
import { fetchSession, login, logout, type SessionInfo } from '../api/auth-api.js';

export type SessionStatus = 'checking' | 'anonymous' | 'authenticated' | 'error';

export interface SessionState {
  status: SessionStatus;
  session: SessionInfo | null;
  /** Why the session check failed (server unreachable), for status 'error'. */
  checkError: string | null;
  loggingIn: boolean;
  loginError: ApiError | null;
  check(): Promise<void>;
  login(username: string, password: string): Promise<boolean>;
  logout(): Promise<void>;
  /** A request answered 401: the session ended elsewhere (expired, revoked). */
  expire(): void;
}

/**
 * Who is using the UI. In a browser that is a cookie session from the login
 * page; inside the desktop app the IPC caller is the local admin, which
 * GET /auth/session reports with via "local", so the login page never shows.
 */
export function createSessionStore(client: ApiClient): StoreApi<SessionState> {
  return createStore<SessionState>()((set, get) => ({
    status: 'checking',
    session: null,
    checkError: null,
    loggingIn: false,
    loginError: null,

    async check() {
      set({ status: 'checking', checkError: null });
      try {
        const session = await fetchSession(client);
        set(session ? { status: 'authenticated', session } : { status: 'anonymous', session: null });
      } catch (err) {
        set({ status: 'error', session: null, checkError: describeError(err) });
      }
    },

    async login(username, password) {
      set({ loggingIn: true, loginError: null });
      try {
        await login(client, username, password);
        const session = await fetchSession(client);
        if (!session) {
          // Accepted, yet the next request is anonymous: the browser dropped the cookie.
          const message = 'The server accepted the login, but the browser did not keep the session cookie. Allow cookies for this site and try again.';
          set({ loggingIn: false, status: 'anonymous', session: null, loginError: new ApiError({ status: 200, code: 'BAD_RESPONSE', message }) });
          return false;
        }
        set({ loggingIn: false, status: 'authenticated', session });
        return true;
      } catch (err) {
        const error = isApiError(err) ? err : null;
        set({ loggingIn: false, loginError: error ?? null, ...(error ? {} : { status: 'error', checkError: describeError(err) }) });
        return false;
      }
    },

    async logout() {
      try {
        await logout(client);
      } catch (err) {
        // Already logged out (401) is the outcome we wanted; anything else is worth knowing.
        if (!(isApiError(err) && err.status === 401)) throw err;
      }
      set({ status: 'anonymous', session: null, loginError: null });
    },

    expire() {
      if (get().status === 'authenticated') set({ status: 'anonymous', session: null });
    },
  }));
}
