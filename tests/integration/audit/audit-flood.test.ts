import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditView } from '../../../src-main/audit/audit-types.js';
import type { DeriveKey } from '../../../src-main/auth/password-hash.js';
import { bearerHeaders, createUser, loginAs } from '../../helpers/auth.js';
import { collectionOnDisk } from '../../helpers/store-journal.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/** A cheap stand-in for scrypt: these tests are about the audit trail, not hashing. */
const cheapDerive: DeriveKey = async ({ password, salt, keyLength }) =>
  createHash('sha512').update(salt).update(password).digest().subarray(0, keyLength);

interface AuditList {
  data: AuditView[];
  meta: { total: number };
}

describe('audit log under unauthenticated floods', () => {
  let t: TestCore | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function start(): Promise<{ list: (query?: string) => Promise<AuditList> }> {
    t = await createTestCore({ auth: { hasher: { derive: cheapDerive } } });
    const admin = await bearerHeaders(t.core, 'admin');
    return {
      list: async (query = '') => {
        await t!.core.kernel.audit.flush();
        const response = await t!.core.http.inject({ method: 'GET', url: `/api/v1/audit-logs${query}`, headers: admin });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<AuditList>();
      },
    };
  }

  function anonymousPost(remoteAddress: string) {
    return t!.core.http.inject({ method: 'POST', url: '/api/v1/hosts', payload: { mac: '52:54:00:00:00:01' }, remoteAddress });
  }

  it('keeps an earlier login when 2,000 anonymous requests from many sources exceed the limits, and stays bounded', async () => {
    const { list } = await start();
    const { username, password } = await createUser(t!.core, 'operator');
    await loginAs(t!.core, username, password);
    // Small limits so the flood overflows them many times over.
    t!.core.kernel.audit.setRetention({ maxCount: 100, unauthenticatedMaxCount: 100, maxAgeDays: 180 });
    for (let i = 0; i < 2000; i += 1) {
      const response = await anonymousPost(`10.9.${Math.floor(i / 250)}.${(i % 250) + 1}`);
      expect(response.statusCode).toBe(401);
    }
    await t!.core.kernel.audit.prune();

    const stored = t!.core.kernel.audit.all();
    expect(stored.filter((entry) => entry.action === 'auth.login' && entry.user === username && entry.outcome === 'success')).toHaveLength(1);
    expect(stored.length).toBeLessThanOrEqual(110);
    const logins = await list('?action=auth.login&authenticated=true');
    expect(logins.data.map((entry) => [entry.user, entry.outcome])).toEqual([[username, 'success']]);
    expect(t!.core.kernel.audit.all().length).toBeLessThanOrEqual(110);
    const anonymous = await list('?authenticated=false');
    expect(anonymous.meta.total).toBeLessThanOrEqual(110);
    expect(anonymous.data[0]).toMatchObject({ user: 'anonymous', action: 'unauthenticated', count: 1, status: 401, authenticated: false });
  });

  it('folds one source’s anonymous requests of a minute into one row with counts by method, route and status', async () => {
    const { list } = await start();
    for (let i = 0; i < 2000; i += 1) expect((await anonymousPost('192.0.2.77')).statusCode).toBe(401);
    for (let i = 0; i < 5; i += 1) {
      const response = await t!.core.http.inject({ method: 'DELETE', url: `/api/v1/hosts/${i + 1}`, remoteAddress: '192.0.2.77' });
      expect(response.statusCode).toBe(401);
    }
    const { data } = await list('?authenticated=false');
    // One row, or two when the minute turned during the loop.
    expect(data.length).toBeLessThanOrEqual(2);
    expect(data.reduce((sum, entry) => sum + entry.count, 0)).toBe(2005);
    const row = data.find((entry) => entry.aggregate?.breakdown.some((item) => item.method === 'DELETE'))!;
    expect(row).toMatchObject({ user: 'anonymous', remote_address: '192.0.2.77', action: 'unauthenticated', outcome: 'failure', status: 401, authenticated: false });
    expect(row.aggregate!.window_start).toMatch(/:00(\.000)?Z$/);
    expect(row.aggregate!.breakdown).toContainEqual({ method: 'DELETE', route: '/api/v1/hosts/:id', status: 401, count: 5 });
    expect(row.aggregate!.breakdown.map((item) => item.route)).toContain('/api/v1/hosts');

    await t!.core.stop();
    // What reached the disk: audit.json and the audit_logs collection's snapshot and journals (without their zero fill).
    const size = (await stat(path.join(t!.dataDir, 'audit.json'))).size + Buffer.byteLength(await collectionOnDisk(t!.dataDir, 'audit', 'audit_logs'));
    // 2,005 single rows would be about 700 KB.
    expect(size).toBeLessThan(20_000);
  });

  it('keeps the first failed logins of a source each minute as rows with the username, and counts the rest', async () => {
    const { list } = await start();
    for (let i = 0; i < 20; i += 1) {
      const response = await t!.core.http.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: `guess${i}`, password: 'wrong-password' },
        remoteAddress: '198.51.100.9',
      });
      expect(response.statusCode).toBe(401);
    }
    const { data } = await list('?action=auth.login');
    const singles = data.filter((entry) => entry.aggregate === null);
    const aggregates = data.filter((entry) => entry.aggregate !== null);
    // Three singles a minute (the loop may straddle a minute: then up to six).
    expect(singles.length).toBeGreaterThanOrEqual(3);
    expect(singles.length).toBeLessThanOrEqual(6);
    expect(singles.every((entry) => /^guess\d+$/.test(entry.user) && entry.count === 1 && !entry.authenticated)).toBe(true);
    expect(singles.length + aggregates.reduce((sum, entry) => sum + entry.count, 0)).toBe(20);
    expect(aggregates[0]).toMatchObject({ user: 'anonymous', action: 'auth.login', path: '/api/v1/auth/login', remote_address: '198.51.100.9', outcome: 'failure' });
    expect(aggregates[0]!.aggregate!.breakdown).toEqual([{ method: 'POST', route: '/api/v1/auth/login', status: 401, count: aggregates[0]!.count }]);
  });
});
