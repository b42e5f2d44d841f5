import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, registeredRoutes, type RegisteredRoute } from '../../../src-main/core/http-kit/route-table.js';
import { loginHeaders } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/**
 * Routes anyone may call. Keep this list explicit: a route that becomes
 * public without being added here fails (a) below.
 */
const PUBLIC_ROUTES = new Set([
  `POST ${API_PREFIX}/auth/login`,
  // Public so that it can answer "not logged in" itself (with 401).
  `GET ${API_PREFIX}/auth/session`,
  `GET ${API_PREFIX}/openapi.json`,
  // PXE runtime endpoints: booting machines have no credentials.
  `GET ${API_PREFIX}/netboot/task/by-mac/:mac`,
  `GET ${API_PREFIX}/netboot/answer/:task_id`,
  // The same kind, which the spec's list leaves to us: cloud-init seed files and the installers' progress callback, bound to the task's token.
  `GET ${API_PREFIX}/netboot/answer/:task_id/:token/:file`,
  `GET ${API_PREFIX}/netboot/callback/:task_id/:token/:state`,
  `POST ${API_PREFIX}/netboot/callback/:task_id/:token/:state`,
  // Baselines runtime (docs/baselines.md, "Runtime"): an installed machine has no API credentials; the per-host
  // runtime token in the path is the only one, and reads that host's baseline or reports its results, nothing else.
  `GET ${API_PREFIX}/baselines/runtime/:token/run.sh`,
  `GET ${API_PREFIX}/baselines/runtime/:token/run.ps1`,
  `GET ${API_PREFIX}/baselines/runtime/:token/scripts`,
  `GET ${API_PREFIX}/baselines/runtime/:token/scripts.txt`,
  `GET ${API_PREFIX}/baselines/runtime/:token/script/:position`,
  `POST ${API_PREFIX}/baselines/runtime/:token/results`,
  `POST ${API_PREFIX}/baselines/runtime/:token/report`,
  `POST ${API_PREFIX}/baselines/runtime/:token/inventory`,
]);

/** Mutating routes every authenticated user (viewers too) may call: they act only on the caller. */
const SELF_SERVICE_ROUTES = new Set([`POST ${API_PREFIX}/auth/logout`, `PUT ${API_PREFIX}/users/me/password`]);

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Plausible values for path parameters; the access check runs before validation, so they only need to route. */
const PARAM_VALUES: Record<string, string> = {
  id: '1',
  mac: '52:54:00:12:34:56',
  name: 'http',
  action: 'start',
  distro: 'ubuntu',
  type: 'script',
  version: '1',
  verId: '1',
  profileId: '1',
  task_id: '1',
};

function concreteUrl(pattern: string): string {
  return pattern
    .replace(/:([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?/g, (_all, name: string) => encodeURIComponent(PARAM_VALUES[name] ?? '1'))
    .replace(/\*$/, 'x');
}

function key(route: RegisteredRoute): string {
  return `${route.method} ${route.url}`;
}

describe('auth matrix: every API route', () => {
  let t: TestCore;
  let apiRoutes: RegisteredRoute[];
  let viewer: { cookie: string };

  beforeAll(async () => {
    t = await createTestCore();
    await t.core.http.ready();
    apiRoutes = registeredRoutes(t.core.http).filter((route) => route.url.startsWith(`${API_PREFIX}/`) && route.method !== 'HEAD' && route.method !== 'OPTIONS');
    viewer = await loginHeaders(t.core, 'viewer');
  });

  afterAll(async () => t.close());

  function send(route: RegisteredRoute, headers: Record<string, string>) {
    const withBody = route.method !== 'GET' && route.method !== 'DELETE';
    return t.core.http.inject({
      method: route.method as 'GET',
      url: concreteUrl(route.url),
      headers: withBody ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(withBody ? { payload: '{}' } : {}),
    });
  }

  it('walks the whole route table', () => {
    const keys = apiRoutes.map(key);
    for (const expected of [`POST ${API_PREFIX}/auth/login`, `GET ${API_PREFIX}/users`, `DELETE ${API_PREFIX}/tokens/:id`, `GET ${API_PREFIX}/services`]) {
      expect(keys).toContain(expected);
    }
  });

  it('(a) answers 401 with the error envelope to every non-public route without credentials', async () => {
    const failures: string[] = [];
    for (const route of apiRoutes.filter((r) => !PUBLIC_ROUTES.has(key(r)))) {
      const response = await send(route, {});
      const body = response.headers['content-type']?.toString().includes('json') ? (response.json() as Record<string, unknown>) : null;
      const ok = response.statusCode === 401 && body?.success === false && body.code === 'UNAUTHENTICATED' && typeof body.error === 'string';
      if (!ok) failures.push(`${key(route)} -> ${response.statusCode} ${response.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it('(b) answers 403 to a viewer on every mutating non-public route', async () => {
    const failures: string[] = [];
    const mutating = apiRoutes.filter((r) => MUTATING.has(r.method) && !PUBLIC_ROUTES.has(key(r)) && !SELF_SERVICE_ROUTES.has(key(r)));
    expect(mutating.length).toBeGreaterThan(0);
    for (const route of mutating) {
      const response = await send(route, viewer);
      const body = response.headers['content-type']?.toString().includes('json') ? (response.json() as Record<string, unknown>) : null;
      const ok = response.statusCode === 403 && body?.success === false && body.code === 'FORBIDDEN';
      if (!ok) failures.push(`${key(route)} -> ${response.statusCode} ${response.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it('keeps the viewer session usable for reads (the 403s above are about role, not the session)', async () => {
    const response = await t.core.http.inject({ method: 'GET', url: `${API_PREFIX}/auth/session`, headers: viewer });
    expect(response.json()).toMatchObject({ data: { role: 'viewer', via: 'session' } });
  });
});
