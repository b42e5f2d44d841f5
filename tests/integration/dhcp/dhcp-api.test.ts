import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Lease } from '../../../src-main/dhcp/leases.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { subnetConfig, TEST_NICS } from '../../unit/dhcp/server/dhcp-test-kit.js';

/*
 * The DHCP area's REST API through the IPC transport (the local admin):
 * settings with validation, architecture map, reservations, access lists,
 * unauthorized devices, leases with stats, deletion and prune.
 */

let t: TestCore;
beforeEach(async () => {
  t = await createTestCore({ nicReader: () => TEST_NICS });
});
afterEach(async () => {
  await t.close();
});

interface Envelope {
  success: boolean;
  data?: unknown;
  meta?: { total: number; page: number; size: number };
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope }> {
  const response = await t.core.ipc.invoke(body === undefined ? { method, path: `/api/v1${path}` } : { method, path: `/api/v1${path}`, body });
  return { status: response.status, body: response.body as Envelope };
}

function lease(n: number, overrides: Partial<Lease> = {}): Lease {
  const now = Date.now();
  return {
    mac: `52:54:00:00:00:${n.toString(16).padStart(2, '0')}`,
    ip: (10 << 24) + (50 << 16) + 100 + n,
    starts: now,
    expires: now + 600_000,
    hostname: `pc${n}`,
    clientId: null,
    vendorClass: 'PXEClient:Arch:00007',
    arch: 7,
    ...overrides,
  };
}

describe('GET/PUT /services/dhcp', () => {
  it('accepts a subnet of only subnet and ranges, filling in the defaults, and router "none"', async () => {
    const put = await api('PUT', '/services/dhcp', { subnets: [{ subnet: '10.50.0.0/24', ranges: [{ start: '10.50.0.100', end: '10.50.0.199' }] }, { subnet: '10.60.0.0/24', ranges: [], router: 'none' }] });
    expect(put.status, put.body.error).toBe(200);
    expect((put.body.data as { subnets: unknown[] }).subnets).toEqual([
      { subnet: '10.50.0.0/24', ranges: [{ start: '10.50.0.100', end: '10.50.0.199' }], lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] },
      { subnet: '10.60.0.0/24', ranges: [], lease_time_seconds: null, router: 'none', dns_servers: null, domain_name: null, ntp_servers: [], options: [] },
    ]);
    const bad = await api('PUT', '/services/dhcp', { subnets: [{ subnet: '10.50.0.0/24', ranges: [], router: 'nobody' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.map((d) => d.field)).toContain('body.subnets.0.router');
  });

  it('returns the defaults: nothing served, open access', async () => {
    const { status, body } = await api('GET', '/services/dhcp');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ interfaces: [], subnets: [], authoritative: true, ping_check: false, access_mode: 'open', default_lease_time_seconds: 3600 });
  });

  it('stores valid settings and returns them', async () => {
    const { status, body } = await api('PUT', '/services/dhcp', {
      interfaces: [{ name: 'eth1', mode: 'server' }],
      subnets: [subnetConfig({ options: [{ code: 252, type: 'string', value: 'http://wpad/wpad.dat' }, { code: 150, type: 'ips', value: ['10.50.0.1'] }] })],
      ping_check: true,
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ ping_check: true, interfaces: [{ name: 'eth1', mode: 'server' }] });
    expect((await api('GET', '/services/dhcp')).body.data).toMatchObject({ ping_check: true });
  });

  const invalidCases: [string, unknown, string][] = [
    ['a range outside its subnet', { subnets: [subnetConfig({ ranges: [{ start: '10.50.1.10', end: '10.50.1.20' }] })] }, 'body.subnets[0].ranges[0].start'],
    ['overlapping ranges', { subnets: [subnetConfig({ ranges: [{ start: '10.50.0.10', end: '10.50.0.50' }, { start: '10.50.0.40', end: '10.50.0.60' }] })] }, 'body.subnets[0].ranges[1]'],
    ['the server\'s own address in a range', { subnets: [subnetConfig({ ranges: [{ start: '10.50.0.1', end: '10.50.0.20' }] })] }, 'body.subnets[0].ranges[0]'],
    ['overlapping subnets', { subnets: [subnetConfig(), subnetConfig({ subnet: '10.50.0.0/16', ranges: [] })] }, 'body.subnets[1].subnet'],
    ['host bits in a subnet', { subnets: [subnetConfig({ subnet: '10.50.0.1/24' })] }, 'body.subnets[0].subnet'],
    ['an option of the wrong type', { subnets: [subnetConfig({ options: [{ code: 200, type: 'uint8', value: 300 }] })] }, 'body.subnets[0].options[0].value'],
    ['a server-owned option', { subnets: [subnetConfig({ options: [{ code: 53, type: 'uint8', value: 1 }] })] }, 'body.subnets[0].options[0].code'],
    ['an interface listed twice', { interfaces: [{ name: 'eth1', mode: 'server' }, { name: 'eth1', mode: 'proxy' }] }, 'body.interfaces[1].name'],
  ];
  for (const [what, body, field] of invalidCases) {
    it(`rejects ${what} with a 400 naming ${field}, changing nothing`, async () => {
      const response = await api('PUT', '/services/dhcp', body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.details?.map((d) => d.field)).toContain(field);
      expect((await api('GET', '/services/dhcp')).body.data).toMatchObject({ subnets: [] });
    });
  }

  it('rejects unknown fields and wrong types by schema', async () => {
    expect((await api('PUT', '/services/dhcp', { nonsense: 1 })).status).toBe(400);
    expect((await api('PUT', '/services/dhcp', { interfaces: [{ name: 'eth1', mode: 'relay' }] })).status).toBe(400);
  });
});

