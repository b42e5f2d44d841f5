import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BmcError, type BmcConnection, type BmcTarget } from '../../../src-main/power/index.js';
import { bearerHeaders } from '../../helpers/auth.js';
import { collectionOnDisk } from '../../helpers/store-journal.js';
import type { TestCore } from '../../helpers/test-core.js';
import { api, eventsOf, powerCore } from './power-harness.js';

/*
 * BMC configs through the API with a scripted connector (no network):
 * CRUD with the password encrypted at rest and never returned, CSV import
 * (good, bad and mixed files; text/csv and JSON; partial), batches with
 * bounded concurrency and progress events, power through a host.
 */
interface Config {
  id: number;
  name: string;
  address: string;
  port: number;
  protocol: string;
  has_password: boolean;
  host_id: number | null;
  power_state: string | null;
  last_error: string | null;
}

let t: TestCore;
let calls: { target: BmcTarget; action: string }[];
let inFlight: number;
let peak: number;

/** Addresses decide the outcome: *.fail times out, *.slow takes a moment, anything else works. */
function scriptedConnector(target: BmcTarget): Promise<BmcConnection> {
  if (target.address.endsWith('.fail')) return Promise.reject(new BmcError('timeout', `${target.address}:${target.port}: no answer within 1000 ms (2 attempts)`));
  let power: 'on' | 'off' = 'off';
  const step = async (action: string) => {
    calls.push({ target, action });
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, target.address.endsWith('.slow') ? 20 : 1));
    inFlight -= 1;
  };
  return Promise.resolve({
    protocol: target.protocol,
    description: 'scripted',
    cipherSuite: null,
    identify: async () => (await step('identify'), { vendor: 'Scripted', model: 'S1', firmware: '1.0' }),
    powerState: async () => (await step('status'), power),
    power: async (action) => {
      await step(action);
      power = action === 'off' || action === 'soft' ? 'off' : 'on';
    },
    setBootDevice: async (request) => step(`boot ${request.device}`),
    close: async () => undefined,
  });
}

beforeEach(async () => {
  calls = [];
  inFlight = 0;
  peak = 0;
  t = await powerCore({ power: { bmcConnector: scriptedConnector } });
});
afterEach(async () => t.close());

const create = (body: Record<string, unknown>) => api<Config>(t.core, 'POST', '/bmc/configs', { username: 'admin', password: 'Sup3r$ecret', ...body });

