import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { AppError } from '../../../src-main/core/errors.js';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

/** POST /kit/export and /kit/import between two real cores (docs/kit.md). */

const PASS = 'correct horse battery';
const SUBNET = { subnet: '10.77.0.0/16', ranges: [], lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] };

let a: TestCore;
let b: TestCore;

interface Reply {
  status: number;
  headers: Record<string, unknown>;
  text: string;
  body: { success?: boolean; data: { dry_run: boolean; conflicts: number; warnings: string[]; items: Item[] }; code?: string; error?: string; details?: { field: string; message: string; key?: string }[] };
}
interface Item {
  key: string;
  section: string;
  name: string;
  action: string;
  existing_id: number | null;
  local_id: number | null;
  local_name: string;
  changes: { path: string; from: unknown; to: unknown }[];
}

async function call(core: TestCore, url: string, payload: unknown, role: Role = 'admin'): Promise<Reply> {
  const res = await core.core.http.inject({ method: 'POST', url: `/api/v1${url}`, headers: as(role), payload: payload as object });
  const text = res.body;
  let body: Reply['body'] = { data: { dry_run: false, conflicts: 0, warnings: [], items: [] } };
  try {
    body = JSON.parse(text) as Reply['body'];
  } catch {
    // the export answers YAML
  }
  return { status: res.statusCode, headers: res.headers, text, body };
}

/** Core A holds something in every section. */
async function populate(core: TestCore): Promise<void> {
  const c = core.core;
  await c.kernel.settings.update({ general: { server_name: 'lab-a' }, logging: { event_retention_days: 45 } });
  await c.area('dhcp').settings.update({ subnets: [SUBNET] });
  await c.area('dns').updateSettings({ local_domain: 'lab.test' });
  await c.area('tftp').settings.update({ max_blksize: 1400 });
  await c.area('dns').records.create({ name: 'nas', type: 'A', value: '10.77.0.5', comment: 'storage' });
  const scripts = c.area('scripts');
  const docker = await scripts.create({ name: 'Docker', kind: 'sh', content: '#!/bin/sh\necho {{ channel }}\n', variables: { channel: 'stable' } }, 'alice');
  await c.area('netboot').answers.create({ name: 'Lab preseed', kind: 'preseed', content: 'd-i debian-installer/locale string en_US.UTF-8\n', secrets: { root_password: 'T0p-secret' } }, { author: 'alice' });
  const profiles = c.area('profiles');
  const debian = await profiles.create({ name: 'Debian 12', boot_type: 'linux', linux: { kernel: 'debian/linux', initrds: ['debian/initrd.gz'], cmdline: 'auto=true' } }, { author: 'alice' });
  const menu = await profiles.create({ name: 'Lab menu', boot_type: 'menu', menu: { entries: [{ profile_id: debian.id }], default_entry: debian.id } }, { author: 'alice' });
  // A profile made after the menu that lists it: the import must write it before the menu.
  const local = await profiles.create({ name: 'Local disk', boot_type: 'local' }, { author: 'alice' });
  await profiles.update(menu.id, { menu: { entries: [{ profile_id: debian.id }, { profile_id: local.id }], default_entry: debian.id } }, { author: 'alice' });
  await profiles.update(debian.id, { linux: { kernel: 'debian/linux', initrds: ['debian/initrd.gz'], cmdline: 'auto=true priority=critical' } }, { author: 'bob', comment: 'critical only' });
  const host = await c.area('hosts').create({ mac: '52:54:00:aa:00:01', hostname: 'node1', ip: '10.77.0.11', profile_id: debian.id, tags: ['rack1'] });
  await c.area('dhcp').reservations.create({ mac: '52:54:00:aa:00:99', ip: '10.77.0.99', hostname: 'printer' });
  await c.area('dhcp').access.add('blacklist', { mac: '52:54:00:bb:00:01', comment: 'rogue' });
  await c.area('power').bmc.configs.create({ name: 'node1-bmc', address: '10.77.1.11', username: 'root', password: 'Bmc-P4ss', host_id: host.id });
  await c.area('power').schedules.create({ name: 'morning', host_ids: [host.id], cron: '0 7 * * 1-5' });
  await c.area('baselines').create({ name: 'Lab baseline', scripts: [{ script_id: docker.id, variables: { channel: 'edge' } }], assign: { host_ids: [host.id], profile_ids: [debian.id] } }, 'alice');
  await c.kernel.settings.update({ netboot: { default_action: 'profile', default_profile_id: debian.id } });
}