describe('/services/archmap', () => {
  it('lists the IANA-based defaults: BIOS undionly.kpxe, UEFI x64 ipxe.efi, ARM64 ipxe-arm64.efi, x64 HTTP', async () => {
    const { body } = await api('GET', '/services/archmap');
    const entries = (body.data as { entries: { code: number; boot_file: string; http_boot_url_path: string | null; alternatives: string[] }[] }).entries;
    const byCode = new Map(entries.map((e) => [e.code, e]));
    expect(byCode.get(0)?.boot_file).toBe('undionly.kpxe');
    expect(byCode.get(7)).toMatchObject({ boot_file: 'ipxe.efi', alternatives: ['snponly.efi'] });
    expect(byCode.get(11)?.boot_file).toBe('ipxe-arm64.efi');
    expect(byCode.get(16)?.http_boot_url_path).toBe('ipxe.efi');
    for (const code of [6, 10, 18, 19, 25, 27, 39]) expect(byCode.has(code)).toBe(true);
  });

  it('replaces the map and restores the defaults', async () => {
    const defaults = (await api('GET', '/services/archmap/defaults')).body.data as { entries: { code: number; boot_file: string | null }[] };
    const edited = defaults.entries.map((e) => (e.code === 7 ? { ...e, boot_file: 'snponly.efi' } : e));
    const put = await api('PUT', '/services/archmap', { entries: edited });
    expect(put.status).toBe(200);
    expect((await api('GET', '/services/archmap')).body.data).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ code: 7, boot_file: 'snponly.efi' })]) });
    expect((await api('PUT', '/services/archmap', defaults)).status).toBe(200);
    expect((await api('GET', '/services/archmap')).body.data).toEqual(defaults);
  });

  it('takes entries without http_boot_url_path and alternatives (defaults null and [])', async () => {
    const put = await api('PUT', '/services/archmap', { entries: [{ code: 7, name: 'EFI x64', boot_file: 'ipxe.efi' }] });
    expect(put.status, put.body.error).toBe(200);
    expect(put.body.data).toEqual({ entries: [{ code: 7, name: 'EFI x64', boot_file: 'ipxe.efi', http_boot_url_path: null, alternatives: [] }] });
  });

  it('rejects duplicate codes and unsafe paths', async () => {
    const base = { name: 'x', http_boot_url_path: null, alternatives: [] };
    const dup = await api('PUT', '/services/archmap', { entries: [{ ...base, code: 7, boot_file: 'a.efi' }, { ...base, code: 7, boot_file: 'b.efi' }] });
    expect(dup.status).toBe(400);
    expect(dup.body.details?.[0]?.field).toBe('body.entries[1].code');
    const climb = await api('PUT', '/services/archmap', { entries: [{ ...base, code: 7, boot_file: '../etc/passwd' }] });
    expect(climb.status).toBe(400);
    expect(climb.body.details?.[0]?.field).toBe('body.entries[0].boot_file');
  });
});