describe('BMC configs', () => {
  it('creates with protocol defaults, never returns the password and stores it encrypted', async () => {
    const ipmi = await create({ name: 'rack1-n1', address: '10.0.0.11' });
    expect(ipmi.status).toBe(201);
    expect(ipmi.body.data).toMatchObject({ name: 'rack1-n1', protocol: 'ipmi', port: 623, has_password: true, verify_tls: true, cipher_suite: null, privilege: 'administrator', power_state: null });
    expect(JSON.stringify(ipmi.body)).not.toContain('Sup3r$ecret');
    expect(JSON.stringify(ipmi.body)).not.toContain('password_secret');
    const redfish = await create({ name: 'rack1-n2', address: 'bmc-n2.example', protocol: 'redfish', verify_tls: false, password: '' });
    expect(redfish.body.data).toMatchObject({ port: 443, has_password: false });

    await t.core.kernel.store.close();
    // BMC configs live in their collection's journal (store/journal.ts): its snapshot and journal files.
    const stored = await collectionOnDisk(t.dataDir, 'config', 'bmc_configs');
    expect(stored).toContain('rack1-n1');
    expect(stored).not.toContain('Sup3r$ecret');
    expect(stored).toMatch(/"password_secret": ?"v1:/);
    expect((await stat(path.join(t.dataDir, 'secrets.key'))).mode & 0o777).toBe(0o600);
  });

  it('gets, lists with filters, updates (any subset) and deletes', async () => {
    const a = (await create({ name: 'a', address: '10.0.0.1' })).body.data;
    await create({ name: 'b', address: '10.0.0.2', protocol: 'redfish' });
    expect((await api(t.core, 'GET', `/bmc/configs/${a.id}`)).body.data).toMatchObject({ name: 'a' });
    expect((await api(t.core, 'GET', '/bmc/configs?protocol=redfish')).body.meta?.total).toBe(1);
    expect((await api<Config[]>(t.core, 'GET', '/bmc/configs?q=10.0.0.2')).body.data.map((c) => c.name)).toEqual(['b']);
    const moved = await api<Config>(t.core, 'PUT', `/bmc/configs/${a.id}`, { protocol: 'redfish' });
    expect(moved.body.data).toMatchObject({ protocol: 'redfish', port: 443, has_password: true });
    const cleared = await api<Config>(t.core, 'PUT', `/bmc/configs/${a.id}`, { password: '' });
    expect(cleared.body.data.has_password).toBe(false);
    expect((await api(t.core, 'PUT', `/bmc/configs/${a.id}`, {})).status).toBe(400);
    expect((await api(t.core, 'DELETE', `/bmc/configs/${a.id}`)).status).toBe(200);
    expect((await api(t.core, 'GET', `/bmc/configs/${a.id}`)).status).toBe(404);
  });

  it('rejects bad input naming the field, duplicates with 409, unknown hosts with 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', address: 'not an address!' }, 'body.address'],
      [{ name: 'x', address: '10.0.0.1', port: 0 }, 'body.port'],
      [{ name: 'x', address: '10.0.0.1', protocol: 'snmp' }, 'body.protocol'],
      [{ name: 'x', address: '10.0.0.1', username: 'a-very-long-ipmi-name' }, 'body.username'],
      [{ name: 'x', address: '10.0.0.1', password: 'a-password-over-20-bytes' }, 'body.password'],
      [{ name: 'x', address: '10.0.0.1', cipher_suite: 8 }, 'body.cipher_suite'],
      [{ name: 'x', address: '10.0.0.1', host_id: 999 }, 'body.host_id'],
      [{ name: 'x', address: '10.0.0.1', surprise: true }, 'body.surprise'],
    ];
    for (const [body, field] of cases) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.body.details)).toContain(field.replace('body.', ''));
    }
    expect((await api(t.core, 'GET', '/bmc/configs')).body.meta?.total).toBe(0);
    const host = await t.core.area('hosts').create({ mac: '52:54:00:bb:00:01' });
    expect((await create({ name: 'dup', address: '10.0.0.1', host_id: host.id })).status).toBe(201);
    expect((await create({ name: 'DUP', address: '10.0.0.2' })).status).toBe(409);
    const sameHost = await create({ name: 'other', address: '10.0.0.3', host_id: host.id });
    expect(sameHost.status).toBe(409);
    expect(sameHost.body.details?.[0]?.field).toBe('body.host_id');
  });
});

