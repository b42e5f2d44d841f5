import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-main/audit/audit-types.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { collectionOnDisk } from '../../helpers/store-journal.js';
import { as, stubAuthenticator } from '../events/stub-auth.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A core whose data directory outlives it, so the store file can be read after stop. */
async function openCore(): Promise<{ t: TestCore; dataDir: string }> {
  const dir = await tempDir();
  const t = await createTestCore({ authenticator: stubAuthenticator, dataDir: dir.dir });
  cleanups.push(async () => {
    await t.close();
    await dir.remove();
  });
  return { t, dataDir: dir.dir };
}

interface AuditList {
  data: AuditEntry[];
  meta: { total: number; page: number; size: number };
}

async function auditList(t: TestCore, query = '', principal = 'operator'): Promise<AuditList> {
  const response = await t.core.http.inject({ method: 'GET', url: `/api/v1/audit-logs${query}`, headers: as(principal) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditList>();
}

describe('audit log', () => {
  it('records a successful and a failed mutating request with who, what, where and how it ended', async () => {
    const { t } = await openCore();
    const ok = await t.core.http.inject({
      method: 'PUT',
      url: '/api/v1/services/http/auto-start?note=ignored',
      headers: { ...as('operator:olivia'), 'content-type': 'application/json' },
      payload: { auto_start: true },
    });
    expect(ok.statusCode).toBe(200);
    const refused = await t.core.http.inject({ method: 'POST', url: '/api/v1/services/http/stop', headers: as('operator:olivia') });
    expect(refused.statusCode).toBe(409);

    const { data } = await auditList(t);
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({
      user: 'olivia',
      via: 'http',
      remote_address: '127.0.0.1',
      method: 'POST',
      path: '/api/v1/services/http/stop',
      action: 'services.stop',
      resource_type: 'services',
      resource_id: 'http',
      outcome: 'failure',
      status: 409,
      request_id: refused.headers['x-request-id'],
    });
    expect(data[1]).toMatchObject({
      user: 'olivia',
      method: 'PUT',
      path: '/api/v1/services/http/auto-start',
      action: 'services.auto-start.update',
      resource_id: 'http',
      outcome: 'success',
      status: 200,
    });
  });

  it('names the object a change was about: the new id of a create, its name or host name, a DNS record with its type', async () => {
    const { t } = await openCore();
    const post = (url: string, payload: Record<string, unknown>) => t.core.http.inject({ method: 'POST', url, headers: { ...as('operator:olivia'), 'content-type': 'application/json' }, payload });
    const host = await post('/api/v1/hosts', { mac: '52:54:00:ad:00:01', hostname: 'web01' });
    expect(host.statusCode, host.body).toBe(201);
    const hostId = String(host.json<{ data: { id: number } }>().data.id);
    const record = await post('/api/v1/dns/records', { name: 'www', type: 'A', value: '10.20.0.5' });
    expect(record.statusCode, record.body).toBe(201);
    const refused = await post('/api/v1/hosts', { mac: '52:54:00:ad:00:01', hostname: 'again' });
    expect(refused.statusCode).toBe(409);
    const removed = await t.core.http.inject({ method: 'DELETE', url: `/api/v1/hosts/${hostId}`, headers: as('operator:olivia') });
    expect(removed.statusCode).toBeLessThan(300);

    const { data } = await auditList(t);
    const byAction = (action: string) => data.filter((entry) => entry.action === action);
    expect(byAction('hosts.create').map((entry) => [entry.outcome, entry.resource_id, entry.detail?.['name'] ?? null])).toEqual([
      ['failure', null, null],
      ['success', hostId, 'web01'],
    ]);
    expect(byAction('dns.records.create')[0]?.detail).toEqual({ name: 'www (A)' });
    expect(byAction('hosts.delete')[0]).toMatchObject({ resource_id: hostId });
  });

  it('records refused requests (no principal, too weak a role) as failures', async () => {
    const { t } = await openCore();
    await t.core.http.inject({ method: 'POST', url: '/api/v1/services/dns/start', headers: as('none') });
    await t.core.http.inject({ method: 'POST', url: '/api/v1/services/dns/start', headers: as('viewer:vic') });
    const { data } = await auditList(t);
    expect(data.map((entry) => [entry.user, entry.status, entry.outcome])).toEqual([
      ['vic', 403, 'failure'],
      ['anonymous', 401, 'failure'],
    ]);
  });

  it('records IPC calls as via ipc by the local user', async () => {
    const { t } = await openCore();
    const response = await t.core.ipc.invoke({ method: 'PUT', path: '/api/v1/services/http/auto-start', body: { auto_start: false } });
    expect(response.status).toBe(200);
    const { data } = await auditList(t);
    expect(data[0]).toMatchObject({ user: 'local', via: 'ipc', remote_address: null, action: 'services.auto-start.update', outcome: 'success' });
  });

  it('does not audit reads', async () => {
    const { t } = await openCore();
    await t.core.http.inject({ method: 'GET', url: '/api/v1/services', headers: as('viewer') });
    await t.core.http.inject({ method: 'GET', url: '/api/v1/events', headers: as('viewer') });
    expect((await auditList(t)).meta.total).toBe(0);
  });

  it('records a failed login under the attempted username and never stores a body or password', async () => {
    const { t, dataDir } = await openCore();
    const secret = 'correct-horse-battery-staple-42';
    const login = await t.core.http.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { ...as('none'), 'content-type': 'application/json' },
      payload: { username: 'mallory', password: secret },
    });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
    const rejected = await t.core.http.inject({
      method: 'PUT',
      url: '/api/v1/services/http/auto-start',
      headers: { ...as('admin'), 'content-type': 'application/json' },
      payload: { auto_start: true, password: secret },
    });
    expect(rejected.statusCode).toBe(400);

    const { data } = await auditList(t);
    expect(data.map((entry) => [entry.user, entry.action, entry.outcome])).toEqual([
      ['ada', 'services.auto-start.update', 'failure'],
      ['mallory', 'auth.login', 'failure'],
    ]);
    await t.core.stop();
    // The audit rows are in the audit_logs collection's journal (store/journal.ts), the rest in audit.json.
    const file = (await readFile(path.join(dataDir, 'audit.json'), 'utf8')) + (await collectionOnDisk(dataDir, 'audit', 'audit_logs'));
    expect(file).toContain('mallory');
    expect(file).not.toContain(secret);
    expect(file).not.toContain('password');
  });
});