describe('/dhcp/reservations', () => {
  beforeEach(async () => {
    await api('PUT', '/services/dhcp', { subnets: [subnetConfig()] });
  });

  it('creates, reads, updates, lists and deletes a reservation; MACs are normalised', async () => {
    const created = await api('POST', '/dhcp/reservations', { mac: '52-54-00-AA-BB-CC', ip: '10.50.0.20', hostname: 'node1' });
    expect(created.status).toBe(201);
    const row = created.body.data as { id: number; mac: string };
    expect(row).toMatchObject({ mac: '52:54:00:aa:bb:cc', ip: '10.50.0.20', hostname: 'node1', boot_file: null, options: [], host_id: null });
    expect((await api('GET', `/dhcp/reservations/${row.id}`)).body.data).toMatchObject({ ip: '10.50.0.20' });
    const updated = await api('PUT', `/dhcp/reservations/${row.id}`, { ip: '10.50.0.21', boot_file: 'snponly.efi' });
    expect(updated.body.data).toMatchObject({ ip: '10.50.0.21', boot_file: 'snponly.efi', hostname: 'node1' });
    const list = await api('GET', '/dhcp/reservations?q=node');
    expect(list.body.meta?.total).toBe(1);
    expect((await api('DELETE', `/dhcp/reservations/${row.id}`)).status).toBe(200);
    expect((await api('GET', `/dhcp/reservations/${row.id}`)).status).toBe(404);
  });

  it('409 on a duplicate MAC or IP, 400 outside every subnet or on our own address', async () => {
    await api('POST', '/dhcp/reservations', { mac: '52:54:00:00:00:01', ip: '10.50.0.20' });
    const dupMac = await api('POST', '/dhcp/reservations', { mac: '525400000001', ip: '10.50.0.21' });
    expect(dupMac.status).toBe(409);
    expect(dupMac.body.details?.[0]?.field).toBe('body.mac');
    const dupIp = await api('POST', '/dhcp/reservations', { mac: '52:54:00:00:00:02', ip: '10.50.0.20' });
    expect(dupIp.status).toBe(409);
    expect(dupIp.body.details?.[0]?.field).toBe('body.ip');
    const outside = await api('POST', '/dhcp/reservations', { mac: '52:54:00:00:00:03', ip: '192.168.9.9' });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toMatch(/outside every configured DHCP subnet \(10\.50\.0\.0\/24\)/);
    expect(outside.body.details?.[0]?.field).toBe('body.ip');
    expect((await api('POST', '/dhcp/reservations', { mac: '52:54:00:00:00:04', ip: '10.50.0.1' })).status).toBe(400);
    expect((await api('GET', '/dhcp/reservations')).body.meta?.total).toBe(1);
  });

  it('links reservations to hosts through setForHost and removeForHost', async () => {
    const { reservations } = t.core.area('dhcp');
    await reservations.setForHost({ id: 7, mac: '52:54:00:00:00:07', ip: '10.50.0.70', hostname: 'h7' });
    expect(reservations.forHost(7)).toMatchObject({ ip: '10.50.0.70', host_id: 7 });
    await reservations.setForHost({ id: 7, mac: '52:54:00:00:00:07', ip: '10.50.0.71', hostname: 'h7' });
    expect(reservations.list()).toHaveLength(1);
    expect(reservations.forHost(7)?.ip).toBe('10.50.0.71');
    await expect(reservations.setForHost({ id: 8, mac: '52:54:00:00:00:08', ip: '10.50.0.71', hostname: null })).rejects.toMatchObject({ status: 409 });
    await expect(reservations.setForHost({ id: 8, mac: '52:54:00:00:00:08', ip: '172.16.0.1', hostname: null })).rejects.toMatchObject({ status: 400 });
    await reservations.setForHost({ id: 7, mac: '52:54:00:00:00:07', ip: null, hostname: 'h7' });
    expect(reservations.forHost(7)).toBeUndefined();
    await reservations.setForHost({ id: 9, mac: '52:54:00:00:00:09', ip: '10.50.0.90', hostname: null });
    await reservations.removeForHost(9);
    expect(reservations.list()).toHaveLength(0);
  });
});