describe('CSV import', () => {
  const headers = async () => ({ ...(await bearerHeaders(t.core, 'operator')), 'content-type': 'text/csv' });

  it('imports a good file sent as text/csv, linking hosts by MAC', async () => {
    const host = await t.core.area('hosts').create({ mac: '52:54:00:cc:00:01' });
    const csv = ['name,address,port,protocol,username,password,host_mac', `n1,10.1.0.1,,ipmi,admin,pw1,52-54-00-CC-00-01`, 'n2,10.1.0.2,8443,redfish,root,pw2,', 'n3,bmc3.example,,,admin,,'].join('\n');
    const response = await t.core.http.inject({ method: 'POST', url: '/api/v1/bmc/configs/import', headers: await headers(), payload: csv });
    expect(response.statusCode).toBe(201);
    const data = response.json().data as { imported: Config[]; errors: unknown[]; rows: number };
    expect(data.rows).toBe(3);
    expect(data.errors).toEqual([]);
    expect(data.imported.map((c) => [c.name, c.protocol, c.port, c.host_id, c.has_password])).toEqual([
      ['n1', 'ipmi', 623, host.id, true],
      ['n2', 'redfish', 8443, null, true],
      ['n3', 'ipmi', 623, null, false],
    ]);
    expect(response.body).not.toContain('pw1');
  });

  it('rejects a bad file as a whole, listing every problem with its line', async () => {
    await create({ name: 'existing', address: '10.0.0.9' });
    const csv = [
      'name,address,username,password,port,host_mac',
      'ok1,10.2.0.1,admin,pw,,',
      'existing,10.2.0.2,admin,pw,,',
      'bad-port,10.2.0.3,admin,pw,99999,',
      'ok1,10.2.0.4,admin,pw,,',
      'no-host,10.2.0.5,admin,pw,,52:54:00:dd:00:99',
      ',10.2.0.6,admin,pw,,',
    ].join('\n');
    const response = await api(t.core, 'POST', '/bmc/configs/import', { csv });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.details).toEqual([
      { field: 'csv.line3.name', message: 'a BMC config named "existing" already exists' },
      { field: 'csv.line4.port', message: 'must be an integer from 1 to 65535' },
      { field: 'csv.line5.name', message: 'a BMC config named "ok1" already exists' },
      { field: 'csv.line6.host_mac', message: 'no host has MAC 52:54:00:dd:00:99' },
      { field: 'csv.line7.name', message: 'is required' },
    ]);
    expect(response.body.error).toMatch(/nothing was imported: line 3 \(name\)/);
    expect((await api(t.core, 'GET', '/bmc/configs')).body.meta?.total).toBe(1);
  });

  it('imports the good rows of a mixed file with ?partial=true and reports the bad ones', async () => {
    const csv = 'name,address,username,protocol\ngood1,10.3.0.1,admin,\nbad,10.3.0.2,admin,telnet\ngood2,10.3.0.3,admin,redfish\nshort,10.3.0.4\n';
    const response = await t.core.http.inject({ method: 'POST', url: '/api/v1/bmc/configs/import?partial=true', headers: await headers(), payload: csv });
    expect(response.statusCode).toBe(201);
    const data = response.json().data as { imported: Config[]; errors: { line: number; column: string | null; message: string }[]; rows: number };
    expect(data.rows).toBe(4);
    expect(data.imported.map((c) => c.name)).toEqual(['good1', 'good2']);
    expect(data.errors).toEqual([
      { line: 3, column: 'protocol', message: '"telnet" is not one of ipmi, redfish' },
      { line: 5, column: null, message: 'has 2 fields, the header has 4' },
    ]);
  });

  it('refuses a file without the required header, a wrong content type and more than 1 MiB', async () => {
    const noHeader = await api(t.core, 'POST', '/bmc/configs/import', { csv: '10.0.0.1,admin\n' });
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.error).toMatch(/line 1/);
    const auth = await bearerHeaders(t.core, 'operator');
    const xml = await t.core.http.inject({ method: 'POST', url: '/api/v1/bmc/configs/import', headers: { ...auth, 'content-type': 'application/xml' }, payload: '<x/>' });
    expect(xml.statusCode).toBe(415);
    const huge = `name,address,username\n${'n,10.0.0.1,admin\n'.repeat(70_000)}`;
    const tooBig = await t.core.http.inject({ method: 'POST', url: '/api/v1/bmc/configs/import', headers: { ...auth, 'content-type': 'text/csv' }, payload: huge });
    expect(tooBig.statusCode).toBe(413);
    // Elsewhere the API still takes JSON only.
    const csvElsewhere = await t.core.http.inject({ method: 'POST', url: '/api/v1/bmc/configs', headers: { ...auth, 'content-type': 'text/csv' }, payload: 'a,b' });
    expect(csvElsewhere.statusCode).toBe(415);
  });
});

