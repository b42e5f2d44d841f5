import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

let t: TestCore;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator, autoStartServices: [] });
  await t.core.start();
});
afterAll(async () => t.close());

describe('GET /metrics/history', () => {
  it('serves the sampled series, the first sample taken at start, and refuses a window past 24 h', async () => {
    const res = await t.core.http.inject({ method: 'GET', url: '/api/v1/metrics/history?minutes=5', headers: as('viewer') });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: { interval_seconds: number; series: { name: string; unit: string; points: { at: string; value: number | null }[] }[] } }>().data;
    expect(data.interval_seconds).toBe(60);
    expect(data.series.map((series) => series.name)).toEqual(['dhcp_leases_active', 'dhcp_pool_size', 'boots_ok', 'boots_fallback', 'boots_denied', 'dns_queries', 'tftp_bytes', 'http_bytes', 'nfs_bytes']);
    const leases = data.series.find((series) => series.name === 'dhcp_leases_active')!;
    expect(leases.points.length).toBeGreaterThanOrEqual(1);
    expect(Date.parse(leases.points[0]!.at)).toBeGreaterThan(Date.now() - 5 * 60_000);
    expect((await t.core.http.inject({ method: 'GET', url: '/api/v1/metrics/history?minutes=1441', headers: as('viewer') })).statusCode).toBe(400);
  });
});
