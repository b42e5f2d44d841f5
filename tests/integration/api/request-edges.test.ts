import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, loginAs } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/** Requests at the edges of parsing that the write-route fuzzer found mishandled (tests/integration/api/write-route-fuzz.test.ts). */

let t: TestCore;
let cookie: string;
let hostId: number;

beforeAll(async () => {
  t = await createTestCore();
  await t.core.start();
  const admin = await createUser(t.core, 'admin');
  cookie = (await loginAs(t.core, admin.username, admin.password)).cookie;
  const made = await t.core.http.inject({ method: 'POST', url: '/api/v1/hosts', headers: { cookie }, payload: { mac: '52:54:00:00:00:27', hostname: 'edge' } });
  hostId = (made.json() as { data: { id: number } }).data.id;
});
afterAll(async () => t.close());

/** Raw HTTP: inject and fetch would normalise some of these paths. */
function send(method: string, path: string, body?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const url = new URL(t.core.url());
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { cookie };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('request edges', () => {
  it('rejects integers that JSON makes infinite (1e400) instead of failing to serialise them (500)', async () => {
    const res = await send('POST', '/api/v1/access/unauthorized/add-to-blacklist', '{"ids":[1e400]}');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    const single = await send('POST', '/api/v1/access/unauthorized/add-to-whitelist', '{"id":-1e400}');
    expect(single.status).toBe(400);
  });

  it('takes integer path params only in plain decimal, so a row has one URL', async () => {
    expect((await send('GET', `/api/v1/hosts/${hostId}`)).status).toBe(200);
    for (const alias of [`%20${hostId}`, `${hostId}.0`, `${hostId / 10}e1`, `+${hostId}`, `0${hostId}`, `${hostId}%20`]) {
      const res = await send('PUT', `/api/v1/hosts/${alias}`, '{"description":"aliased"}');
      expect(res.status, alias).toBe(400);
      expect(res.json, alias).toMatchObject({ success: false, code: 'VALIDATION_FAILED', details: [{ field: 'params.id' }] });
    }
    expect((await send('DELETE', `/api/v1/hosts/${hostId}.0`)).status).toBe(400);
    expect((await send('GET', `/api/v1/hosts/${hostId}`)).json).toMatchObject({ data: { description: '' } });
  });

  it('answers undecodable paths and oversize path segments with the error envelope', async () => {
    const bad = await send('DELETE', '/api/v1/hosts/%ff%fe');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    const long = await send('DELETE', `/api/v1/hosts/${'9'.repeat(300)}`);
    expect(long.status).toBe(400);
    expect(long.json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });
});
