import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { subnetConfig, TEST_NICS } from '../../unit/dhcp/server/dhcp-test-kit.js';

/*
 * The API-wide input rules (docs/api.md): ids in paths only in canonical
 * decimal, printable text in names and descriptions, unicast MACs where a
 * NIC is meant, and no unspecified/broadcast/multicast addresses as record
 * values or reserved addresses. Through the IPC transport (the local admin).
 */

let t: TestCore;

beforeAll(async () => {
  t = await createTestCore({ nicReader: () => TEST_NICS });
  await api('PUT', '/services/dhcp', { subnets: [subnetConfig()] });
});

afterAll(async () => {
  await t?.close();
});

interface Envelope {
  success: boolean;
  data?: Record<string, unknown>;
  code?: string;
  error?: string;
  details?: { field: string; message: string }[];
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope }> {
  const response = await t.core.ipc.invoke(body === undefined ? { method, path: `/api/v1${path}` } : { method, path: `/api/v1${path}`, body });
  return { status: response.status, body: response.body as Envelope };
}

async function expectRefused(method: string, path: string, body: unknown, field: string, message?: RegExp): Promise<void> {
  const res = await api(method, path, body);
  expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
  expect(res.body.code).toBe('VALIDATION_FAILED');
  expect(res.body.details?.map((d) => d.field)).toContain(field);
  if (message) expect(res.body.details?.find((d) => d.field === field)?.message).toMatch(message);
}