beforeAll(async () => {
  a = await createTestCore({ authenticator: roleAuthenticator });
  b = await createTestCore({ authenticator: roleAuthenticator });
  await populate(a);
});
afterAll(async () => {
  await a.close();
  await b.close();
});

describe('export', () => {
  it('is admin only, a YAML download, audited without the passphrase', async () => {
    expect((await call(a, '/kit/export', {}, 'operator')).status).toBe(403);
    const res = await call(a, '/kit/export', { passphrase: PASS });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="bootwright-kit-lab-a-.*\.yaml"$/);
    const kit = parseYaml(res.text) as { format: string; version: number; secrets: unknown; sections: Record<string, unknown> };
    expect(kit).toMatchObject({ format: 'bootwright-kit', version: 1 });
    expect(kit.secrets).toMatchObject({ kdf: 'scrypt', cipher: 'aes-256-gcm' });
    expect(res.text).not.toContain('Bmc-P4ss');
    expect(res.text).not.toContain('T0p-secret');
    expect(Object.keys(kit.sections)).toHaveLength(11);
    await a.core.kernel.audit.flush();
    const audit = a.core.kernel.audit.all().find((row) => row.path === '/api/v1/kit/export' && row.outcome === 'success');
    expect(audit?.detail).toMatchObject({ encrypted: 'secrets' });
    expect(JSON.stringify(a.core.kernel.audit.all())).not.toContain(PASS);
  });

  it('without a passphrase leaves the secrets out and says so', async () => {
    const res = await call(a, '/kit/export', {});
    expect(res.headers['x-kit-warnings']).toBe('2');
    const kit = parseYaml(res.text) as { secrets: unknown; warnings: string[]; sections: { bmc_configs: { password: unknown }[] } };
    expect(kit.secrets).toBeNull();
    expect(kit.sections.bmc_configs[0]?.password).toBeNull();
    expect(kit.warnings.join(' ')).toContain('bmc_configs');
    expect((await call(a, '/kit/export', { encrypt_whole: true })).status).toBe(400);
  });
});

