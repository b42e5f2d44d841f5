import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

/** POST /hosts/import and the host batches against a real core (docs/hosts-and-profiles.md, "Bulk operations"). */

let t: TestCore;
let profileId: number;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
  // Reservations need the hosts' addresses inside a configured DHCP subnet.
  await t.core.area('dhcp').settings.update({
    subnets: [{ subnet: '10.88.0.0/16', ranges: [], lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] }],
  });
  const profile = await call('POST', '/profiles', { name: 'Rack installer', boot_type: 'local' });
  profileId = (profile.body.data as unknown as { id: number }).id;
});
afterAll(async () => t.close());

interface Problem {
  row: number;
  line: number | null;
  field: string | null;
  message: string;
}
interface Reply {
  status: number;
  body: {
    success: boolean;
    data: { rows: number; created: number; updated: number; problems: Problem[]; problem_count: number; dry_run: boolean; count: number; hosts: { id: number; tags: string[]; group: string | null; enabled: boolean; profile_id: number | null }[] } & Record<string, unknown>;
    error?: string;
    code?: string;
    details?: { field: string; message: string }[];
  };
}

async function call(method: 'GET' | 'POST', url: string, payload?: unknown, contentType = 'application/json'): Promise<Reply> {
  const res = await t.core.http.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...as('operator'), 'content-type': contentType },
    ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

const csv = (text: string): Promise<Reply> => call('POST', '/hosts/import', text, 'text/csv');
const hostCount = (): number => t.core.area('hosts').all().length;
const reservationCount = (): number => t.core.area('dhcp').reservations.list().length;
const mac = (n: number): string => `52:54:01:${((n >> 16) & 0xff).toString(16).padStart(2, '0')}:${((n >> 8) & 0xff).toString(16).padStart(2, '0')}:${(n & 0xff).toString(16).padStart(2, '0')}`;

