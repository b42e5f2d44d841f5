import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeMagicPacket } from '../../../src-main/power/wol/magic-packet.js';
import type { TestCore } from '../../helpers/test-core.js';
import { bearerHeaders } from '../../helpers/auth.js';
import { api, eventsOf, powerCore } from './power-harness.js';
import type { WolDatagram } from '../../../src-main/power/index.js';

/*
 * Wake-on-LAN through the API: single and batch wakes by host, interface
 * choice, SecureOn, the history (filters, per-MAC, delete one, clear all
 * with an audit entry). The transport records datagrams; nothing is sent.
 */
let t: TestCore & { sent: WolDatagram[] };
beforeEach(async () => {
  t = await powerCore();
});
afterEach(async () => t.close());

interface WakeResult {
  ok: boolean;
  host_id: number | null;
  mac: string | null;
  interfaces: string[];
  history: { id: number; result: string; trigger: string; user: string; interface: string | null };
  error: string | null;
}

async function host(mac: string): Promise<number> {
  return (await t.core.area('hosts').create({ mac })).id;
}

describe('WOL API', () => {
  it('lists the interfaces that can send WOL with their broadcast addresses', async () => {
    const response = await api<{ name: string; address: string; broadcast: string; served: boolean }[]>(t.core, 'GET', '/wol/interfaces');
    expect(response.status).toBe(200);
    expect(response.body.data.map((row) => `${row.name} ${row.address} ${row.broadcast}`)).toEqual([
      'eth0 192.0.2.1 192.0.2.255',
      'eth1 198.51.100.1 198.51.100.255',
      'eth1 198.51.100.129 198.51.100.255',
    ]);
  });

  it('wakes a host: magic packet to the broadcast address, port 9, socket bound to our address', async () => {
    const id = await host('52:54:00:aa:00:01');
    const response = await api<WakeResult>(t.core, 'POST', `/hosts/${id}/wake`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ ok: true, host_id: id, mac: '52:54:00:aa:00:01', interfaces: ['eth0', 'eth1'], history: { result: 'sent', trigger: 'manual', user: 'local', interface: 'eth0,eth1' } });
    expect(t.sent.map((d) => `${d.bindAddress} → ${d.broadcast}:${d.port}`)).toEqual([
      '192.0.2.1 → 192.0.2.255:9',
      '198.51.100.1 → 198.51.100.255:9',
      '198.51.100.129 → 198.51.100.255:9',
    ]);
    expect(decodeMagicPacket(t.sent[0]!.packet)).toEqual({ mac: '52:54:00:aa:00:01', password: null });
    expect(eventsOf(t.core, 'wol.sent')[0]).toMatchObject({ mac: '52:54:00:aa:00:01', host_id: id, detail: { port: 9, trigger: 'manual' } });
  });

  it('sends on a named interface, to port 7, with a SecureOn password', async () => {
    const id = await host('52:54:00:aa:00:02');
    const response = await api<WakeResult>(t.core, 'POST', `/hosts/${id}/wake`, { interface: 'eth0', port: 7, password: '01:02:03:04:05:06' });
    expect(response.status).toBe(200);
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]).toMatchObject({ bindAddress: '192.0.2.1', broadcast: '192.0.2.255', port: 7 });
    expect(decodeMagicPacket(t.sent[0]!.packet).password?.toString('hex')).toBe('010203040506');
  });

  it('answers 404 for an unknown host, 400 for a bad password, 409 (and a failed history entry) when nothing can be sent', async () => {
    expect((await api(t.core, 'POST', '/hosts/999/wake')).status).toBe(404);
    const id = await host('52:54:00:aa:00:03');
    const bad = await api(t.core, 'POST', `/hosts/${id}/wake`, { password: 'secret' });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.[0]?.field).toBe('password');
    expect((await api(t.core, 'POST', `/hosts/${id}/wake`, { port: 10 })).status).toBe(400);
    const unsent = await api(t.core, 'POST', `/hosts/${id}/wake`, { interface: 'wlan9' });
    expect(unsent.status).toBe(409);
    expect(unsent.body.error).toMatch(/interface "wlan9" cannot send/);
    const history = await api<{ result: string; error: string }[]>(t.core, 'GET', `/wol/history?result=failed`);
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]!.error).toMatch(/wlan9/);
    expect(eventsOf(t.core, 'wol.failed')).toHaveLength(1);
  });

  it('wakes a batch with one result per host; unknown hosts fail alone', async () => {
    const a = await host('52:54:00:aa:00:04');
    const b = await host('52:54:00:aa:00:05');
    const response = await api<WakeResult[]>(t.core, 'POST', '/hosts/batch/wake', { ids: [a, 4242, b], interface: 'eth1' });
    expect(response.status).toBe(200);
    expect(response.body.data.map((r) => [r.host_id, r.ok, r.error])).toEqual([
      [a, true, null],
      [4242, false, 'host 4242 not found'],
      [b, true, null],
    ]);
    expect(response.body.data.every((r) => r.history.trigger === 'batch')).toBe(true);
    expect((await api(t.core, 'POST', '/hosts/batch/wake', { ids: [] })).status).toBe(400);
  });

  it('keeps a history: filters, per MAC (any spelling), delete one, clear all (audited)', async () => {
    const a = await host('52:54:00:aa:00:06');
    const b = await host('52:54:00:aa:00:07');
    for (const id of [a, a, b]) await api(t.core, 'POST', `/hosts/${id}/wake`, { interface: 'eth0' });
    const all = await api<{ id: number; mac: string }[]>(t.core, 'GET', '/wol/history?size=2');
    expect(all.body.meta).toEqual({ total: 3, page: 1, size: 2 });
    expect(all.body.data[0]!.mac).toBe('52:54:00:aa:00:07');
    const byMac = await api<{ id: number }[]>(t.core, 'GET', '/wol/history/52-54-00-AA-00-06');
    expect(byMac.body.meta?.total).toBe(2);
    expect((await api(t.core, 'GET', `/wol/history?host_id=${b}`)).body.meta?.total).toBe(1);
    expect((await api(t.core, 'GET', '/wol/history?mac=525400aa0006&trigger=manual&result=sent')).body.meta?.total).toBe(2);
    expect((await api(t.core, 'GET', '/wol/history?since=2999-01-01T00:00:00Z')).body.meta?.total).toBe(0);
    expect((await api(t.core, 'GET', '/wol/history?sort=bogus')).status).toBe(400);
    expect((await api(t.core, 'GET', '/wol/history/not-a-mac')).status).toBe(400);

    const first = byMac.body.data[0]!.id;
    expect((await api(t.core, 'DELETE', `/wol/history/${first}`)).status).toBe(200);
    expect((await api(t.core, 'DELETE', `/wol/history/${first}`)).status).toBe(404);
    const cleared = await api<{ deleted: number }>(t.core, 'DELETE', '/wol/history');
    expect(cleared.body.data).toEqual({ deleted: 2 });
    expect((await api(t.core, 'GET', '/wol/history')).body.meta?.total).toBe(0);
    const audit = t.core.kernel.audit.all().filter((entry) => entry.method === 'DELETE' && entry.path === '/api/v1/wol/history');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user: 'local', outcome: 'success' });
  });

  it('lets a viewer read but not wake or clear', async () => {
    const viewer = await bearerHeaders(t.core, 'viewer');
    const id = await host('52:54:00:aa:00:08');
    expect((await t.core.http.inject({ method: 'GET', url: '/api/v1/wol/history', headers: viewer })).statusCode).toBe(200);
    expect((await t.core.http.inject({ method: 'POST', url: `/api/v1/hosts/${id}/wake`, headers: viewer })).statusCode).toBe(403);
    expect((await t.core.http.inject({ method: 'DELETE', url: '/api/v1/wol/history', headers: viewer })).statusCode).toBe(403);
    const operator = await bearerHeaders(t.core, 'operator');
    const woke = await t.core.http.inject({ method: 'POST', url: `/api/v1/hosts/${id}/wake`, headers: operator });
    expect(woke.statusCode).toBe(200);
    expect(woke.json().data.history.user).toMatch(/^token:/);
  });
});

describe('WOL transport failures', () => {
  it('reports a partial send and a total failure per interface', async () => {
    const partial = await powerCore({
      power: {
        wolTransport: async (datagram) => {
          if (datagram.bindAddress === '192.0.2.1') throw new Error('EADDRNOTAVAIL');
        },
      },
    });
    try {
      const id = (await partial.core.area('hosts').create({ mac: '52:54:00:aa:00:09' })).id;
      const some = await api<WakeResult>(partial.core, 'POST', `/hosts/${id}/wake`);
      expect(some.body.data).toMatchObject({ ok: true, interfaces: ['eth1'] });
      expect(some.body.data.error).toMatch(/eth0 \(192\.0\.2\.1 → 192\.0\.2\.255\): EADDRNOTAVAIL/);
      const none = await api(partial.core, 'POST', `/hosts/${id}/wake`, { interface: 'eth0' });
      expect(none.status).toBe(409);
      expect(none.body.error).toMatch(/sending failed on eth0/);
    } finally {
      await partial.close();
    }
  });
});