describe('import', () => {
  let kitText = '';
  beforeAll(async () => {
    kitText = (await call(a, '/kit/export', { passphrase: PASS })).text;
  });

  it('refuses a wrong passphrase and a tampered file, writing nothing', async () => {
    const wrong = await call(b, '/kit/import', { content: kitText, passphrase: 'not the passphrase' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/wrong passphrase, or the file was changed/);
    const kit = parseYaml(kitText) as { sections: { bmc_configs: { password: { sealed: string } }[] } };
    const bmc = kit.sections.bmc_configs[0];
    if (!bmc) throw new Error('the kit has no BMC config');
    const sealed = Buffer.from(bmc.password.sealed, 'base64');
    sealed.writeUInt8(sealed.readUInt8(sealed.length - 1) ^ 1, sealed.length - 1);
    bmc.password.sealed = sealed.toString('base64');
    const tampered = await call(b, '/kit/import', { content: stringifyYaml(kit), passphrase: PASS, on_conflict: 'overwrite' });
    expect(tampered.status).toBe(400);
    expect(tampered.body.error).toMatch(/cannot be decrypted/);
    expect(b.core.area('hosts').all()).toHaveLength(0);
    expect(b.core.area('profiles').all()).toHaveLength(0);
  });

  it('refuses another format version, a file that is no kit, a missing passphrase, and viewers/operators', async () => {
    const future = (parseYaml(kitText) as Record<string, unknown>);
    const res = await call(b, '/kit/import', { content: stringifyYaml({ ...future, version: 2 }), passphrase: PASS });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/version 2 is not supported/);
    expect((await call(b, '/kit/import', { content: 'hello: world' })).body.error).toMatch(/not a Bootwright kit/);
    expect((await call(b, '/kit/import', { content: kitText })).body.details?.[0]?.field).toBe('passphrase');
    expect((await call(b, '/kit/import', { content: kitText, passphrase: PASS, dry_run: true }, 'operator')).status).toBe(403);
    const big = await call(b, '/kit/import', { content: `#${'x'.repeat(8 * 1024 * 1024)}` });
    expect([400, 413]).toContain(big.status);
  });

  it('dry run into an empty core lists everything as created and writes nothing', async () => {
    const res = await call(b, '/kit/import', { content: kitText, passphrase: PASS, dry_run: true });
    expect(res.status, res.body.error).toBe(200);
    const actions = new Map(res.body.data.items.map((item) => [item.key, item.action]));
    expect(actions.get('hosts/52:54:00:aa:00:01')).toBe('created');
    expect(actions.get('profiles/Lab menu')).toBe('created');
    // Settings always exist: parts that differ are conflicts to answer.
    expect(actions.get('settings/general')).toBe('conflict');
    const general = res.body.data.items.find((item) => item.key === 'settings/general');
    expect(general?.changes).toContainEqual({ path: 'server_name', from: 'bootwright', to: 'lab-a' });
    expect(b.core.area('hosts').all()).toHaveLength(0);
  });

  it('answers 409 listing the conflicts when asked', async () => {
    const res = await call(b, '/kit/import', { content: kitText, passphrase: PASS });
    expect(res.status).toBe(409);
    expect(res.body.details?.map((detail) => detail.field)).toContain('settings/general');
  });

  it('round trip: overwrite imports every section; references are remapped and the BMC password decrypts', async () => {
    const res = await call(b, '/kit/import', { content: kitText, passphrase: PASS, on_conflict: 'overwrite' });
    expect(res.status, JSON.stringify(res.body.details ?? res.body.error)).toBe(200);
    const c = b.core;
    expect(c.kernel.settings.general().server_name).toBe('lab-a');
    expect(c.kernel.settings.logging().event_retention_days).toBe(45);
    expect(c.area('dns').settings.get().local_domain).toBe('lab.test');
    expect(c.area('tftp').settings.get().max_blksize).toBe(1400);
    expect(c.area('dhcp').settings.get().subnets.map((subnet) => subnet.subnet)).toEqual(['10.77.0.0/16']);
    const debian = c.area('profiles').all().find((profile) => profile.name === 'Debian 12');
    const menu = c.area('profiles').all().find((profile) => profile.name === 'Lab menu');
    const localDisk = c.area('profiles').all().find((profile) => profile.name === 'Local disk');
    expect(menu?.menu?.entries.map((entry) => entry.profile_id)).toEqual([debian?.id, localDisk?.id]);
    expect(debian?.linux?.cmdline).toBe('auto=true priority=critical');
    expect(c.kernel.settings.netboot().default_profile_id).toBe(debian?.id);
    const host = c.area('hosts').findByMac('52:54:00:aa:00:01');
    expect(host).toMatchObject({ hostname: 'node1', ip: '10.77.0.11', profile_id: debian?.id, tags: ['rack1'] });
    expect(c.area('dhcp').reservations.byMac('52:54:00:aa:00:01')?.host_id).toBe(host?.id);
    expect(c.area('dhcp').reservations.byMac('52:54:00:aa:00:99')?.ip).toBe('10.77.0.99');
    expect(c.area('dhcp').access.list('blacklist').map((entry) => entry.comment)).toEqual(['rogue']);
    expect(c.area('dns').records.all().find((record) => record.name === 'nas')?.value).toBe('10.77.0.5');
    const configs = c.area('power').bmc.configs;
    const bmc = configs.list({}).data[0];
    expect(bmc).toMatchObject({ name: 'node1-bmc', host_id: host?.id, has_password: true });
    const row = configs.get(bmc?.id ?? 0);
    expect(row && (await configs.target(row)).password).toBe('Bmc-P4ss');
    expect(c.area('power').schedules.list({}).data[0]).toMatchObject({ name: 'morning', host_ids: [host?.id] });
    const template = c.area('netboot').answers.list({}).data[0];
    expect(template?.secret_names).toEqual(['root_password']);
    expect(await c.area('netboot').answers.secretValues(template?.id ?? 0)).toEqual({ root_password: 'T0p-secret' });
    const docker = c.area('scripts').byName('Docker');
    const baseline = c.area('baselines').byName('Lab baseline');
    expect(baseline?.scripts[0]).toMatchObject({ script_id: docker?.id, variables: { channel: 'edge' } });
    expect(baseline?.assign).toMatchObject({ host_ids: [host?.id], profile_ids: [debian?.id] });
    expect(c.kernel.events.all().some((event) => event.kind === 'kit.imported')).toBe(true);
    // The same kit again: everything unchanged.
    const again = await call(b, '/kit/import', { content: kitText, passphrase: PASS, dry_run: true });
    const changed = again.body.data.items.filter((item) => item.action !== 'unchanged');
    expect(changed, JSON.stringify(changed)).toEqual([]);
  });

  it('a dry run shows field changes of an update; skip keeps, rename adds beside, overwrite replaces', async () => {
    const profiles = b.core.area('profiles');
    const debian = profiles.all().find((profile) => profile.name === 'Debian 12');
    await profiles.update(debian?.id ?? 0, { description: 'changed here' }, { author: 'carol' });
    const dry = await call(b, '/kit/import', { content: kitText, passphrase: PASS, dry_run: true, include: ['profiles'] });
    const item = dry.body.data.items.find((entry) => entry.key === 'profiles/Debian 12');
    expect(item).toMatchObject({ action: 'conflict', existing_id: debian?.id, changes: [{ path: 'description', from: 'changed here', to: '' }] });
    const skip = await call(b, '/kit/import', { content: kitText, passphrase: PASS, include: ['profiles'], on_conflict: 'skip' });
    expect(skip.status).toBe(200);
    expect(profiles.get(debian?.id ?? 0)?.description).toBe('changed here');
    const rename = await call(b, '/kit/import', { content: kitText, passphrase: PASS, include: ['profiles'], resolutions: { 'profiles/Debian 12': 'rename' } });
    expect(rename.status, rename.body.error).toBe(200);
    expect(rename.body.data.items.find((entry) => entry.key === 'profiles/Debian 12')).toMatchObject({ action: 'renamed', local_name: 'Debian 12 (2)' });
    expect(profiles.all().find((profile) => profile.name === 'Debian 12 (2)')?.description).toBe('');
    const hostRename = await call(b, '/kit/import', { content: kitText, passphrase: PASS, include: ['hosts'], resolutions: {}, on_conflict: 'rename' });
    expect(hostRename.status).toBe(200); // hosts are unchanged: nothing to rename
    await b.core.area('hosts').update(b.core.area('hosts').findByMac('52:54:00:aa:00:01')?.id ?? 0, { description: 'x' });
    const noRename = await call(b, '/kit/import', { content: kitText, passphrase: PASS, include: ['hosts'], on_conflict: 'rename' });
    expect(noRename.status).toBe(400);
    expect(noRename.body.details?.[0]?.field).toBe('resolutions.hosts/52:54:00:aa:00:01');
    const overwrite = await call(b, '/kit/import', { content: kitText, passphrase: PASS, include: ['profiles', 'hosts'], on_conflict: 'overwrite' });
    expect(overwrite.status).toBe(200);
    expect(profiles.get(debian?.id ?? 0)?.description).toBe('');
    expect(b.core.area('hosts').findByMac('52:54:00:aa:00:01')?.description).toBe('');
  });
});