describe('integer ids in paths', () => {
  it('accepts only canonical decimal: " 27", "27.0", "2.7e1", "+27", "027", "0x1b" delete nothing', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api('POST', '/dns/records', { name: `id${i}`, type: 'A', value: '10.0.0.9' })).body.data!.id as number);
    const id = ids[2]!;
    const spellings = [`%20${id}`, `${id}%20`, `${id}.0`, `${id / 10}e1`, `+${id}`, `0${id}`, `0x${id.toString(16)}`, `${id}e0`, '9007199254740993', '1e400'];
    for (const spelling of spellings) {
      const res = await api('DELETE', `/dns/records/${spelling}`);
      expect(res.status, spelling).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'params.id' }] });
    }
    expect(t.core.area('dns').records.all().map((record) => record.id)).toEqual(expect.arrayContaining(ids));
    expect((await api('DELETE', `/dns/records/${id}`)).status).toBe(200);
    expect((await api('GET', `/dns/records/${id}`)).status).toBe(404);
  });

  it('holds for every route with integer path params', async () => {
    for (const path of ['/hosts/+1', '/users/1.0', '/tokens/%201', '/dhcp/reservations/01', '/wol/schedule/1e0', '/access/whitelist/+1', '/bmc/configs/0x1']) {
      const method = path.startsWith('/hosts') || path.startsWith('/dhcp') || path.startsWith('/bmc') ? 'GET' : 'DELETE';
      const res = await api(method, path);
      expect(res.status, path).toBe(400);
      expect(res.body.details?.[0]?.field).toBe('params.id');
    }
    const profile = await api('GET', '/profiles/+1/script-versions/01');
    expect(profile.status).toBe(400);
    expect(profile.body.details?.map((d) => d.field)).toEqual(['params.profileId', 'params.verId']);
    // Zero is canonical: it reaches the schema's minimum (1) rather than the canonical check.
    expect((await api('GET', '/hosts/0')).body.details?.[0]?.message).toContain('>= 1');
  });

  it('holds for integer query parameters too (page, size)', async () => {
    for (const query of ['page=%2B1', 'page=1.0', 'size=1e1', 'size=010', 'page=%201']) {
      const res = await api('GET', `/dns/records?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.details?.[0]?.field, query).toMatch(/^querystring\.(page|size)$/);
    }
    expect((await api('GET', '/dns/records?page=1&size=10')).status).toBe(200);
  });
});

describe('printable text in names and descriptions', () => {
  const bad = { nul: 'a\u0000b', bidi: 'invoice\u202etxt.exe', isolate: 'x\u2066y', lone: 'half\ud800', c1: 'x\u0085y', newline: 'two\nlines' };

  it('refuses control characters, bidi overrides and isolates and lone surrogates in every such field', async () => {
    for (const [what, text] of Object.entries(bad)) {
      await expectRefused('POST', '/hosts', { mac: '52:54:00:00:10:01', description: text }, 'body.description', /printable/);
      await expectRefused('POST', '/dns/records', { name: `p-${what}`, type: 'A', value: '10.0.0.1', comment: text }, 'body.comment', /printable/);
      await expectRefused('POST', '/tokens', { name: text, role: 'viewer' }, 'body.name', /printable/);
      await expectRefused('POST', '/bmc/configs', { name: text, address: '192.0.2.10', username: 'admin' }, 'body.name', /printable/);
      await expectRefused('POST', '/bmc/configs', { name: `bmc-${what}`, address: '192.0.2.10', username: text }, 'body.username', /printable/);
      await expectRefused('POST', '/wol/schedule', { name: text, macs: ['52:54:00:00:10:02'], cron: '0 6 * * 1' }, 'body.name', /printable/);
      await expectRefused('POST', '/access/whitelist', { mac: '52:54:00:00:10:03', comment: text }, 'body.comment', /printable/);
      await expectRefused('POST', '/profiles', { name: text, boot_type: 'local' }, 'body.name');
      await expectRefused('POST', '/profiles', { name: `prof-${what}`, boot_type: 'local', description: text }, 'body.description', /printable/);
    }
    expect(t.core.area('dns').records.all().filter((record) => record.name.startsWith('p-'))).toEqual([]);
  });

  it('keeps accepting any other Unicode text', async () => {
    const text = 'Rack 3 – Büro ☕ 机房 😀 \u200d';
    expect((await api('POST', '/dns/records', { name: 'unicode', type: 'A', value: '10.0.0.1', comment: text })).body.data?.comment).toBe(text);
    expect((await api('POST', '/hosts', { mac: '52:54:00:00:10:09', description: text })).body.data?.description).toBe(text);
    expect((await api('POST', '/profiles', { name: 'Büro ☕ 😀', boot_type: 'local', description: text })).status).toBe(201);
    expect((await api('POST', '/tokens', { name: 'Büro 😀', role: 'viewer' })).status).toBe(201);
  });

  it('applies to records created without the API schema too (the domain check)', async () => {
    await expect(t.core.area('dns').records.create({ name: 'direct', type: 'A', value: '10.0.0.1', comment: 'a\u202eb' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('unicast MAC addresses', () => {
  const notNic = { broadcast: 'ff:ff:ff:ff:ff:ff', zero: '00-00-00-00-00-00', multicast: '01:00:5e:00:00:fb', group: '33:33:00:00:00:01' };

  it('refuses broadcast, all-zero and multicast MACs for reservations, hosts, access lists and wake schedules', async () => {
    let n = 20;
    for (const [what, mac] of Object.entries(notNic)) {
      const message = what === 'zero' ? /all-zero/ : what === 'broadcast' ? /broadcast/ : /multicast/;
      await expectRefused('POST', '/dhcp/reservations', { mac, ip: `10.50.0.${n++}` }, 'body.mac', message);
      await expectRefused('POST', '/hosts', { mac }, 'body.mac', message);
      await expectRefused('POST', '/access/blacklist', { mac }, 'body.mac', message);
      await expectRefused('POST', '/wol/schedule', { name: `wake-${what}`, macs: ['52:54:00:00:20:01', mac], cron: '0 6 * * 1' }, 'body.macs.1', message);
    }
    expect(t.core.area('dhcp').reservations.list()).toEqual([]);
    // A locally administered unicast MAC (bit 1 set, bit 0 clear) is a NIC's.
    expect((await api('POST', '/dhcp/reservations', { mac: '02:00:00:00:30:01', ip: '10.50.0.30' })).status).toBe(201);
  });
});

describe('addresses that name no single machine', () => {
  it('refuses unspecified, broadcast and multicast A/AAAA values', async () => {
    const cases: [string, string, RegExp][] = [
      ['A', '0.0.0.0', /unspecified/],
      ['A', '0.1.2.3', /unspecified/],
      ['A', '255.255.255.255', /broadcast/],
      ['A', '224.0.0.251', /multicast/],
      ['A', '239.255.255.250', /multicast/],
      ['AAAA', '::', /unspecified/],
      ['AAAA', '0:0:0:0:0:0:0:0', /unspecified/],
      ['AAAA', 'ff02::fb', /multicast/],
      ['AAAA', 'FF05::1:3', /multicast/],
    ];
    for (const [type, value, message] of cases) await expectRefused('POST', '/dns/records', { name: 'special', type, value }, 'body.value', message);
    expect(t.core.area('dns').records.all().filter((record) => record.name === 'special')).toEqual([]);
    expect((await api('POST', '/dns/records', { name: 'special', type: 'A', value: '10.0.0.255' })).status).toBe(201);
    expect((await api('POST', '/dns/records', { name: 'special', type: 'AAAA', value: '2001:db8::ff' })).status).toBe(201);
  });

  it('names the reason for a reserved or host address that is broadcast, unspecified or multicast', async () => {
    await expectRefused('POST', '/dhcp/reservations', { mac: '52:54:00:00:40:01', ip: '255.255.255.255' }, 'body.ip', /broadcast/);
    await expectRefused('POST', '/dhcp/reservations', { mac: '52:54:00:00:40:01', ip: '0.0.0.0' }, 'body.ip', /unspecified/);
    await expectRefused('POST', '/hosts', { mac: '52:54:00:00:40:02', ip: '224.0.0.1' }, 'body.ip', /multicast/);
  });
});

describe('enum values in errors', () => {
  it('names the allowed values of an enum, a literal union and an enum-or-list union', async () => {
    await expectRefused('PUT', '/services/dhcp', { interfaces: [{ name: 'eth1', mode: 'bogus' }] }, 'body.interfaces.0.mode', /^must be one of server, proxy, off$/);
    await expectRefused('PUT', '/settings/netboot', { default_action: 'x' }, 'body.default_action', /^must be one of menu, local, profile$/);
    await expectRefused('PUT', '/settings/interfaces', { served: 'x' }, 'body.served', /^must be auto, or an array$/);
    const res = await api('PUT', '/settings/interfaces', { served: 'x' });
    expect(res.body.details).toHaveLength(1);
    expect(res.body.error).not.toMatch(/allowed values|anyOf/);
  });
});
