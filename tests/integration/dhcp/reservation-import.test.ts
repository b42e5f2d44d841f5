import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

/** POST /dhcp/reservations/import against a real core (docs/dhcp.md, "Importing reservations"). */

let t: TestCore;
beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
  await t.core.area('dhcp').settings.update({
    subnets: [{ subnet: '10.66.0.0/24', ranges: [], lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] }],
  });
});
afterAll(async () => t.close());

interface Reply {
  status: number;
  body: {
    data: { rows: number; created: number; updated: number; problems: { row: number; line: number | null; field: string | null; message: string }[] };
    code?: string;
    details?: { field: string; message: string }[];
  };
}

async function post(url: string, payload: unknown, contentType = 'application/json'): Promise<Reply> {
  const res = await t.core.http.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: { ...as('operator'), 'content-type': contentType },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: res.statusCode, body: res.json() };
}

const stored = (): number => t.core.area('dhcp').reservations.list().length;

describe('POST /dhcp/reservations/import', () => {
  it('imports a CSV in one go and a JSON list, normalising MACs', async () => {
    const res = await post('/dhcp/reservations/import', 'mac,ip,hostname,boot_file\n52-54-02-00-00-01,10.66.0.11,pxe1,\n52:54:02:00:00:02,10.66.0.12,,ipxe.efi\n', 'text/csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ rows: 2, created: 2, updated: 0 });
    expect(t.core.area('dhcp').reservations.byMac('52:54:02:00:00:02')).toMatchObject({ ip: '10.66.0.12', boot_file: 'ipxe.efi', hostname: null, host_id: null });
    const json = await post('/dhcp/reservations/import', { reservations: [{ mac: '52:54:02:00:00:03', ip: '10.66.0.13' }] });
    expect(json.status).toBe(201);
    expect(stored()).toBe(3);
  });

  it('dry run changes nothing; any bad row refuses the whole file, every problem listed', async () => {
    const before = stored();
    const text = ['mac,ip', '52:54:02:00:00:10,10.66.0.20', 'zz,10.66.0.21', '52:54:02:00:00:12,10.99.0.1', '52:54:02:00:00:13,10.66.0.20', '52:54:02:00:00:01,10.66.0.30'].join('\n');
    const dry = await post('/dhcp/reservations/import?dry_run=true', text, 'text/csv');
    expect(dry.status).toBe(200);
    expect(dry.body.data.problems.map((p) => `${p.row}:${p.line}:${p.field}`)).toEqual(['2:3:mac', '3:4:ip', '4:5:ip', '5:6:mac']);
    const res = await post('/dhcp/reservations/import', text, 'text/csv');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(stored()).toBe(before);
  });

  it('upsert updates the stored reservation of a MAC, keeping fields the row leaves out, but not a host\'s', async () => {
    const res = await post('/dhcp/reservations/import?mode=upsert', { reservations: [{ mac: '52:54:02:00:00:02', ip: '10.66.0.42' }, { mac: '52:54:02:00:00:50', ip: '10.66.0.50' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ created: 1, updated: 1 });
    expect(t.core.area('dhcp').reservations.byMac('52:54:02:00:00:02')).toMatchObject({ ip: '10.66.0.42', boot_file: 'ipxe.efi' });
    const host = await t.core.area('hosts').create({ mac: '52:54:02:00:00:60', ip: '10.66.0.60' });
    const owned = await post('/dhcp/reservations/import?mode=upsert&dry_run=true', { reservations: [{ mac: host.mac, ip: '10.66.0.61' }] });
    expect(owned.body.data.problems[0]?.message).toMatch(/belongs to host/);
  });
});