describe('all or nothing', () => {
  it('a write failing part-way undoes every write of the import', async () => {
    const c = await createTestCore({ authenticator: roleAuthenticator });
    try {
      const kit = (await call(a, '/kit/export', { passphrase: PASS, encrypt_whole: true })).text;
      expect(kit).not.toContain('lab-a');
      const schedules = c.core.area('power').schedules;
      const create = schedules.create.bind(schedules);
      schedules.create = async () => {
        throw new AppError('INTERNAL', 'injected failure writing a schedule');
      };
      const before = c.core.kernel.settings.general().server_name;
      const res = await call(c, '/kit/import', { content: kit, passphrase: PASS, on_conflict: 'overwrite' });
      expect(res.status).toBe(500);
      schedules.create = create;
      expect(c.core.area('hosts').all()).toHaveLength(0);
      expect(c.core.area('profiles').all()).toHaveLength(0);
      expect(c.core.area('scripts').list()).toHaveLength(0);
      expect(c.core.area('power').bmc.configs.list({}).data).toHaveLength(0);
      expect(c.core.area('dhcp').reservations.list()).toHaveLength(0);
      expect(c.core.kernel.settings.general().server_name).toBe(before);
      expect(c.core.area('dhcp').settings.get().subnets).toEqual([]);
      // Once the failure is gone the same kit imports.
      const ok = await call(c, '/kit/import', { content: kit, passphrase: PASS, on_conflict: 'overwrite' });
      expect(ok.status, ok.body.error).toBe(200);
      expect(c.core.area('hosts').all()).toHaveLength(1);
    } finally {
      await c.close();
    }
  });
});
