import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

let t: TestCore;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
  // Reservations need the host's address inside a configured DHCP subnet.
  await t.core.area('dhcp').settings.update({
    subnets: [{ subnet: '10.77.0.0/24', ranges: [], lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] }],
  });
});
afterAll(async () => t.close());

interface Reply {
  status: number;
  body: { success: boolean; data: Record<string, unknown> & Record<string, unknown>[]; meta?: { total: number }; error?: string; code?: string; details?: { field: string; message: string }[] };
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, role: Role = 'operator'): Promise<Reply> {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() };
}

async function createHost(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await call('POST', '/hosts', body);
  expect(res.status, res.body.error).toBe(201);
  return res.body.data;
}

let macCounter = 0x10;
function nextMac(): string {
  macCounter += 1;
  return `52-54-00-AB-00-${macCounter.toString(16).padStart(2, '0').toUpperCase()}`;
}

describe('what each host boots next, and its lifecycle (issue 18)', () => {
  it('shows the effective boot and its source in the list and on the host: own profile, group default, netboot default, disabled, denied', async () => {
    const profile = (await call('POST', '/profiles', { name: 'ubuntu-autoinstall-eb', boot_type: 'local', default_for_groups: ['k8s-eb'] })).body.data;
    const own = (await call('POST', '/profiles', { name: 'own-eb', boot_type: 'local' })).body.data;
    const grouped = await createHost({ mac: nextMac(), hostname: 'cp-1', group: 'K8s-eb' });
    const assigned = await createHost({ mac: nextMac(), profile_id: own.id, group: 'k8s-eb' });
    const plain = await createHost({ mac: nextMac() });
    const disabled = await createHost({ mac: nextMac(), group: 'k8s-eb', enabled: false });
    expect(grouped.effective_boot).toEqual({ action: 'profile', profile_id: profile.id, profile_name: 'ubuntu-autoinstall-eb', task_id: null, source: 'group', text: 'profile "ubuntu-autoinstall-eb" (group "K8s-eb" default)' });
    expect(assigned.effective_boot).toMatchObject({ action: 'profile', profile_id: own.id, source: 'host' });
    expect(plain.effective_boot).toMatchObject({ action: 'menu', source: 'global_default', text: 'the boot menu (netboot default)' });
    expect(disabled.effective_boot).toMatchObject({ action: 'local', source: 'disabled' });
    const listed = (await call('GET', `/hosts?q=cp-1`, undefined, 'viewer')).body.data[0]!;
    expect(listed.effective_boot).toEqual(grouped.effective_boot);
    // The profiles say who uses them: the group default counts the hosts booting it (not the disabled one, not the assigned one).
    const profiles = (await call('GET', '/profiles?q=-eb', undefined, 'viewer')).body.data;
    expect(Object.fromEntries(profiles.map((row) => [row.name, row.used_by]))).toEqual({ 'ubuntu-autoinstall-eb': { assigned: 0, by_group: 1 }, 'own-eb': { assigned: 1, by_group: 0 } });
    expect((await call('GET', `/profiles/${String(own.id)}`, undefined, 'viewer')).body.data.used_by).toEqual({ assigned: 1, by_group: 0 });
    await t.core.area('dhcp').access.add('blacklist', { mac: String(plain.mac) });
    expect((await call('GET', `/hosts/${String(plain.id)}`, undefined, 'viewer')).body.data.effective_boot).toMatchObject({ action: 'denied', source: 'access_lists' });
  });

  it('lifecycle: new until it boots, discovered when recorded unknown, ready once known and booted; filterable', async () => {
    const fresh = await createHost({ mac: nextMac(), hostname: 'fresh-lc' });
    expect(fresh.lifecycle).toBe('new');
    const mac = nextMac().toLowerCase().replaceAll('-', ':');
    const discovered = await t.core.area('hosts').recordBoot(mac, { ip: '10.77.0.99', arch: 'x86_64', platform: 'efi' }, { discover: true });
    expect((await call('GET', `/hosts/${String(discovered!.id)}`, undefined, 'viewer')).body.data.lifecycle).toBe('discovered');
    const adopted = await call('PUT', `/hosts/${String(discovered!.id)}`, { discovered: false });
    expect(adopted.body.data.lifecycle).toBe('ready');
    const news = (await call('GET', '/hosts?lifecycle=new&size=500', undefined, 'viewer')).body.data;
    expect(news.map((host) => host.hostname)).toContain('fresh-lc');
    expect(news.every((host) => host.lifecycle === 'new')).toBe(true);
    expect((await call('GET', '/hosts?lifecycle=booting', undefined, 'viewer')).status).toBe(400);
  });

  it('events about a host carry its name as it is now, not just its id', async () => {
    const host = await createHost({ mac: nextMac(), hostname: 'named-ev' });
    t.core.kernel.events.emit({ kind: 'test.host_event', message: 'about a host', host_id: Number(host.id) });
    const read = async () => (await call('GET', '/events?kind=test.host_event', undefined, 'viewer')).body.data[0]!;
    expect(await read()).toMatchObject({ host_id: host.id, host_name: 'named-ev' });
    await call('PUT', `/hosts/${String(host.id)}`, { hostname: 'renamed-ev' });
    expect(await read()).toMatchObject({ host_name: 'renamed-ev' });
    await call('DELETE', `/hosts/${String(host.id)}`);
    expect(await read()).not.toHaveProperty('host_name');
  });

  it('the dashboard summary: counts by lifecycle that add up, hosts waiting for adoption, boots that failed in the last hour', async () => {
    const mac = nextMac().toLowerCase().replaceAll('-', ':');
    // A boot whose script failed to render: its timeline outcome is failed.
    t.core.kernel.events.emit({ kind: 'boot.script_failed', level: 'error', message: 'the script failed', mac, ip: '10.77.0.98', detail: { script: 'host', error: 'x' } });
    const summary = (await call('GET', '/hosts/summary', undefined, 'viewer')).body.data as unknown as {
      total: number;
      by_lifecycle: Record<string, number>;
      waiting_adoption: number;
      failed_boots_last_hour: { mac: string; boot: { outcome: string } }[];
    };
    const listed = (await call('GET', '/hosts?size=500', undefined, 'viewer')).body;
    expect(summary.total).toBe(listed.meta!.total);
    expect(Object.values(summary.by_lifecycle).reduce((sum, count) => sum + count, 0)).toBe(summary.total);
    expect(summary.by_lifecycle['new']).toBe(listed.data.filter((host) => host.lifecycle === 'new').length);
    expect(summary.waiting_adoption).toBe(listed.data.filter((host) => host.discovered === true).length);
    expect(summary.failed_boots_last_hour.map((failed) => [failed.mac, failed.boot.outcome])).toContainEqual([mac, 'failed']);
  });
});