describe('GET /audit-logs', () => {
  async function seeded() {
    const { t } = await openCore();
    const send = (method: 'POST' | 'PUT', url: string, principal: string, payload?: object) =>
      t.core.http.inject({
        method,
        url,
        headers: { ...as(principal), ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { payload } : {}),
      });
    await send('PUT', '/api/v1/services/http/auto-start', 'operator:olivia', { auto_start: true });
    await send('POST', '/api/v1/services/http/stop', 'admin:ada');
    await send('POST', '/api/v1/logs/cleanup', 'operator:olivia', { older_than_days: 30 });
    await send('POST', '/api/v1/services/batch/restart', 'admin:ada', { names: ['http'] });
    return t;
  }

  it('filters by user, action (exact or prefix), resource, outcome and time, newest first, with paging', async () => {
    const t = await seeded();
    const actions = (list: AuditList) => list.data.map((entry) => entry.action);
    expect(actions(await auditList(t))).toEqual(['services.batch.restart', 'logs.cleanup', 'services.stop', 'services.auto-start.update']);
    expect(actions(await auditList(t, '?user=olivia'))).toEqual(['logs.cleanup', 'services.auto-start.update']);
    expect(actions(await auditList(t, '?action=services.stop'))).toEqual(['services.stop']);
    expect(actions(await auditList(t, '?action=services.*'))).toEqual(['services.batch.restart', 'services.stop', 'services.auto-start.update']);
    expect(actions(await auditList(t, '?action=logs.,services.stop'))).toEqual(['logs.cleanup', 'services.stop']);
    expect(actions(await auditList(t, '?resource=logs'))).toEqual(['logs.cleanup']);
    expect(actions(await auditList(t, '?resource=services'))).toHaveLength(3);
    expect(actions(await auditList(t, '?outcome=failure'))).toEqual(['services.stop']);
    expect((await auditList(t, '?since=2000-01-01T00:00:00Z&until=2100-01-01T00:00:00Z')).meta.total).toBe(4);
    expect((await auditList(t, '?until=2000-01-01T00:00:00Z')).meta.total).toBe(0);
    const page = await auditList(t, '?size=1&page=2&sort=id');
    expect(page.meta).toEqual({ total: 4, page: 2, size: 1 });
    expect(actions(page)).toEqual(['services.stop']);
  });

  it('is for operators and admins, and rejects bad filters', async () => {
    const t = await seeded();
    const viewer = await t.core.http.inject({ method: 'GET', url: '/api/v1/audit-logs', headers: as('viewer') });
    expect(viewer.statusCode).toBe(403);
    expect((await auditList(t, '', 'admin')).meta.total).toBe(4);
    for (const [query, field] of [
      ['?outcome=maybe', 'querystring.outcome'],
      ['?since=today', 'querystring.since'],
      ['?action=a%20b', 'querystring.action'],
    ]) {
      const response = await t.core.http.inject({ method: 'GET', url: `/api/v1/audit-logs${query}`, headers: as('operator') });
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field }] });
    }
  });
});
