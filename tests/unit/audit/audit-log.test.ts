import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src-main/audit/audit-log.js';
import type { AuditInput } from '../../../src-main/audit/audit-types.js';
import { isAuthenticatedRow } from '../../../src-main/audit/audit-types.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openLog(): Promise<AuditLog> {
  const dir = await tempDir();
  const store = await Store.open({ dataDir: dir.dir });
  const audit = new AuditLog(store, { aggregation: { breakdownLimit: 2 } });
  cleanups.push(async () => {
    audit.stopAgePrune();
    await store.close();
    await dir.remove();
  });
  return audit;
}

function anonymous(overrides: Partial<AuditInput & { route: string }> = {}): AuditInput & { route: string } {
  return {
    authenticated: false,
    user: 'anonymous',
    via: 'http',
    remote_address: '192.0.2.5',
    method: 'POST',
    path: '/api/v1/hosts',
    route: '/api/v1/hosts',
    action: 'hosts.create',
    resource_type: 'hosts',
    resource_id: null,
    outcome: 'failure',
    status: 401,
    request_id: 'req-1',
    ...overrides,
  };
}

const minute = (n: number, second = 0) => new Date(Date.UTC(2030, 0, 1, 12, n, second));

describe('AuditLog aggregation of unauthenticated requests', () => {
  it('starts a new row each minute and per source, and counts kinds past the breakdown limit as other', async () => {
    const audit = await openLog();
    await audit.record(anonymous(), minute(0, 1));
    await audit.record(anonymous({ method: 'DELETE', route: '/api/v1/hosts/:id', path: '/api/v1/hosts/7' }), minute(0, 2));
    await audit.record(anonymous({ status: 403 }), minute(0, 3));
    await audit.record(anonymous(), minute(0, 59));
    await audit.record(anonymous({ remote_address: '2001:db8:0:1::1' }), minute(0, 10));
    await audit.record(anonymous({ remote_address: '2001:db8:0:1::2' }), minute(0, 11));
    await audit.record(anonymous(), minute(1, 0));
    await audit.flush();

    const rows = audit.all();
    expect(rows.map((row) => [row.remote_address, row.count])).toEqual([
      ['192.0.2.5', 4],
      ['2001:db8:0:1::/64', 2],
      ['192.0.2.5', 1],
    ]);
    expect(rows[0]).toMatchObject({ method: '*', path: '*', status: 401, created_at: minute(0, 1).toISOString() });
    expect(rows[0]!.aggregate).toEqual({
      window_start: minute(0).toISOString(),
      last_at: minute(0, 59).toISOString(),
      breakdown: [
        { method: 'POST', route: '/api/v1/hosts', status: 401, count: 2 },
        { method: 'DELETE', route: '/api/v1/hosts/:id', status: 401, count: 1 },
      ],
      other: 1,
    });
    expect(rows[2]).toMatchObject({ method: 'POST', path: '/api/v1/hosts', aggregate: { window_start: minute(1).toISOString() } });
  });

  it('prunes each class against its own count limit', async () => {
    const audit = await openLog();
    audit.setRetention({ maxCount: 3, unauthenticatedMaxCount: 2, maxAgeDays: 3650 });
    const signedIn = (i: number) => ({ ...anonymous(), authenticated: true, user: `user${i}`, request_id: `a${i}` });
    for (let i = 0; i < 5; i += 1) await audit.record(signedIn(i), minute(0, i));
    for (let i = 0; i < 5; i += 1) await audit.record(anonymous({ remote_address: `198.51.100.${i}` }), minute(0, 10 + i));
    await audit.prune(minute(1));
    const rows = audit.all();
    expect(rows.filter(isAuthenticatedRow).map((row) => row.user)).toEqual(['user2', 'user3', 'user4']);
    expect(rows.filter((row) => !isAuthenticatedRow(row)).map((row) => row.remote_address)).toEqual(['198.51.100.3', '198.51.100.4']);
  });

  it('classes rows written before the authenticated field by who and what', () => {
    const legacy = { id: 1, created_at: '', updated_at: '', ...anonymous() } as const;
    const { authenticated: _drop, ...base } = legacy;
    expect(isAuthenticatedRow(base)).toBe(false);
    expect(isAuthenticatedRow({ ...base, user: 'mallory', action: 'auth.login' })).toBe(false);
    expect(isAuthenticatedRow({ ...base, user: 'ada' })).toBe(true);
    expect(isAuthenticatedRow({ ...base, user: 'ada', action: 'auth.login', outcome: 'success' })).toBe(true);
  });
});