describe('hosts CRUD', () => {
  it('creates a host with every field, normalising the MAC, and reads it back', async () => {
    const mac = nextMac();
    const host = await createHost({
      mac,
      hostname: 'Web01',
      group: 'lab',
      tags: ['rack-1', 'gpu'],
      description: 'the web server',
      arch: 'x86_64',
      enabled: true,
    });
    expect(host).toMatchObject({
      mac: mac.toLowerCase().replaceAll('-', ':'),
      hostname: 'web01',
      ip: null,
      profile_id: null,
      group: 'lab',
      tags: ['rack-1', 'gpu'],
      description: 'the web server',
      arch: 'x86_64',
      platform: null,
      enabled: true,
      discovered: false,
      last_boot_at: null,
      last_seen_ip: null,
    });
    expect(Object.keys(host).sort()).toEqual(
      ['arch', 'boot_loader', 'created_at', 'description', 'discovered', 'effective_boot', 'enabled', 'group', 'hostname', 'id', 'ip', 'last_boot_at', 'last_seen_ip', 'lifecycle', 'mac', 'platform', 'profile_id', 'tags', 'updated_at'].sort(),
    );
    const read = await call('GET', `/hosts/${String(host.id)}`, undefined, 'viewer');
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(host);
  });

  it('accepts the Cisco and bare-hex MAC spellings and refuses a duplicate in any spelling with 409', async () => {
    const host = await createHost({ mac: '5254.00ab.0f01' });
    expect(host.mac).toBe('52:54:00:ab:0f:01');
    const dup = await call('POST', '/hosts', { mac: '525400AB0F01' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
    expect(dup.body.error).toContain('52:54:00:ab:0f:01');
    // Changing another host's MAC to a taken one is a conflict too.
    const other = await createHost({ mac: nextMac() });
    const clash = await call('PUT', `/hosts/${String(other.id)}`, { mac: '52:54:00:ab:0f:01' });
    expect(clash.status).toBe(409);
  });

  it('updates only the fields sent and deletes, returning the deleted host', async () => {
    const host = await createHost({ mac: nextMac(), hostname: 'db01', tags: ['a'] });
    const updated = await call('PUT', `/hosts/${String(host.id)}`, { description: 'database', enabled: false });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ hostname: 'db01', tags: ['a'], description: 'database', enabled: false });
    const cleared = await call('PUT', `/hosts/${String(host.id)}`, { hostname: null, group: null });
    expect(cleared.body.data).toMatchObject({ hostname: null, group: null });
    const removed = await call('DELETE', `/hosts/${String(host.id)}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.id).toBe(host.id);
    expect((await call('GET', `/hosts/${String(host.id)}`, undefined, 'viewer')).status).toBe(404);
    expect((await call('DELETE', `/hosts/${String(host.id)}`)).status).toBe(404);
  });

  it('rejects bad input with a 400 naming the field, and stores nothing', async () => {
    const before = (await call('GET', '/hosts?size=500', undefined, 'viewer')).body.meta!.total;
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'mac'],
      [{ mac: 'not-a-mac' }, 'mac'],
      [{ mac: 'ff:ff:ff:ff:ff:ff' }, 'mac'],
      [{ mac: nextMac(), hostname: 'bad_name!' }, 'hostname'],
      [{ mac: nextMac(), hostname: '10.0.0.1' }, 'hostname'],
      [{ mac: nextMac(), ip: '10.77.0.300' }, 'ip'],
      [{ mac: nextMac(), ip: 'fe80::1' }, 'ip'],
      [{ mac: nextMac(), tags: ['ok', 'OK'] }, 'tags'],
      [{ mac: nextMac(), tags: ['has space'] }, 'tags'],
      [{ mac: nextMac(), group: '-lead' }, 'group'],
      [{ mac: nextMac(), profile_id: 999 }, 'profile_id'],
      [{ mac: nextMac(), arch: 'X86-64' }, 'arch'],
      [{ mac: nextMac(), last_boot_at: '2020-01-01T00:00:00Z' }, 'last_boot_at'],
      [{ mac: nextMac(), enabled: 'yes' }, 'enabled'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/hosts', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.details ?? res.body.error), JSON.stringify(body)).toContain(field);
    }
    expect((await call('GET', '/hosts?size=500', undefined, 'viewer')).body.meta!.total).toBe(before);
    const host = await createHost({ mac: nextMac() });
    expect((await call('PUT', `/hosts/${String(host.id)}`, {})).status).toBe(400);
    expect((await call('PUT', `/hosts/${String(host.id)}`, { hostname: '-x-' })).status).toBe(400);
    expect((await call('GET', `/hosts/${String(host.id)}`, undefined, 'viewer')).body.data.hostname).toBeNull();
  });

  it('lets viewers read and only operators write', async () => {
    expect((await call('GET', '/hosts', undefined, 'viewer')).status).toBe(200);
    expect((await call('POST', '/hosts', { mac: nextMac() }, 'viewer')).status).toBe(403);
  });
});

describe('hosts list filters', () => {
  it('filters by q, group, tag, profile_id, discovered and enabled, with paging and sort', async () => {
    const profile = await call('POST', '/profiles', { name: 'Filter target', boot_type: 'local' });
    expect(profile.status).toBe(201);
    const profileId = profile.body.data.id as number;
    const a = await createHost({ mac: nextMac(), hostname: 'filter-a', group: 'Filters', tags: ['alpha'], profile_id: profileId });
    const b = await createHost({ mac: nextMac(), hostname: 'filter-b', group: 'filters', tags: ['beta'], enabled: false });
    const c = await createHost({ mac: nextMac(), hostname: 'filter-c', group: 'other', tags: ['Alpha'], discovered: true });
    const ids = (res: Reply) => (res.body.data as unknown as { id: number }[]).map((host) => host.id);
    const get = (query: string) => call('GET', `/hosts?${query}`, undefined, 'viewer');

    expect(ids(await get('q=filter-'))).toEqual([a.id, b.id, c.id]);
    expect(ids(await get('group=filters'))).toEqual([a.id, b.id]);
    expect(ids(await get('tag=alpha'))).toEqual([a.id, c.id]);
    expect(ids(await get(`profile_id=${profileId}`))).toEqual([a.id]);
    expect(ids(await get('q=filter-&discovered=true'))).toEqual([c.id]);
    expect(ids(await get('q=filter-&enabled=false'))).toEqual([b.id]);
    expect(ids(await get('q=filter-&sort=-hostname'))).toEqual([c.id, b.id, a.id]);
    const page = await get('q=filter-&size=2&page=2');
    expect(page.body.meta).toEqual({ total: 3, page: 2, size: 2 });
    expect(ids(page)).toEqual([c.id]);
    // A MAC matches in the spellings people type.
    const mac = String(a.mac);
    expect(ids(await get(`q=${mac.replaceAll(':', '-').toUpperCase()}`))).toEqual([a.id]);
    expect(ids(await get(`q=${mac.replaceAll(':', '')}`))).toEqual([a.id]);
    expect((await get('sort=nonsense')).status).toBe(400);
    expect((await get('profile_id=abc')).status).toBe(400);
  });
});

describe('hosts and DHCP reservations', () => {
  const reservationFor = (hostId: number) => t.core.area('dhcp').reservations.list().find((row) => row.host_id === hostId);

  it('creates, moves and removes the reservation with the host', async () => {
    const host = await createHost({ mac: nextMac(), hostname: 'pxe01', ip: '10.77.0.21' });
    const id = host.id as number;
    expect(reservationFor(id)).toMatchObject({ mac: host.mac, ip: '10.77.0.21', hostname: 'pxe01' });
    await call('PUT', `/hosts/${id}`, { ip: '10.77.0.22', hostname: 'pxe01b' });
    expect(reservationFor(id)).toMatchObject({ ip: '10.77.0.22', hostname: 'pxe01b' });
    await call('PUT', `/hosts/${id}`, { ip: null });
    expect(reservationFor(id)).toBeUndefined();
    await call('PUT', `/hosts/${id}`, { ip: '10.77.0.23' });
    expect(reservationFor(id)).toMatchObject({ ip: '10.77.0.23' });
    await call('DELETE', `/hosts/${id}`);
    expect(reservationFor(id)).toBeUndefined();
  });

  it('fails the host write when the reservation refuses the address, changing nothing', async () => {
    const before = (await call('GET', '/hosts?size=500', undefined, 'viewer')).body.meta!.total;
    const outside = await call('POST', '/hosts', { mac: nextMac(), ip: '192.168.200.5' });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toContain('192.168.200.5');
    const first = await createHost({ mac: nextMac(), ip: '10.77.0.40' });
    const taken = await call('POST', '/hosts', { mac: nextMac(), ip: '10.77.0.40' });
    expect(taken.status).toBe(409);
    expect((await call('GET', '/hosts?size=500', undefined, 'viewer')).body.meta!.total).toBe(before + 1);

    const second = await createHost({ mac: nextMac(), ip: '10.77.0.41', hostname: 'keep' });
    const move = await call('PUT', `/hosts/${String(second.id)}`, { ip: '10.77.0.40', hostname: 'changed' });
    expect(move.status).toBe(409);
    expect((await call('GET', `/hosts/${String(second.id)}`, undefined, 'viewer')).body.data).toMatchObject({ ip: '10.77.0.41', hostname: 'keep' });
    expect(reservationFor(second.id as number)).toMatchObject({ ip: '10.77.0.41' });
    expect(reservationFor(first.id as number)).toMatchObject({ ip: '10.77.0.40' });
  });
});