describe('/access', () => {
  it('manages the blacklist and whitelist with normalised MACs and 409 on duplicates', async () => {
    for (const list of ['blacklist', 'whitelist']) {
      const created = await api('POST', `/access/${list}`, { mac: '5254.00AA.BBCC', comment: 'lab' });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ mac: '52:54:00:aa:bb:cc', comment: 'lab' });
      expect((await api('POST', `/access/${list}`, { mac: '52:54:00:aa:bb:cc' })).status).toBe(409);
      const listed = await api('GET', `/access/${list}`);
      expect(listed.body.meta?.total).toBe(1);
      const id = (created.body.data as { id: number }).id;
      expect((await api('DELETE', `/access/${list}/${id}`)).status).toBe(200);
      expect((await api('DELETE', `/access/${list}/${id}`)).status).toBe(404);
    }
  });

  it('isAllowed follows the lists and the access mode', async () => {
    const { access } = t.core.area('dhcp');
    await api('POST', '/access/blacklist', { mac: '52:54:00:00:00:01' });
    await api('POST', '/access/whitelist', { mac: '52:54:00:00:00:02' });
    expect(access.isAllowed('52-54-00-00-00-01')).toBe(false);
    expect(access.isAllowed('52:54:00:00:00:03')).toBe(true);
    await api('PUT', '/services/dhcp', { access_mode: 'whitelist' });
    expect(access.isAllowed('52:54:00:00:00:02')).toBe(true);
    expect(access.isAllowed('52:54:00:00:00:03')).toBe(false);
    expect(access.isAllowed('not-a-mac')).toBe(false);
  });

  it('lists unauthorized devices and moves them to a list, one result per id', async () => {
    const { access } = t.core.area('dhcp');
    await access.recordUnauthorized({ mac: '52:54:00:00:00:11', vendor_class: 'PXEClient', arch: 7, hostname: 'a' });
    await access.recordUnauthorized({ mac: '52:54:00:00:00:11' });
    await access.recordUnauthorized({ mac: '52:54:00:00:00:12' });
    await access.recordUnauthorized({ mac: '52:54:00:00:00:13' });
    const listed = await api('GET', '/access/unauthorized?sort=mac');
    const devices = listed.body.data as { id: number; mac: string; count: number; arch: number | null }[];
    expect(devices.map((d) => d.mac)).toEqual(['52:54:00:00:00:11', '52:54:00:00:00:12', '52:54:00:00:00:13']);
    expect(devices[0]).toMatchObject({ count: 2, arch: 7, vendor_class: 'PXEClient', hostname: 'a' });

    const toWhite = await api('POST', '/access/unauthorized/add-to-whitelist', { id: devices[0]!.id });
    expect(toWhite.body.data).toEqual([expect.objectContaining({ id: devices[0]!.id, ok: true, mac: '52:54:00:00:00:11' })]);
    const toBlack = await api('POST', '/access/unauthorized/add-to-blacklist', { ids: [devices[1]!.id, 9999] });
    expect(toBlack.body.data).toEqual([
      expect.objectContaining({ id: devices[1]!.id, ok: true }),
      expect.objectContaining({ id: 9999, ok: false, code: 'NOT_FOUND' }),
    ]);
    expect((await api('POST', '/access/unauthorized/add-to-blacklist', { id: 9999 })).status).toBe(404);
    expect((await api('POST', '/access/unauthorized/add-to-blacklist', { id: 1, ids: [2] })).status).toBe(400);
    expect((await api('GET', '/access/whitelist')).body.data).toEqual([expect.objectContaining({ mac: '52:54:00:00:00:11' })]);
    expect((await api('GET', '/access/blacklist')).body.data).toEqual([expect.objectContaining({ mac: '52:54:00:00:00:12' })]);
    expect((await api('DELETE', `/access/unauthorized/${devices[2]!.id}`)).status).toBe(200);
    expect((await api('GET', '/access/unauthorized')).body.meta?.total).toBe(0);
  });
});

