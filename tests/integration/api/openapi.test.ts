import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../../src-main/core/http-kit/route-table.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

let t: TestCore;
beforeAll(async () => {
  t = await createTestCore();
  await t.core.http.ready();
});
afterAll(async () => t.close());

/** fastify's `/hosts/:id` is OpenAPI's `/hosts/{id}`. */
function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

interface OpenApiDocument {
  openapi: string;
  components?: { schemas?: Record<string, unknown> };
  paths: Record<string, Record<string, { responses?: Record<string, unknown>; security?: unknown[] }>>;
}

describe('OpenAPI document', () => {
  it('is served as OpenAPI 3.1 without authentication', async () => {
    const res = await t.core.http.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json<OpenApiDocument>().openapi).toBe('3.1.0');
  });

  it('names exactly the registered API routes', async () => {
    const doc = (await t.core.http.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<OpenApiDocument>();
    const documented = new Set<string>();
    for (const [route, operations] of Object.entries(doc.paths)) {
      if (!route.startsWith('/api/v1/')) continue;
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${route}`);
    }
    const registered = new Set(
      registeredRoutes(t.core.http)
        .filter((route) => route.url.startsWith('/api/v1/') && route.url !== '/api/v1/openapi.json' && route.method !== 'HEAD')
        .map((route) => `${route.method} ${toOpenApiPath(route.url)}`),
    );
    expect(registered.size).toBeGreaterThan(0);
    expect([...registered].filter((route) => !documented.has(route)), 'registered but undocumented').toEqual([]);
    expect([...documented].filter((route) => !registered.has(route)), 'documented but not registered').toEqual([]);
  });

  it('documents the error envelope and the security of every protected route', async () => {
    const doc = (await t.core.http.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<OpenApiDocument>();
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(Object.keys(operation.responses ?? {}), `${method} ${route}`).toEqual(expect.arrayContaining(['4XX', '5XX']));
      }
    }
  });

  it('names shared schemas by their $id, independent of route order', async () => {
    const doc = (await t.core.http.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<OpenApiDocument>();
    const names = Object.keys(doc.components?.schemas ?? {});
    expect(names).toEqual(expect.arrayContaining(['DnsRecord', 'HostView', 'Profile', 'Lease', 'BmcConfig']));
    expect(names.filter((name) => /^def-\d+$/.test(name))).toEqual([]);
  });
});
