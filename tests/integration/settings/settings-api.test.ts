import { afterEach, describe, expect, it } from 'vitest';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { settingsDefaults } from '../../../src-main/settings/settings-contract.js';
import { as, roleAuthenticator } from './role-authenticator.js';

const opened: TestCore[] = [];
const dirs: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
  for (const remove of dirs.splice(0)) await remove();
});

async function core(dataDir?: string): Promise<TestCore> {
  const t = await createTestCore({ authenticator: roleAuthenticator, ...(dataDir ? { dataDir } : {}) });
  opened.push(t);
  return t;
}

interface Reply {
  status: number;
  body: { success: boolean; data: Record<string, unknown>; error?: string; code?: string; details?: { field: string; message: string }[] };
}

async function call(t: TestCore, method: 'GET' | 'PUT', url: string, body?: unknown, role: 'viewer' | 'operator' | 'admin' = 'operator'): Promise<Reply> {
  const res = await t.core.http.inject({
    method,
    url: `/api/v1${url}`,
    headers: as(role),
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

describe('settings API: validation', () => {
  it('rejects unknown fields, wrong types and bad values with 400 naming the field, and changes nothing', async () => {
    const t = await core();
    const before = (await call(t, 'GET', '/settings')).body.data;
    const cases: [string, unknown, string][] = [
      ['/settings/general', { server_name: 'pxe', colour: 'red' }, 'body.colour'],
      ['/settings/general', { server_name: 42 }, 'body.server_name'],
      ['/settings/general', { server_name: 'not a label' }, 'body.server_name'],
      ['/settings/general', { update_feed_url: 'file:///etc/passwd' }, 'body.update_feed_url'],
      ['/settings/netboot', { menu_timeout_seconds: '10' }, 'body.menu_timeout_seconds'],
      ['/settings/netboot', { menu_timeout_seconds: 601 }, 'body.menu_timeout_seconds'],
      ['/settings/netboot', { default_action: 'profile' }, 'body.default_profile_id'],
      ['/settings/netboot', { default_action: 'shell' }, 'body.default_action'],
      ['/settings/logging', { level: 'verbose' }, 'body.level'],
      ['/settings/interfaces', { server_addresses: [{ subnet: '10.0.0.0/33', address: '10.0.0.1' }] }, 'body.server_addresses.0.subnet'],
      ['/settings/interfaces', { server_addresses: [{ subnet: '10.0.0.0/24', address: '10.0.1.1' }] }, 'body.server_addresses.0.address'],
      ['/settings/interfaces', { server_addresses: [{ subnet: '10.0.0.0/24' }] }, 'body.server_addresses.0.address'],
      ['/settings/interfaces', { served: 'all' }, 'body.served'],
      ['/settings', { general: { server_name: 'ok' }, netboot: { default_action: 'profile' } }, 'body.netboot.default_profile_id'],
      ['/settings', { general: { server_name: 'ok' }, dns: {} }, 'body.dns'],
    ];
    for (const [url, body, field] of cases) {
      const res = await call(t, 'PUT', url, body, 'admin');
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details?.map((d) => d.field), `${url} ${JSON.stringify(body)}`).toContain(field);
      expect(res.body.error).toContain(field);
    }
    expect((await call(t, 'GET', '/settings')).body.data).toEqual(before);
  });

  it('rejects the read-only interface fields with a clear message', async () => {
    const t = await core();
    const view = (await call(t, 'GET', '/settings/interfaces')).body.data;
    const res = await call(t, 'PUT', '/settings/interfaces', view);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('body.detected_interfaces: is read-only (reported by GET); send only served and server_addresses');
    const nested = await call(t, 'PUT', '/settings', { interfaces: { resolved_addresses: [] } });
    expect(nested.status).toBe(400);
    expect(nested.body.details?.[0]?.field).toBe('body.interfaces.resolved_addresses');
  });

  it('accepts a netboot profile action with its profile id, which must exist', async () => {
    const t = await core();
    const missing = await call(t, 'PUT', '/settings/netboot', { default_action: 'profile', default_profile_id: 7 });
    expect(missing.status).toBe(400);
    expect(missing.body.details?.[0]).toEqual({ field: 'body.default_profile_id', message: 'profile 7 does not exist' });
    const profile = await t.core.area('profiles').create({ name: 'Default', boot_type: 'local' }, { author: 'test' });
    const res = await call(t, 'PUT', '/settings/netboot', { default_action: 'profile', default_profile_id: profile.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...settingsDefaults({ logLevel: 'info' }).netboot, default_action: 'profile', default_profile_id: profile.id });
  });
});

describe('settings API: roles', () => {
  it('lets viewers read but not write', async () => {
    const t = await core();
    expect((await call(t, 'GET', '/settings/general', undefined, 'viewer')).status).toBe(200);
    const res = await call(t, 'PUT', '/settings/general', { server_name: 'pxe' }, 'viewer');
    expect(res.status).toBe(403);
  });

  it('needs admin to change allowed_hosts, the feed URL or audit retention, but not to send them unchanged', async () => {
    const t = await core();
    const denied = await call(t, 'PUT', '/settings/general', { allowed_hosts: ['pxe.example'] }, 'operator');
    expect(denied.status).toBe(403);
    expect(denied.body.error).toContain('general.allowed_hosts');
    expect((await call(t, 'PUT', '/settings', { logging: { audit_retention_days: 5 } }, 'operator')).status).toBe(403);

    const general = (await call(t, 'GET', '/settings/general')).body.data;
    expect((await call(t, 'PUT', '/settings/general', { ...general, server_name: 'pxe-op' }, 'operator')).status).toBe(200);

    const allowed = await call(t, 'PUT', '/settings/general', { allowed_hosts: ['PXE.example'] }, 'admin');
    expect(allowed.status).toBe(200);
    expect(allowed.body.data).toEqual({ server_name: 'pxe-op', update_feed_url: null, allowed_hosts: ['pxe.example'] });
  });
});

describe('settings API: applying and persisting', () => {
  it('applies the log level and event retention at once', async () => {
    const t = await core();
    const res = await call(t, 'PUT', '/settings/logging', { level: 'debug', event_retention_count: 500, event_retention_days: 3 });
    expect(res.status).toBe(200);
    expect(t.core.kernel.logs.getLevel()).toBe('debug');
    expect(t.core.kernel.events.getRetention()).toEqual({ maxCount: 500, maxAgeDays: 3 });
    const changed = t.core.kernel.events.all().filter((e) => e.kind === 'settings.changed');
    expect(changed.at(-1)?.detail).toEqual({ sections: ['logging'] });
  });

  it('keeps settings across a restart on the same data directory and applies them at start', async () => {
    const { dir, remove } = await tempDir();
    dirs.push(remove);
    const first = await core(dir);
    expect((await call(first, 'PUT', '/settings/logging', { level: 'error', event_retention_days: 7 })).status).toBe(200);
    expect((await call(first, 'PUT', '/settings/general', { server_name: 'pxe-kept' })).status).toBe(200);
    await first.close();

    const second = await core(dir);
    const all = (await call(second, 'GET', '/settings')).body.data as { general: { server_name: string }; logging: { level: string } };
    expect(all.general.server_name).toBe('pxe-kept');
    expect(all.logging.level).toBe('error');
    expect(second.core.kernel.logs.getLevel()).toBe('error');
    expect(second.core.kernel.events.getRetention().maxAgeDays).toBe(7);
  });

  it('lets the Host guard accept the allowed_hosts names', async () => {
    const t = await core();
    const probe = (host: string) => t.core.http.inject({ method: 'GET', url: '/api/v1/version', headers: { ...as('viewer'), host } });
    // Set before the first request, so the guard's 10 s name cache starts with it.
    await t.core.kernel.settings.update({ general: { allowed_hosts: ['pxe.lab.example', 'fd00::80'] } });
    expect((await probe('pxe.lab.example:8080')).statusCode).toBe(200);
    expect((await probe('[fd00::80]:8080')).statusCode).toBe(200);
    const rejected = await probe('evil.example');
    expect(rejected.statusCode).toBe(403);
    expect(rejected.json().code).toBe('HOST_REJECTED');
  });

  it('GET /settings is the union of the sections and PUT /settings takes a partial update', async () => {
    const t = await core();
    const all = (await call(t, 'GET', '/settings')).body.data;
    expect(Object.keys(all)).toEqual(['general', 'interfaces', 'netboot', 'logging']);
    expect(all.interfaces).toEqual({ served: 'auto', server_addresses: [] });

    const res = await call(t, 'PUT', '/settings', {
      netboot: { menu_timeout_seconds: 30 },
      interfaces: { served: ['eth9'], server_addresses: [{ subnet: '10.50.0.0/24', address: '10.50.0.2' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...all,
      netboot: { ...(all.netboot as object), menu_timeout_seconds: 30 },
      interfaces: { served: ['eth9'], server_addresses: [{ subnet: '10.50.0.0/24', address: '10.50.0.2' }] },
    });
    expect((await call(t, 'GET', '/settings/netboot')).body.data).toMatchObject({ menu_timeout_seconds: 30, default_action: 'menu' });

    // What GET /settings returns can be sent back as is.
    expect((await call(t, 'PUT', '/settings', res.body.data, 'admin')).status).toBe(200);
  });
});