describe('POST /hosts/import', () => {
  it('imports a CSV with every column, tags ;-separated and the profile by name, reservations included', async () => {
    const before = hostCount();
    const res = await csv(
      [
        'mac,hostname,ip,profile,group,tags,description,arch,enabled,boot_loader',
        `52-54-01-AA-00-01,Node01,10.88.1.1,rack installer,rack-a,gpu;ib,first node,x86_64,yes,iPXE`,
        `52:54:01:aa:00:02,node02,,,rack-a,,,,no,`,
      ].join('\n'),
    );
    expect(res.status, res.body.error).toBe(201);
    expect(res.body.data).toMatchObject({ rows: 2, created: 2, updated: 0, problems: [], dry_run: false });
    expect(hostCount()).toBe(before + 2);
    const one = t.core.area('hosts').findByMac('52:54:01:aa:00:01');
    expect(one).toMatchObject({ hostname: 'node01', ip: '10.88.1.1', profile_id: profileId, group: 'rack-a', tags: ['gpu', 'ib'], description: 'first node', arch: 'x86_64', enabled: true, boot_loader: 'ipxe' });
    expect(t.core.area('hosts').findByMac('52:54:01:aa:00:02')).toMatchObject({ ip: null, enabled: false, tags: [], boot_loader: null });
    expect(t.core.area('dhcp').reservations.forHost(one!.id)).toMatchObject({ ip: '10.88.1.1', mac: '52:54:01:aa:00:01', host_id: one!.id });
  });

  it('imports JSON and emits hosts.import.done with the counts', async () => {
    const res = await call('POST', '/hosts/import', { hosts: [{ mac: mac(0x100), hostname: 'json1', profile_id: profileId }, { mac: mac(0x101), tags: ['a'] }] });
    expect(res.status, res.body.error).toBe(201);
    expect(res.body.data).toMatchObject({ created: 2, updated: 0 });
    const done = t.core.kernel.events.all().filter((event) => event.kind === 'hosts.import.done').at(-1);
    expect(done?.detail).toMatchObject({ rows: 2, created: 2, updated: 0 });
  });

  it('takes the CSV inside JSON too ({"csv": ...}, as the UI sends it)', async () => {
    const res = await call('POST', '/hosts/import?dry_run=true', { csv: `mac,hostname\n${mac(0x150)},inside\n` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rows: 1, created: 1, problems: [] });
  });

  it('dry run reports what it would do and changes nothing', async () => {
    const hosts = hostCount();
    const reservations = reservationCount();
    const res = await call('POST', '/hosts/import?dry_run=true', { hosts: [{ mac: mac(0x200), ip: '10.88.2.1' }, { mac: mac(0x201) }] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ dry_run: true, rows: 2, created: 2, problems: [] });
    expect(hostCount()).toBe(hosts);
    expect(reservationCount()).toBe(reservations);
  });

  it('one bad row refuses all, reporting every problem with its row, line and field', async () => {
    const hosts = hostCount();
    const text = ['mac,hostname,ip,enabled,profile_id,boot_loader', `${mac(0x300)},ok1,,,,`, `not-a-mac,bad_name!,,maybe,,pxelinux`, `${mac(0x302)},,10.88.3.3,,99999,`].join('\n');
    const dry = await call('POST', '/hosts/import?dry_run=true', text, 'text/csv');
    expect(dry.status).toBe(200);
    expect(dry.body.data.problem_count).toBe(dry.body.data.problems.length);
    const fields = dry.body.data.problems.map((p) => `${p.row}:${p.line}:${p.field}`);
    expect(fields).toEqual(expect.arrayContaining(['2:3:enabled', '2:3:mac', '2:3:hostname', '2:3:boot_loader', '3:4:profile_id']));
    const res = await csv(text);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details?.map((d) => d.field)).toEqual(expect.arrayContaining(['rows[2].mac', 'rows[3].profile_id']));
    expect(hostCount()).toBe(hosts);
  });

  it('reports duplicates within the file and, in create mode, against stored hosts', async () => {
    const hosts = hostCount();
    const res = await call('POST', '/hosts/import?dry_run=true', {
      hosts: [{ mac: mac(0x400), ip: '10.88.4.1' }, { mac: mac(0x400).toUpperCase() }, { mac: mac(0x402), ip: '10.88.4.1' }, { mac: '52:54:01:aa:00:01' }],
    });
    expect(res.body.data.problems.map((p) => `${p.row}:${p.field}`)).toEqual(['2:mac', '3:ip', '4:mac']);
    expect(res.body.data.problems[0]!.message).toMatch(/also on row 1/);
    expect(res.body.data.problems[2]!.message).toMatch(/belongs to host \d+; use mode=upsert/);
    expect(hostCount()).toBe(hosts);
  });

  it('upsert updates stored hosts by MAC (empty cells keep the stored value) and creates the others', async () => {
    const res = await csv(['mac,group,ip', '52:54:01:aa:00:01,rack-b,', `52:54:01:aa:00:02,,10.88.1.2`, `${mac(0x500)},rack-b,`].join('\n') + '\n');
    expect(res.status).toBe(400); // create mode: two stored MACs
    const up = await call('POST', '/hosts/import?mode=upsert', ['mac,group,ip', '52:54:01:aa:00:01,rack-b,', `52:54:01:aa:00:02,,10.88.1.2`, `${mac(0x500)},rack-b,`].join('\n'), 'text/csv');
    expect(up.status, up.body.error).toBe(201);
    expect(up.body.data).toMatchObject({ created: 1, updated: 2, mode: 'upsert' });
    const hosts = t.core.area('hosts');
    expect(hosts.findByMac('52:54:01:aa:00:01')).toMatchObject({ group: 'rack-b', hostname: 'node01', ip: '10.88.1.1', tags: ['gpu', 'ib'] });
    const two = hosts.findByMac('52:54:01:aa:00:02')!;
    expect(two).toMatchObject({ group: 'rack-a', ip: '10.88.1.2' });
    expect(t.core.area('dhcp').reservations.forHost(two.id)?.ip).toBe('10.88.1.2');
  });

  it('checks the DHCP reservations up front: a taken or unservable address refuses the whole file', async () => {
    await t.core.area('dhcp').reservations.create({ mac: '52:54:01:ff:00:01', ip: '10.88.6.1' });
    const hosts = hostCount();
    const reservations = reservationCount();
    const res = await call('POST', '/hosts/import', { hosts: [{ mac: mac(0x600), ip: '10.88.6.2' }, { mac: mac(0x601), ip: '10.88.6.1' }, { mac: mac(0x602), ip: '192.0.2.7' }] });
    expect(res.status).toBe(400);
    expect(res.body.details?.map((d) => d.field)).toEqual(['rows[2].ip', 'rows[3].ip']);
    expect(res.body.details?.[0]?.message).toMatch(/already reserved/);
    expect(hostCount()).toBe(hosts);
    expect(reservationCount()).toBe(reservations);
  });

  it('refuses a file it cannot read as a whole (unknown column, no mac column)', async () => {
    const unknown = await csv('mac,colour\n52:54:01:00:77:01,red\n');
    expect(unknown.status).toBe(400);
    expect(unknown.body.details?.[0]).toMatchObject({ field: 'rows[0].colour' });
    const dry = await call('POST', '/hosts/import?dry_run=true', 'hostname\nweb\n', 'text/csv');
    expect(dry.body.data.problems).toEqual([expect.objectContaining({ row: 0, field: 'mac' })]);
  });

  it('imports 10,000 rows in one request, with reservations, and reports progress', async () => {
    const before = hostCount();
    const lines = ['mac,hostname,ip,tags'];
    for (let i = 0; i < 10_000; i += 1) lines.push(`${mac(0x10000 + i)},bulk-${i},10.88.${100 + Math.floor(i / 250)}.${(i % 250) + 1},bulk;rack-${i % 40}`);
    const started = t.core.kernel.events.all().length;
    const res = await csv(lines.join('\n'));
    expect(res.status, JSON.stringify(res.body.details?.slice(0, 3))).toBe(201);
    expect(res.body.data).toMatchObject({ rows: 10_000, created: 10_000 });
    expect(hostCount()).toBe(before + 10_000);
    expect(t.core.area('hosts').findByMac(mac(0x10000 + 9_999))).toMatchObject({ hostname: 'bulk-9999' });
    const kinds = t.core.kernel.events.all().slice(started).map((event) => `${event.kind}:${String(event.detail?.phase ?? '')}`);
    expect(kinds).toEqual(expect.arrayContaining(['hosts.import.progress:checked', 'hosts.import.progress:reservations_written', 'hosts.import.done:']));
  }, 60_000);
});

