import type { Role } from '../../src-main/core/http-kit/access.js';
import type { PublicUser } from '../../src-main/auth/user-directory.js';
import { SESSION_COOKIE } from '../../src-main/auth/session-cookie.js';
import type { AppCore } from '../../src-main/app/app-core.js';

/** The password every helper-made user gets. */
export const TEST_PASSWORD = 'correct horse battery staple';

let counter = 0;

export interface TestUser {
  user: PublicUser;
  username: string;
  password: string;
}

/** Creates a user with `role` (a fresh name unless given) directly through the auth service. */
export async function createUser(core: AppCore, role: Role, options: { username?: string; password?: string } = {}): Promise<TestUser> {
  counter += 1;
  const username = options.username ?? `${role}-${process.pid}-${counter}`;
  const password = options.password ?? TEST_PASSWORD;
  const user = await core.area('auth').users.create({ username, password, role });
  return { user, username, password };
}

/** The `name=value` pair of the session cookie in a Set-Cookie header, or null. */
export function sessionCookieFrom(setCookie: string | string[] | undefined): string | null {
  const headers = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  for (const header of headers) {
    const pair = header.split(';', 1)[0] ?? '';
    if (pair.startsWith(`${SESSION_COOKIE}=`) && pair.length > SESSION_COOKIE.length + 1) return pair;
  }
  return null;
}

/** Logs in through the API (inject) and returns the cookie header of the new session. */
export async function loginAs(core: AppCore, username: string, password: string): Promise<{ cookie: string }> {
  const response = await core.http.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });
  const cookie = sessionCookieFrom(response.headers['set-cookie']);
  if (response.statusCode !== 200 || !cookie) throw new Error(`login as ${username} failed: ${response.statusCode} ${response.body}`);
  return { cookie };
}

/** Headers for inject as a new user with `role`, authenticated by session cookie. */
export async function loginHeaders(core: AppCore, role: Role): Promise<{ cookie: string }> {
  const { username, password } = await createUser(core, role);
  return loginAs(core, username, password);
}

/** Headers for inject authenticated by a new API token with `role`. */
export async function bearerHeaders(core: AppCore, role: Role): Promise<{ authorization: string }> {
  counter += 1;
  const { secret } = await core.area('auth').tokens.create({ name: `test-${role}-${process.pid}-${counter}`, role }, 'test');
  return { authorization: `Bearer ${secret}` };
}

/** A caller of `core`'s API as `role` (a bearer token), answering the status and the envelope's `data`. */
export function apiCaller(core: AppCore, role: Role) {
  return async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<{ status: number; data: Record<string, unknown> }> => {
    const res = await core.http.inject({ method, url: `/api/v1${url}`, headers: await bearerHeaders(core, role), ...(payload ? { payload } : {}) });
    return { status: res.statusCode, data: (res.json() as { data: Record<string, unknown> }).data };
  };
}
