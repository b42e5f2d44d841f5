import { afterEach, describe, expect, it } from 'vitest';
import { buildNics } from '../../../src-main/network/nic-reader.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { OS_INTERFACES, SYS_LINKS } from '../../unit/network/fixtures.js';
import { as, roleAuthenticator } from './role-authenticator.js';

const opened: TestCore[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function core(options: { fixture?: boolean } = {}): Promise<TestCore> {
  const t = await createTestCore({
    authenticator: roleAuthenticator,
    ...(options.fixture ? { nicReader: () => buildNics(OS_INTERFACES, SYS_LINKS) } : {}),
  });
  opened.push(t);
  return t;
}

async function get(t: TestCore, url: string, role: 'viewer' | 'operator' = 'viewer') {
  const res = await t.core.http.inject({ method: 'GET', url: `/api/v1${url}`, headers: as(role) });
  return { status: res.statusCode, body: res.json() as { data: Record<string, unknown>[] & Record<string, unknown>; meta?: unknown } };
}

describe('GET /interfaces and /network/interfaces', () => {
  it('list this machine\'s interfaces with the documented shape, the same on both paths', async () => {
    const t = await core();
    const a = await get(t, '/interfaces');
    const b = await get(t, '/network/interfaces');
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const loopback = a.body.data.find((nic) => nic.internal === true);
    expect(loopback).toMatchObject({ up: true, link: 'up', internal: true });
    expect(Object.keys(loopback ?? {}).sort()).toEqual(['addresses', 'internal', 'link', 'mac', 'mtu', 'name', 'up']);
    expect((loopback?.addresses as unknown[])[0]).toMatchObject({ address: '127.0.0.1', family: 'ipv4', prefix: 8, cidr: '127.0.0.1/8', subnet: '127.0.0.0/8' });
  });

  it('follow the list conventions: paging, search and sort', async () => {
    const t = await core({ fixture: true });
    const page = await get(t, '/interfaces?size=2&page=2&sort=-name');
    expect(page.body.meta).toEqual({ total: 7, page: 2, size: 2 });
    expect(page.body.data.map((nic) => nic.name)).toEqual(['lo', 'eth2']);
    const search = await get(t, '/interfaces?q=10.20.');
    expect(search.body.data.map((nic) => nic.name)).toEqual(['eth0:1']);
    expect((await get(t, '/interfaces?sort=speed')).status).toBe(400);
    // wlan0 has no carrier: sorting by link puts "down" before "up".
    expect((await get(t, '/interfaces?sort=link&size=1')).body.data.map((nic) => nic.link)).toEqual(['down']);
  });

  it('need authentication', async () => {
    const t = await core();
    const res = await t.core.http.inject({ method: 'GET', url: '/api/v1/interfaces' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /settings/interfaces', () => {
  it('adds the detected interfaces and the resolved per-subnet server addresses', async () => {
    const t = await core({ fixture: true });
    const put = await t.core.http.inject({
      method: 'PUT',
      url: '/api/v1/settings/interfaces',
      headers: as('operator'),
      payload: { served: ['eth0', 'eth1'], server_addresses: [{ subnet: '192.168.10.0/24', address: '192.168.10.250' }] },
    });
    expect(put.statusCode).toBe(200);
    const { data } = (await get(t, '/settings/interfaces')).body;
    expect(data.served).toEqual(['eth0', 'eth1']);
    expect((data.detected_interfaces as { name: string }[]).map((nic) => nic.name)).toContain('eth1');
    expect(data.resolved_addresses).toEqual([
      { interface: 'eth0', subnet: '192.168.10.0/24', address: '192.168.10.250', source: 'override', served: true },
      { interface: 'eth0', subnet: 'fd00:10::/64', address: 'fd00:10::2', source: 'detected', served: true },
      { interface: 'eth0:1', subnet: '10.20.0.0/16', address: '10.20.0.1', source: 'detected', served: false },
      { interface: 'eth2', subnet: '172.16.5.0/24', address: '172.16.5.9', source: 'detected', served: false },
      { interface: 'lo', subnet: '127.0.0.0/8', address: '127.0.0.1', source: 'detected', served: false },
      { interface: 'lo', subnet: '::1/128', address: '::1', source: 'detected', served: false },
    ]);
    expect(t.core.kernel.network.serverAddressFor('192.168.10.33')).toBe('192.168.10.250');
    expect(t.core.kernel.network.serverAddressFor('10.20.1.1')).toBeNull();
    expect(t.core.kernel.network.served().map((s) => s.name)).toEqual(['eth0', 'eth1']);
  });
});