describe('host batches', () => {
  async function someHosts(n: number, base: number): Promise<number[]> {
    const res = await call('POST', '/hosts/import', { hosts: Array.from({ length: n }, (_, i) => ({ mac: mac(base + i), ip: `10.88.9.${(base & 0x3f) + i + 1}`, tags: ['old'] })) });
    expect(res.status, res.body.error).toBe(201);
    return Array.from({ length: n }, (_, i) => t.core.area('hosts').findByMac(mac(base + i))!.id);
  }

  it('assigns a profile, group, enabled and tags to every host named', async () => {
    const ids = await someHosts(3, 0x700);
    const res = await call('POST', '/hosts/batch/assign', { ids, profile_id: profileId, group: 'lab', enabled: false, tags: { add: ['new', 'OLD'], remove: ['old'] } });
    expect(res.status, res.body.error).toBe(200);
    expect(res.body.data.count).toBe(3);
    for (const host of res.body.data.hosts) expect(host).toMatchObject({ profile_id: profileId, group: 'lab', enabled: false, tags: ['new', 'OLD'] });
  });

  it('assigns nothing when one id is unknown or the profile does not exist, naming each bad id', async () => {
    const ids = await someHosts(2, 0x710);
    const res = await call('POST', '/hosts/batch/assign', { ids: [ids[0], 999_991, ids[1], 999_992], group: 'never' });
    expect(res.status).toBe(404);
    expect(res.body.details?.map((d) => d.field)).toEqual(['body.ids.1', 'body.ids.3']);
    const profile = await call('POST', '/hosts/batch/assign', { ids, profile_id: 999_999 });
    expect(profile.status).toBe(400);
    for (const id of ids) expect(t.core.area('hosts').get(id)).toMatchObject({ group: null, profile_id: null });
  });

  it('deletes every host named and their reservations, or none', async () => {
    const ids = await someHosts(3, 0x720);
    const hosts = hostCount();
    const refused = await call('POST', '/hosts/batch/delete', { ids: [...ids, 999_993] });
    expect(refused.status).toBe(404);
    expect(hostCount()).toBe(hosts);
    const res = await call('POST', '/hosts/batch/delete', { ids });
    expect(res.status, res.body.error).toBe(200);
    expect(res.body.data.count).toBe(3);
    expect(hostCount()).toBe(hosts - 3);
    for (const id of ids) expect(t.core.area('dhcp').reservations.forHost(id)).toBeUndefined();
  });

  it('audits a batch like other writes', async () => {
    const ids = await someHosts(1, 0x730);
    await call('POST', '/hosts/batch/delete', { ids });
    const entries = t.core.kernel.audit.all().slice(-5);
    expect(entries.map((entry) => `${entry.method} ${entry.path}`)).toContain('POST /api/v1/hosts/batch/delete');
  });
});

