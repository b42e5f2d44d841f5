import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerHeaders } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { freeDnsPort, query, SUBNET_A, twoSubnetNics } from './dns-harness.js';

let t: TestCore;
let operator: { authorization: string };
let viewer: { authorization: string };

beforeAll(async () => {
  t = await createTestCore({ nicReader: twoSubnetNics });
  operator = await bearerHeaders(t.core, 'operator');
  viewer = await bearerHeaders(t.core, 'viewer');
});

afterAll(async () => {
  await t?.close();
});

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = operator) {
  const response = await t.core.http.inject({ method, url: `/api/v1${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: response.statusCode, body: response.json() };
}

describe('/dns/records', () => {
  it('creates, reads, updates, lists and deletes records, with events', async () => {
    const created = await call('POST', '/dns/records', { name: 'PXE', type: 'A', value: '10.0.0.5', comment: 'boot server' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'pxe', type: 'A', value: '10.0.0.5', ttl: 300, priority: null, subnet: null, enabled: true, comment: 'boot server' });
    const id = created.body.data.id as number;
    expect((await call('GET', `/dns/records/${id}`, undefined, viewer)).body.data.name).toBe('pxe');

    const updated = await call('PUT', `/dns/records/${id}`, { ttl: 60, subnet: '10.0.0.0/24' });
    expect(updated.body.data).toMatchObject({ ttl: 60, subnet: '10.0.0.0/24', value: '10.0.0.5' });
    expect(Date.parse(updated.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(updated.body.data.created_at));

    await call('POST', '/dns/records', { name: '@', type: 'MX', value: 'mail', priority: 5 });
    await call('POST', '/dns/records', { name: 'notes', type: 'TXT', value: 'boot server notes' });
    const mx = await call('GET', '/dns/records?type=MX', undefined, viewer);
    expect(mx.body.data.map((r: { type: string }) => r.type)).toEqual(['MX']);
    const search = await call('GET', '/dns/records?q=boot%20server&sort=-id&size=1', undefined, viewer);
    expect(search.body.meta).toEqual({ total: 2, page: 1, size: 1 });
    expect(search.body.data[0].name).toBe('notes');
    expect((await call('GET', '/dns/records?sort=nonsense', undefined, viewer)).status).toBe(400);

    const removed = await call('DELETE', `/dns/records/${id}`);
    expect(removed.body.data.id).toBe(id);
    expect((await call('GET', `/dns/records/${id}`)).status).toBe(404);

    const kinds = t.core.kernel.store.collection<{ id: number; kind: string; created_at: string; updated_at: string }>('events', 'events').all().map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['dns.record.created', 'dns.record.updated', 'dns.record.deleted']));
  });

  it('validates per type with a 400 naming the field, and changes nothing', async () => {
    const before = t.core.area('dns').records.all().length;
    const cases: [unknown, string][] = [
      [{ name: 'a', type: 'A', value: 'not-an-ip' }, 'body.value'],
      [{ name: 'a', type: 'AAAA', value: '10.0.0.1' }, 'body.value'],
      [{ name: 'a', type: 'CNAME', value: 'bad host!' }, 'body.value'],
      [{ name: 'a', type: 'MX', value: 'mail' }, 'body.priority'],
      [{ name: 'a', type: 'TXT', value: 'x'.repeat(4001) }, 'body.value'],
      [{ name: 'bad..name', type: 'A', value: '10.0.0.1' }, 'body.name'],
      [{ name: 'a', type: 'A', value: '10.0.0.1', subnet: '10.0.0.7/24' }, 'body.subnet'],
      [{ name: 'a', type: 'A', value: '10.0.0.1', ttl: 700000 }, 'ttl'],
      [{ name: 'a', type: 'SRV', value: 'x' }, 'type'],
      [{ name: 'a', type: 'A', value: '10.0.0.1', extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const response = await call('POST', '/dns/records', payload);
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(response.body), JSON.stringify(payload)).toContain(field);
    }
    expect(t.core.area('dns').records.all()).toHaveLength(before);
  });

  it('409 for exact duplicates and for a CNAME sharing its name', async () => {
    expect((await call('POST', '/dns/records', { name: 'dup', type: 'A', value: '10.0.0.9' })).status).toBe(201);
    const duplicate = await call('POST', '/dns/records', { name: 'DUP', type: 'A', value: '10.0.0.9', ttl: 10 });
    expect(duplicate.status).toBe(409);
    // Named, not "record 9": the record it clashes with, by name, type and value.
    expect(JSON.stringify(duplicate.body)).toMatch(/the A record dup → 10\.0\.0\.9 \(#\d+\)/);
    expect((await call('POST', '/dns/records', { name: 'dup', type: 'A', value: '10.0.0.9', subnet: '10.0.0.0/8' })).status).toBe(201);
    expect((await call('POST', '/dns/records', { name: 'dup', type: 'CNAME', value: 'other' })).status).toBe(409);
    expect((await call('POST', '/dns/records', { name: 'cn', type: 'CNAME', value: 'dup' })).status).toBe(201);
    const clash = await call('POST', '/dns/records', { name: 'cn', type: 'TXT', value: 'x' });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('CONFLICT');
    expect(JSON.stringify(clash.body)).toMatch(/the CNAME record cn → dup \(#\d+\) already uses this name/);
  });

  it('is readable by viewers only; mutations need an operator', async () => {
    expect((await call('GET', '/dns/records', undefined, viewer)).status).toBe(200);
    expect((await call('POST', '/dns/records', { name: 'v', type: 'A', value: '10.0.0.1' }, viewer)).status).toBe(403);
  });
});

describe('/services/dns', () => {
  it('returns the defaults and validates every upstream entry and the domain', async () => {
    expect((await call('GET', '/services/dns', undefined, viewer)).body.data).toEqual({ enabled: true, port: 53, local_domain: 'bootwright.local', upstream: '' });
    const bad = await call('PUT', '/services/dns', { upstream: '192.0.2.1, dns.example.com, 192.0.2.2:99999' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('dns.example.com');
    expect(bad.body.details.map((d: { message: string }) => d.message).join(' ')).toContain('99999');
    const badDomain = await call('PUT', '/services/dns', { local_domain: 'lab..local' });
    expect(badDomain.status).toBe(400);
    expect(badDomain.body.details[0].field).toBe('body.local_domain');
    expect((await call('PUT', '/services/dns', { port: 0 })).status).toBe(400);
    expect((await call('PUT', '/services/dns', { upstream: '192.0.2.1' }, viewer)).status).toBe(403);
    expect((await call('GET', '/services/dns')).body.data.upstream).toBe('');
  });

  it('restarts a running server on change, stops it (auto-start off) when disabled, starts it when enabled', async () => {
    const port = await freeDnsPort();
    const saved = await call('PUT', '/services/dns', { port, local_domain: 'Lab.Test.', upstream: '127.0.0.1:5353 [::1]:5353' });
    expect(saved.body.data).toEqual({ enabled: true, port, local_domain: 'lab.test', upstream: '127.0.0.1:5353 [::1]:5353' });
    expect((await call('POST', '/services/dns/start')).body.data.state).toBe('running');
    const startedAt = t.core.kernel.services.get('dns').started_at;
    expect((await query('lab.test', 'SOA', { port })).answers).toMatchObject([{ type: 'SOA', name: 'lab.test' }]);

    const port2 = await freeDnsPort();
    await call('PUT', '/services/dns', { port: port2 });
    const status = t.core.kernel.services.get('dns');
    expect(status.state).toBe('running');
    expect(status.listen).toContain(`udp ${SUBNET_A.server}:${port2}`);
    expect(status.started_at).not.toBe(startedAt);

    const disabled = await call('PUT', '/services/dns', { enabled: false });
    expect(disabled.body.data.enabled).toBe(false);
    expect(t.core.kernel.services.get('dns')).toMatchObject({ state: 'stopped', auto_start: false });

    await call('PUT', '/services/dns', { enabled: true });
    expect(t.core.kernel.services.get('dns')).toMatchObject({ state: 'running', auto_start: true });
    expect((await call('GET', '/services/dns')).body.data.enabled).toBe(true);
  });

  it('enabled true starts DNS and turns auto-start on after a manual stop and auto-start off, like TFTP', async () => {
    await call('PUT', '/services/dns', { port: await freeDnsPort(), enabled: true });
    expect(t.core.kernel.services.get('dns').state).toBe('running');
    expect((await call('POST', '/services/dns/stop')).body.data.state).toBe('stopped');
    expect((await call('PUT', '/services/dns/auto-start', { auto_start: false })).body.data.auto_start).toBe(false);
    // `enabled` is the auto-start flag, as for TFTP (it once showed a separate stored flag, still true here).
    expect((await call('GET', '/services/dns')).body.data.enabled).toBe(false);

    const enabled = await call('PUT', '/services/dns', { enabled: true });
    expect(enabled.status).toBe(200);
    expect(t.core.kernel.services.get('dns')).toMatchObject({ state: 'running', auto_start: true });
    // Already running: enabled true again changes nothing and does not restart it.
    const startedAt = t.core.kernel.services.get('dns').started_at;
    await call('PUT', '/services/dns', { enabled: true });
    expect(t.core.kernel.services.get('dns').started_at).toBe(startedAt);
  });

  it('a port that cannot be bound leaves the service failed with the OS error', async () => {
    const port = await freeDnsPort();
    const blocker = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => blocker.bind(port, SUBNET_A.server, resolve));
    try {
      await call('PUT', '/services/dns', { port });
      const status = t.core.kernel.services.get('dns');
      expect(status.state).toBe('failed');
      expect(status.last_error).toContain(`listen udp ${SUBNET_A.server}:${port}: address already in use`);
      expect(status.listen).toEqual([]);
    } finally {
      blocker.close();
    }
    expect((await call('POST', '/services/dns/restart')).body.data.state).toBe('running');
  });

  it('follows the served interfaces: listens on addresses that appear and drops vanished ones', async () => {
    let nics = twoSubnetNics().slice(0, 1);
    const local = await createTestCore({ nicReader: () => nics });
    try {
      const port = await freeDnsPort();
      await local.core.area('dns').settings.update({ port });
      await local.core.kernel.services.start('dns');
      expect(local.core.kernel.services.get('dns').listen).toEqual([`udp 127.1.0.1:${port}`, `tcp 127.1.0.1:${port}`]);
      nics = twoSubnetNics();
      local.core.kernel.network.refresh();
      await expect.poll(() => local.core.kernel.services.get('dns').listen.length).toBe(4);
      expect((await query('bootwright.local', 'A', { port, server: '127.2.0.1', from: '127.2.0.50' })).answers).toMatchObject([{ data: '127.2.0.1' }]);
      nics = twoSubnetNics().slice(1);
      local.core.kernel.network.refresh();
      await expect.poll(() => local.core.kernel.services.get('dns').listen).toEqual([`udp 127.2.0.1:${port}`, `tcp 127.2.0.1:${port}`]);
    } finally {
      await local.close();
    }
  });
});
