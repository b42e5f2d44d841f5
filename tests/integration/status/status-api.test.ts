import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findIp } from '../../../src-main/network/link-monitor.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

const opened: TestCore[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

describe('GET /status', () => {
  it('reports version, uptime, server name, services by state and data directory usage', async () => {
    const t = await createTestCore({ authenticator: roleAuthenticator });
    opened.push(t);
    await t.core.start();
    await writeFile(path.join(t.dataDir, 'blob.bin'), Buffer.alloc(300_000));
    await t.core.kernel.settings.update({ general: { server_name: 'pxe-status' } });

    const res = await t.core.http.inject({ method: 'GET', url: '/api/v1/status', headers: as('viewer') });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      version: t.core.kernel.build.version,
      server_name: 'pxe-status',
      started_at: t.core.kernel.startedAt.toISOString(),
      // Only http auto-starts in test cores; the network servers are registered and stopped.
      services: { by_state: { running: 1, starting: 0, stopping: 0, failed: 0 } },
      data_dir: { path: t.dataDir, usage_truncated: false },
    });
    expect(data.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(data.services.total).toBe(data.services.list.length);
    expect(data.services.by_state.stopped).toBe(data.services.total - 1);
    expect(data.services.list.map((s: { name: string }) => s.name)).toContain('http');
    expect(data.data_dir.bytes_used).toBeGreaterThanOrEqual(300_000);
    expect(data.data_dir.fs_total_bytes).toBeGreaterThanOrEqual(data.data_dir.fs_free_bytes);
    expect(data.data_dir.fs_free_bytes).toBeGreaterThan(0);
    // A specific listen address is the only URL other machines reach (lan-urls.ts; the wildcard case is unit-tested).
    expect(data.urls).toEqual([t.core.url()]);
    // The machine's own interfaces are followed through `ip monitor` where iproute2 is installed (CI), else polled.
    expect(data.interface_watch).toEqual(findIp() ? { mode: 'events', detail: null } : { mode: 'poll', detail: 'iproute2 (ip) not found' });
  });

  it('needs authentication', async () => {
    const t = await createTestCore({ authenticator: roleAuthenticator });
    opened.push(t);
    expect((await t.core.http.inject({ method: 'GET', url: '/api/v1/status' })).statusCode).toBe(401);
  });
});
