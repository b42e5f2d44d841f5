import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal, Role } from '../../../src-main/core/http-kit/access.js';
import { IPC_HEADER } from '../../../src-main/api/http-app.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { widgetsPlugin } from '../../helpers/widgets-plugin.js';

/** A stub authenticator: the role comes from a test-only header (never used by the application). */
const stubAuthenticator = {
  async authenticate(request: { headers: Record<string, string | string[] | undefined> }): Promise<Principal | null> {
    const role = request.headers['x-test-role'];
    if (typeof role !== 'string') return null;
    return { kind: 'user', user_id: 1, username: `test-${role}`, role: role as Role };
  },
};

let t: TestCore;
let uiDir: { dir: string; remove: () => Promise<void> };
let base: string;
const admin = { 'x-test-role': 'admin' };

beforeAll(async () => {
  uiDir = await tempDir('bootwright-ui-');
  await mkdir(path.join(uiDir.dir, 'assets'));
  await writeFile(path.join(uiDir.dir, 'index.html'), '<!doctype html><title>Bootwright</title><div id="root"></div>');
  await writeFile(path.join(uiDir.dir, 'assets', 'app-1234.js'), 'console.log(1)');
  t = await createTestCore({ authenticator: stubAuthenticator, extraApiPlugins: [widgetsPlugin()], rendererDir: uiDir.dir });
  await t.core.start();
  base = t.core.url();
});
afterAll(async () => {
  await t.close();
  await uiDir.remove();
});

async function api(method: string, url: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${base}${url}`, { method, headers: { ...admin, ...init.headers }, body: init.body ?? null });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const json = { 'content-type': 'application/json' };

describe('success envelope and lists', () => {
  it('creates with 201 and the success envelope; the response schema filters fields', async () => {
    const res = await api('POST', '/api/v1/widgets', { body: JSON.stringify({ name: 'alpha', size: 3 }), headers: json });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ success: true, data: { id: 1, name: 'alpha', size: 3 } });
    expect(res.text).not.toContain('never-leaves');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('pages, searches and sorts lists with meta', async () => {
    for (const [name, size] of [['beta', 9], ['gamma', 1], ['delta', 5], ['alpine', 7]] as const) {
      await api('POST', '/api/v1/widgets', { body: JSON.stringify({ name, size }), headers: json });
    }
    const page = await api('GET', '/api/v1/widgets?page=2&size=2&sort=-size');
    expect(page.json).toMatchObject({ success: true, meta: { total: 5, page: 2, size: 2 } });
    expect((page.json!.data as { name: string }[]).map((w) => w.name)).toEqual(['delta', 'alpha']);
    const search = await api('GET', '/api/v1/widgets?q=ALP');
    expect((search.json!.data as { name: string }[]).map((w) => w.name).sort()).toEqual(['alpha', 'alpine']);
  });

  it('rejects an unknown sort field, an oversize page and unknown query parameters with 400', async () => {
    const sort = await api('GET', '/api/v1/widgets?sort=colour');
    expect(sort.status).toBe(400);
    expect(sort.json).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(sort.json!.error).toContain('colour');
    expect((await api('GET', '/api/v1/widgets?size=501')).status).toBe(400);
    expect((await api('GET', '/api/v1/widgets?colour=red')).status).toBe(400);
  });
});

describe('bad input gets a clear error and changes nothing', () => {
  it('400 for malformed JSON', async () => {
    const res = await api('POST', '/api/v1/widgets', { body: '{"name": "x", ', headers: json });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ success: false, code: 'MALFORMED_JSON' });
  });

  it('400 for an unknown field, naming it in details', async () => {
    const res = await api('POST', '/api/v1/widgets', { body: JSON.stringify({ name: 'x', size: 1, colour: 'red' }), headers: json });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'body.colour', message: 'unknown field' }] });
  });

  it('400 for a wrong type: strings are not coerced to numbers in bodies', async () => {
    const res = await api('POST', '/api/v1/widgets', { body: JSON.stringify({ name: 'x', size: '5' }), headers: json });
    expect(res.status).toBe(400);
    expect(res.json!.error).toContain('body.size');
  });

  it('400 for prototype pollution attempts', async () => {
    const res = await api('POST', '/api/v1/widgets', { body: '{"name":"p","size":1,"__proto__":{"admin":true}}', headers: json });
    expect(res.status).toBe(400);
  });

  it('415 for a body that is not JSON, 413 over 1 MiB', async () => {
    const text = await api('POST', '/api/v1/widgets', { body: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.json).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const form = await api('POST', '/api/v1/widgets', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    const big = await api('POST', '/api/v1/widgets', { body: JSON.stringify({ name: 'x', size: 1, payload: 'x'.repeat(1024 * 1024) }), headers: json });
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('409 for a duplicate, and nothing changed by any rejected request', async () => {
    const dup = await api('POST', '/api/v1/widgets', { body: JSON.stringify({ name: 'alpha', size: 2 }), headers: json });
    expect(dup.status).toBe(409);
    const list = await api('GET', '/api/v1/widgets?size=500');
    expect(list.json!.meta).toMatchObject({ total: 5 });
  });

  it('accepts a body-less action with or without a JSON content type', async () => {
    expect((await api('POST', '/api/v1/widgets/poke')).status).toBe(200);
    expect((await api('POST', '/api/v1/widgets/poke', { headers: json })).status).toBe(200);
  });
});

describe('routing errors', () => {
  it('404 JSON for unknown resources and unknown API routes, never HTML', async () => {
    const missing = await api('GET', '/api/v1/widgets/999');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const route = await api('GET', '/api/v1/no-such-thing', { headers: { accept: 'text/html' } });
    expect(route.status).toBe(404);
    expect(route.headers.get('content-type')).toContain('application/json');
    expect(route.json).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    expect((await api('GET', '/api/other')).headers.get('content-type')).toContain('application/json');
  });

  it('405 with Allow for a known path with the wrong method', async () => {
    const res = await api('DELETE', '/api/v1/widgets');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD');
    expect(res.json).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  it('500 without internals, with the request id, and the server keeps serving', async () => {
    const res = await api('POST', '/api/v1/widgets/explode');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('internal detail');
    expect(res.text).not.toContain('at ');
    expect(res.json!.request_id).toBe(res.headers.get('x-request-id'));
    expect((await api('GET', '/api/v1/widgets')).status).toBe(200);
  });
});

describe('access seam', () => {
  it('401 without a principal, 403 for a role below the route\'s', async () => {
    const anonymous = await fetch(`${base}/api/v1/widgets`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    const viewer = await api('POST', '/api/v1/widgets', { body: JSON.stringify({ name: 'v', size: 1 }), headers: { ...json, 'x-test-role': 'viewer' } });
    expect(viewer.status).toBe(403);
    expect(viewer.json).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('the IPC marker header over a real socket grants nothing', async () => {
    const res = await fetch(`${base}/api/v1/widgets`, { headers: { [IPC_HEADER]: 'guess' } });
    expect(res.status).toBe(401);
  });

  it('refuses to start when an API route does not declare its access', async () => {
    await expect(
      createTestCore({
        extraApiPlugins: [async (app) => void app.get('/undeclared', async () => ({ success: true }))],
      }),
    ).rejects.toThrow(/does not declare its access/);
  });
});

describe('web UI', () => {
  it('serves the single-page app at / and at deep links, with a strict CSP', async () => {
    for (const url of ['/', '/services/dns', '/hosts/12']) {
      const res = await fetch(`${base}${url}`, { headers: { accept: 'text/html' } });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves hashed assets with long caching', async () => {
    const res = await fetch(`${base}/assets/app-1234.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });
});