describe('/leases', () => {
  beforeEach(async () => {
    await api('PUT', '/services/dhcp', { subnets: [subnetConfig({ ranges: [{ start: '10.50.0.100', end: '10.50.0.199' }] }), subnetConfig({ subnet: '10.60.0.0/24', ranges: [{ start: '10.60.0.10', end: '10.60.0.19' }], router: null })] });
    const { leases } = t.core.area('dhcp');
    for (let n = 1; n <= 5; n += 1) leases.commit(lease(n));
    leases.commit(lease(6, { expires: Date.now() - 1000 }));
    leases.commit(lease(7, { ip: (10 << 24) + (60 << 16) + 10, hostname: null }));
    await leases.durable();
    await t.core.area('dhcp').reservations.create({ mac: lease(1).mac, ip: '10.50.0.101' });
  });

  it('lists leases with state and subnet filters, search, sort and paging', async () => {
    const all = await api('GET', '/leases');
    expect(all.body.meta?.total).toBe(7);
    expect((all.body.data as { ip: string }[])[0]?.ip).toBe('10.50.0.101');
    expect((await api('GET', '/leases?state=expired')).body.meta?.total).toBe(1);
    expect((await api('GET', '/leases?state=active&subnet=10.60.0.0/24')).body.data).toEqual([expect.objectContaining({ mac: lease(7).mac, subnet: '10.60.0.0/24', hostname: null })]);
    expect((await api('GET', '/leases?q=pc3')).body.data).toEqual([expect.objectContaining({ hostname: 'pc3', state: 'active', arch: 7, arch_name: 'x64 UEFI', reserved: false })]);
    expect((await api('GET', `/leases?q=${lease(1).mac}`)).body.data).toEqual([expect.objectContaining({ reserved: true })]);
    const page = await api('GET', '/leases?sort=-ip&size=2&page=2');
    expect((page.body.data as { ip: string }[]).map((l) => l.ip)).toEqual(['10.50.0.105', '10.50.0.104']);
    expect((await api('GET', '/leases?sort=nonsense')).status).toBe(400);
    expect((await api('GET', '/leases?subnet=bad')).status).toBe(400);
  });

  it('reports statistics per range and overall', async () => {
    const { body } = await api('GET', '/leases/stats');
    const stats = body.data as { overall: Record<string, number>; ranges: Record<string, number | string>[] };
    expect(stats.ranges[0]).toMatchObject({ subnet: '10.50.0.0/24', start: '10.50.0.100', end: '10.50.0.199', size: 100, used: 5, expired: 1, reserved: 0, free: 95, utilisation_percent: 5 });
    expect(stats.ranges[1]).toMatchObject({ subnet: '10.60.0.0/24', size: 10, used: 1, utilisation_percent: 10 });
    expect(stats.overall).toMatchObject({ leases: 7, size: 110, used: 6, expired: 1 });
  });

  it('deletes one lease by MAC in any spelling, several in a batch, and prunes expired ones', async () => {
    const deleted = await api('DELETE', `/leases/${lease(2).mac.replace(/:/g, '-').toUpperCase()}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ mac: lease(2).mac });
    expect((await api('DELETE', `/leases/${lease(2).mac}`)).status).toBe(404);
    const batch = await api('POST', '/leases/batch-delete', { macs: [lease(3).mac, lease(2).mac, 'bogus'] });
    expect(batch.body.data).toEqual([
      { mac: lease(3).mac, ok: true },
      expect.objectContaining({ mac: lease(2).mac, ok: false, code: 'NOT_FOUND' }),
      expect.objectContaining({ mac: 'bogus', ok: false, code: 'VALIDATION_FAILED' }),
    ]);
    const pruned = await api('POST', '/leases/prune');
    expect(pruned.body.data).toEqual({ removed: 1 });
    expect((await api('GET', '/leases')).body.meta?.total).toBe(4);
  });
});