describe('an import on disk', () => {
  it('is durable once answered: a core reopened on the same data directory has every host and reservation', async () => {
    const dir = await tempDir();
    try {
      const first = await createTestCore({ dataDir: dir.dir });
      await first.core.area('dhcp').settings.update({
        subnets: [{ subnet: '10.89.0.0/16', ranges: [], lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] }],
      });
      const report = await first.core.area('hosts').importHosts(
        Array.from({ length: 2000 }, (_, i) => ({ mac: mac(0x20000 + i), ip: `10.89.${Math.floor(i / 250)}.${(i % 250) + 1}` })),
        { mode: 'create', dryRun: false },
      );
      expect(report).toMatchObject({ created: 2000, problems: [] });
      await first.close();
      const second = await createTestCore({ dataDir: dir.dir });
      try {
        expect(second.core.area('hosts').all()).toHaveLength(2000);
        expect(second.core.area('dhcp').reservations.list()).toHaveLength(2000);
        expect(second.core.area('hosts').findByMac(mac(0x20000 + 1999))).toMatchObject({ ip: '10.89.7.250' });
      } finally {
        await second.close();
      }
    } finally {
      await dir.remove();
    }
  }, 60_000);

  it('after a crash left reservations of hosts that were never written, removes them before serving', async () => {
    const dir = await tempDir();
    try {
      const first = await createTestCore({ dataDir: dir.dir });
      await first.core.area('dhcp').settings.update({
        subnets: [{ subnet: '10.88.0.0/16', ranges: [], lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] }],
      });
      const kept = await first.core.area('hosts').create({ mac: mac(0x30001), ip: '10.88.0.1' });
      // What an import cut between its two commits leaves: reservations for host ids that are not stored.
      const { reservations } = first.core.area('dhcp');
      await reservations.setForHost({ id: kept.id + 50, mac: mac(0x30002), ip: '10.88.0.2', hostname: null });
      await reservations.setForHost({ id: kept.id + 51, mac: mac(0x30003), ip: '10.88.0.3', hostname: null });
      await reservations.create({ mac: mac(0x30004), ip: '10.88.0.4' });
      expect(reservations.list()).toHaveLength(4);
      await first.close();

      const second = await createTestCore({ dataDir: dir.dir });
      try {
        await second.core.start();
        const left = second.core.area('dhcp').reservations.list();
        // The host's own reservation and the one made by hand (no host) stay; the orphans go.
        expect(left.map((row) => [row.ip, row.host_id])).toEqual([
          ['10.88.0.1', kept.id],
          ['10.88.0.4', null],
        ]);
        const event = second.core.kernel.events.all().find((e) => e.kind === 'hosts.reservations.orphaned');
        expect(event?.detail).toEqual({ host_ids: [kept.id + 50, kept.id + 51] });
      } finally {
        await second.close();
      }
    } finally {
      await dir.remove();
    }
  }, 60_000);
});
