import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostGroups } from '../../../src-main/hosts/hosts-contract.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

/* GET /hosts/groups: the groups and tags in use with counts that match what the /hosts filters return. */

let t: TestCore;
beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
});
afterAll(async () => t.close());

async function call(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(method === 'GET' ? 'viewer' : 'operator'), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as { data: unknown; meta?: { total: number } } };
}

describe('GET /hosts/groups', () => {
  it('is empty without hosts', async () => {
    const res = await call('GET', '/hosts/groups');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ groups: [], tags: [], ungrouped: 0, total: 0 });
  });

  it('counts groups and tags case-insensitively, as the group and tag filters select', async () => {
    const hosts = [
      { group: 'lab', tags: ['gpu', 'rack-1'] },
      { group: 'Lab', tags: ['GPU'] },
      { group: 'office', tags: [] },
      { group: null, tags: ['rack-1'] },
    ];
    for (const [i, host] of hosts.entries()) {
      const res = await call('POST', '/hosts', { mac: `52:54:00:6a:00:${(i + 1).toString(16).padStart(2, '0')}`, ...host });
      expect(res.status).toBe(201);
    }
    const summary = (await call('GET', '/hosts/groups')).body.data as HostGroups;
    expect(summary.total).toBe(4);
    expect(summary.ungrouped).toBe(1);
    expect(summary.groups.map((g) => [g.name.toLowerCase(), g.hosts])).toEqual([
      ['lab', 2],
      ['office', 1],
    ]);
    expect(summary.tags.map((g) => [g.name.toLowerCase(), g.hosts])).toEqual([
      ['gpu', 2],
      ['rack-1', 2],
    ]);
    for (const group of summary.groups) expect((await call('GET', `/hosts?group=${encodeURIComponent(group.name)}`)).body.meta?.total).toBe(group.hosts);
    for (const tag of summary.tags) expect((await call('GET', `/hosts?tag=${encodeURIComponent(tag.name)}`)).body.meta?.total).toBe(tag.hosts);
  });
});