describe('BMC operations', () => {
  it('runs a batch with bounded concurrency, one result per id and progress events', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) ids.push((await create({ name: `slow-${i}`, address: `n${i}.slow` })).body.data.id);
    ids.splice(3, 0, (await create({ name: 'broken', address: 'n.fail' })).body.data.id);
    ids.push(9999);
    const response = await api<{ batch_id: string; results: { id: number; ok: boolean; power_state: string | null; reason: string | null; code: string | null }[] }>(t.core, 'POST', '/bmc/batch/power-on', { ids });
    expect(response.status).toBe(200);
    const results = response.body.data.results;
    expect(results.map((r) => r.id)).toEqual(ids);
    expect(results.filter((r) => r.ok)).toHaveLength(12);
    expect(results[3]).toMatchObject({ ok: false, reason: 'timeout', code: 'UPSTREAM_FAILED' });
    expect(results.at(-1)).toMatchObject({ ok: false, code: 'NOT_FOUND', reason: null });
    expect(peak).toBeLessThanOrEqual(8);
    expect(peak).toBeGreaterThan(1);
    const progress = eventsOf(t.core, 'bmc.batch.progress').filter((e) => e.detail?.batch_id === response.body.data.batch_id);
    expect(progress.map((e) => e.detail?.done)).toEqual(ids.map((_, i) => i + 1));
    expect(progress.at(-1)?.detail).toMatchObject({ total: 14, succeeded: 12, failed: 2, action: 'power-on' });
    const broken = (await api<Config>(t.core, 'GET', `/bmc/configs/${ids[3]}`)).body.data;
    expect(broken.last_error).toMatch(/no answer/);
    expect(eventsOf(t.core, 'bmc.power').filter((e) => e.detail?.result === 'failed')).toHaveLength(1);
    expect((await api(t.core, 'POST', '/bmc/batch/reboot', { ids })).status).toBe(400);
  });

  it('answers status, restart and power-off per config; a failure is a 502 with the reason', async () => {
    const ok = (await create({ name: 'ok', address: '10.9.0.1' })).body.data.id;
    const bad = (await create({ name: 'bad', address: 'x.fail' })).body.data.id;
    expect((await api(t.core, 'GET', `/bmc/${ok}/status`)).body.data).toMatchObject({ action: 'status', power_state: 'off', config: { power_state: 'off' } });
    expect((await api(t.core, 'POST', `/bmc/${ok}/restart`)).body.data).toMatchObject({ action: 'reset', power_state: 'on' });
    expect((await api(t.core, 'POST', `/bmc/${ok}/power-off`)).body.data).toMatchObject({ action: 'off', power_state: 'off' });
    expect(calls.map((c) => c.action)).toEqual(['status', 'reset', 'off']);
    const failed = await api(t.core, 'POST', `/bmc/${bad}/power-on`);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'UPSTREAM_FAILED', details: [{ field: 'bmc', message: 'timeout' }] });
    expect(failed.body.error).toMatch(/^BMC timeout: x\.fail:623: no answer/);
    expect((await api(t.core, 'POST', '/bmc/4242/power-on')).status).toBe(404);
    const boot = await api(t.core, 'POST', `/bmc/${ok}/boot-device`, { device: 'cdrom', persistent: true, efi: false });
    expect(boot.status).toBe(200);
    expect(calls.at(-1)?.action).toBe('boot cdrom');
    expect((await api(t.core, 'POST', `/bmc/${ok}/boot-device`, { device: 'floppy' })).status).toBe(400);
    const audit = t.core.kernel.audit.all().filter((entry) => entry.path.startsWith('/api/v1/bmc/'));
    expect(audit.map((entry) => `${entry.method} ${entry.path} ${entry.outcome}`)).toContain(`POST /api/v1/bmc/${bad}/power-on failure`);
  });

  it('controls power through a host: 404 unknown host, 409 without a BMC config', async () => {
    const host = await t.core.area('hosts').create({ mac: '52:54:00:ee:00:01' });
    const bare = await t.core.area('hosts').create({ mac: '52:54:00:ee:00:02' });
    await create({ name: 'with-host', address: '10.9.1.1', host_id: host.id });
    const on = await api(t.core, 'POST', `/hosts/${host.id}/power`, { action: 'cycle' });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ action: 'cycle', power_state: 'on', config: { host_id: host.id } });
    expect((await api(t.core, 'POST', `/hosts/${host.id}/power`, { action: 'status' })).body.data).toMatchObject({ action: 'status', power_state: 'off' });
    const none = await api(t.core, 'POST', `/hosts/${bare.id}/power`, { action: 'on' });
    expect(none.status).toBe(409);
    expect(none.body.error).toMatch(/has no BMC config/);
    expect((await api(t.core, 'POST', '/hosts/777/power', { action: 'on' })).status).toBe(404);
    expect((await api(t.core, 'POST', `/hosts/${host.id}/power`, { action: 'explode' })).status).toBe(400);
    expect(eventsOf(t.core, 'bmc.power')[0]).toMatchObject({ host_id: host.id, detail: { action: 'cycle', result: 'ok', user: 'local' } });
  });

  it('keeps passwords out of events and logs', async () => {
    const lines: string[] = [];
    t.core.kernel.logs.subscribe((record) => lines.push(JSON.stringify(record)));
    const bad = (await create({ name: 'leaky?', address: 'x.fail', password: 'TopSecret99' })).body.data.id;
    await api(t.core, 'POST', `/bmc/${bad}/power-on`);
    await api(t.core, 'POST', '/bmc/probe', { address: 'y.fail', protocol: 'ipmi', username: 'admin', password: 'TopSecret99' });
    expect(JSON.stringify(t.core.kernel.events.all())).not.toContain('TopSecret99');
    expect(JSON.stringify(t.core.kernel.audit.all())).not.toContain('TopSecret99');
    expect(lines.join('\n')).not.toContain('TopSecret99');
  });
});
