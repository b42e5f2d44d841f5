import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import type { ScriptVersion } from '../../../src-main/profiles/profile-types.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

let t: TestCore;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
});
afterAll(async () => t.close());

interface Body {
  success: boolean;
  data: Record<string, unknown> & Record<string, unknown>[];
  meta?: { total: number; page: number; size: number };
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, role: Role = 'operator') {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as Body };
}

async function create(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await call('POST', '/profiles', body);
  expect(res.status, res.body.error).toBe(201);
  return res.body.data;
}

const SCRIPT = '#!ipxe\necho hello {{ host.hostname }}\nchain {{ server.boot_url }}/x.ipxe\n';

describe('profiles CRUD and boot types', () => {
  it('creates an ipxe_script profile with variables and reads it back', async () => {
    const profile = await create({ name: 'Hand written', boot_type: 'ipxe_script', script: SCRIPT, description: 'd', variables: { release: 'bookworm' } });
    expect(profile).toMatchObject({
      name: 'Hand written',
      description: 'd',
      boot_type: 'ipxe_script',
      script: SCRIPT,
      linux: null,
      chain: null,
      sanboot: null,
      menu: null,
      variables: { release: 'bookworm' },
      default_for_groups: [],
      script_version: 1,
    });
    const read = await call('GET', `/profiles/${String(profile.id)}`, undefined, 'viewer');
    // A save answers the profile and its warnings (none: an ipxe_script names no file to check).
    const { warnings, ...saved } = profile;
    expect(warnings).toEqual([]);
    expect(read.body.data).toEqual({ ...saved, used_by: { assigned: 0, by_group: 0 } });
  });

  it('generates viewable scripts for linux, chain, sanboot, local and menu profiles', async () => {
    const linux = await create({
      name: 'Debian installer',
      boot_type: 'linux',
      linux: { kernel: 'debian/linux', initrds: ['debian/initrd.gz', 'http://mirror.example/extra.img'], cmdline: 'auto=true hostname={{ host.hostname }}' },
    });
    expect(linux.linux).toEqual({ kernel: 'debian/linux', initrds: ['debian/initrd.gz', 'http://mirror.example/extra.img'], cmdline: 'auto=true hostname={{ host.hostname }}' });
    expect(linux.script).toContain('kernel {{ server.boot_url }}/debian/linux initrd=initrd0 initrd=initrd1 auto=true hostname={{ host.hostname }}');
    expect(linux.script).toContain('initrd --name initrd0 {{ server.boot_url }}/debian/initrd.gz');
    expect(linux.script).toContain('initrd --name initrd1 http://mirror.example/extra.img');
    expect(String(linux.script).startsWith('#!ipxe\n')).toBe(true);

    const chain = await create({ name: 'netboot.xyz', boot_type: 'chain', chain: { url: 'https://boot.netboot.xyz' } });
    expect(chain.script).toContain('chain --autofree https://boot.netboot.xyz');
    const san = await create({ name: 'Live ISO', boot_type: 'sanboot', sanboot: { url: 'isos/live.iso' } });
    expect(san.script).toContain('sanboot --no-describe {{ server.boot_url }}/isos/live.iso');
    const local = await create({ name: 'Local disk', boot_type: 'local' });
    expect(local.script).toContain('exit 0');

    const menu = await create({
      name: 'Lab menu',
      boot_type: 'menu',
      menu: { title: 'Lab', entries: [{ profile_id: linux.id }, { profile_id: san.id, label: 'Rescue' }], default_entry: linux.id, timeout_seconds: 5 },
    });
    expect(menu.menu).toEqual({
      title: 'Lab',
      entries: [
        { profile_id: linux.id, label: 'Debian installer' },
        { profile_id: san.id, label: 'Rescue' },
      ],
      default_entry: linux.id,
      timeout_seconds: 5,
    });
    expect(menu.script).toContain(`item p${String(linux.id)} Debian installer`);
    expect(menu.script).toContain(`choose --timeout 5000 --default p${String(linux.id)} bw-choice`);
    expect(menu.script).toContain(`&profile=${String(san.id)}`);
  });

  it('changes boot type, clearing the old settings, and refuses settings of another type', async () => {
    const profile = await create({ name: 'Switcher', boot_type: 'chain', chain: { url: 'http://a.example/x' } });
    const wrong = await call('PUT', `/profiles/${String(profile.id)}`, { linux: { kernel: 'k' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details?.[0]?.field).toBe('body.linux');
    const missing = await call('PUT', `/profiles/${String(profile.id)}`, { boot_type: 'linux' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('body.linux');
    const generatedScript = await call('PUT', `/profiles/${String(profile.id)}`, { script: SCRIPT });
    expect(generatedScript.status).toBe(400);
    expect(generatedScript.body.error).toContain('ipxe_script');
    const switched = await call('PUT', `/profiles/${String(profile.id)}`, { boot_type: 'linux', linux: { kernel: 'k/vmlinuz' } });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ boot_type: 'linux', chain: null, linux: { kernel: 'k/vmlinuz', initrds: [], cmdline: '' } });
    // To ipxe_script without a script: the generated one becomes the hand-written starting point.
    const toScript = await call('PUT', `/profiles/${String(profile.id)}`, { boot_type: 'ipxe_script' });
    expect(toScript.body.data).toMatchObject({ boot_type: 'ipxe_script', linux: null, script: switched.body.data.script });
  });

  it('rejects bad input with a 400 naming the field, and duplicate names or group defaults with 409', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ boot_type: 'local' }, 'name'],
      [{ name: 'x', boot_type: 'bogus' }, 'boot_type'],
      [{ name: 'bad ${name}', boot_type: 'local' }, 'name'],
      [{ name: 'no script', boot_type: 'ipxe_script' }, 'script'],
      [{ name: 'no linux', boot_type: 'linux' }, 'linux'],
      [{ name: 'escape', boot_type: 'linux', linux: { kernel: '../../etc/passwd' } }, 'kernel'],
      [{ name: 'spaces', boot_type: 'chain', chain: { url: 'a b' } }, 'url'],
      [{ name: 'vars', boot_type: 'local', variables: { 'Bad-Key': 'x' } }, 'variables'],
      [{ name: 'menu self', boot_type: 'menu', menu: { entries: [{ profile_id: 99999 }] } }, 'profile_id'],
      [{ name: 'menu default', boot_type: 'menu', menu: { entries: [], default_entry: 1 } }, 'entries'],
      [{ name: 'extra', boot_type: 'local', unknown: 1 }, 'unknown'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/profiles', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(field);
    }
    await create({ name: 'Unique one', boot_type: 'local', default_for_groups: ['web'] });
    const sameName = await call('POST', '/profiles', { name: 'UNIQUE ONE', boot_type: 'local' });
    expect(sameName.status).toBe(409);
    const sameGroup = await call('POST', '/profiles', { name: 'Another', boot_type: 'local', default_for_groups: ['Web'] });
    expect(sameGroup.status).toBe(409);
    expect(sameGroup.body.error).toContain('Unique one');
  });

  it('refuses menus that would loop', async () => {
    const inner = await create({ name: 'Loop inner', boot_type: 'local' });
    const outer = await create({ name: 'Loop outer', boot_type: 'menu', menu: { entries: [{ profile_id: inner.id }] } });
    const loop = await call('PUT', `/profiles/${String(inner.id)}`, { boot_type: 'menu', menu: { entries: [{ profile_id: outer.id }] } });
    expect(loop.status).toBe(400);
    expect(loop.body.error).toContain('loop');
    const self = await call('PUT', `/profiles/${String(outer.id)}`, { menu: { entries: [{ profile_id: outer.id }] } });
    expect(self.status).toBe(400);
  });

  it('filters the list by boot_type, group and q', async () => {
    await create({ name: 'Filter chain', boot_type: 'chain', chain: { url: 'http://f.example/' }, default_for_groups: ['filter-group'] });
    const byType = await call('GET', '/profiles?boot_type=chain&q=filter', undefined, 'viewer');
    expect((byType.body.data as unknown as { name: string }[]).map((p) => p.name)).toEqual(['Filter chain']);
    const byGroup = await call('GET', '/profiles?group=FILTER-GROUP', undefined, 'viewer');
    expect(byGroup.body.meta?.total).toBe(1);
    expect((await call('GET', '/profiles?sort=bogus', undefined, 'viewer')).status).toBe(400);
  });
});

describe('render errors are caught at save', () => {
  it('answers 400 with the line and stores nothing', async () => {
    const broken = await call('POST', '/profiles', { name: 'Broken', boot_type: 'ipxe_script', script: '#!ipxe\necho ok\n{% if host.hostname %}\necho never closed\n' });
    expect(broken.status).toBe(400);
    expect(broken.body.details?.[0]).toMatchObject({ field: 'body.script' });
    expect(broken.body.details?.[0]?.message).toMatch(/^line 3: /);
    const filter = await call('POST', '/profiles', { name: 'Broken', boot_type: 'ipxe_script', script: '#!ipxe\n\n{{ host.mac | no_such_filter }}\n' });
    expect(filter.status).toBe(400);
    expect(filter.body.details?.[0]?.message).toMatch(/^line 3: .*no_such_filter/);
    const shebang = await call('POST', '/profiles', { name: 'Broken', boot_type: 'ipxe_script', script: 'echo no shebang\n' });
    expect(shebang.status).toBe(400);
    expect(shebang.body.error).toContain('#!ipxe');
    const include = await call('POST', '/profiles', { name: 'Broken', boot_type: 'ipxe_script', script: "#!ipxe\n{% include 'secrets' %}\n" });
    expect(include.status).toBe(400);
    expect(include.body.error).toContain('line 2');
    const inCmdline = await call('POST', '/profiles', { name: 'Broken', boot_type: 'linux', linux: { kernel: 'k', cmdline: 'a={{ x | nope }}' } });
    expect(inCmdline.status).toBe(400);
    expect(inCmdline.body.details?.[0]?.field).toBe('body.linux');
    const list = await call('GET', '/profiles?q=Broken', undefined, 'viewer');
    expect(list.body.meta?.total).toBe(0);

    const good = await create({ name: 'Fine', boot_type: 'ipxe_script', script: SCRIPT });
    const update = await call('PUT', `/profiles/${String(good.id)}`, { script: '#!ipxe\n{{ "x" | bogus }}\n' });
    expect(update.status).toBe(400);
    const after = await call('GET', `/profiles/${String(good.id)}`, undefined, 'viewer');
    expect(after.body.data).toMatchObject({ script: SCRIPT, script_version: 1 });
  });
});

describe('script versions', () => {
  it('records every script change with author and comment; other changes add no version', async () => {
    const profile = await create({ name: 'Versioned', boot_type: 'ipxe_script', script: '#!ipxe\necho one\n', comment: 'first cut' });
    const id = String(profile.id);
    await call('PUT', `/profiles/${id}`, { description: 'only the description' });
    await call('PUT', `/profiles/${id}`, { script: '#!ipxe\necho two\n', comment: 'second' });
    const third = await call('PUT', `/profiles/${id}`, { script: '#!ipxe\necho three\necho more\n' }, 'admin');
    expect(third.body.data.script_version).toBe(3);

    const list = await call('GET', `/profiles/${id}/script-versions`, undefined, 'viewer');
    expect(list.status).toBe(200);
    const versions = list.body.data as unknown as { id: number; version: number; author: string; comment: string; script: string; boot_type: string }[];
    expect(versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(versions.map((v) => v.author)).toEqual(['test-admin', 'test-operator', 'test-operator']);
    expect(versions.map((v) => v.comment)).toEqual(['updated', 'second', 'first cut']);
    expect(Object.keys(versions[0]!).sort()).toEqual(['author', 'boot_type', 'comment', 'created_at', 'id', 'profile_id', 'script', 'version']);

    const one = await call('GET', `/profiles/${id}/script-versions/${versions[2]!.id}`, undefined, 'viewer');
    expect(one.body.data).toMatchObject({ version: 1, script: '#!ipxe\necho one\n' });
    expect((await call('GET', `/profiles/${id}/script-versions/999999`, undefined, 'viewer')).status).toBe(404);
    const otherProfile = await create({ name: 'Other versions', boot_type: 'local' });
    expect((await call('GET', `/profiles/${String(otherProfile.id)}/script-versions/${versions[2]!.id}`, undefined, 'viewer')).status).toBe(404);
  });

  it('diffs a version against the current script or another version (unified)', async () => {
    const profile = await create({ name: 'Diffed', boot_type: 'ipxe_script', script: '#!ipxe\necho a\necho b\n' });
    const id = String(profile.id);
    await call('PUT', `/profiles/${id}`, { script: '#!ipxe\necho a\necho B\necho c\n' });
    await call('PUT', `/profiles/${id}`, { script: '#!ipxe\necho A\necho B\necho c\n' });
    const versions = (await call('GET', `/profiles/${id}/script-versions?sort=version`, undefined, 'viewer')).body.data as unknown as { id: number }[];
    const [v1, v2] = versions;
    const toCurrent = await call('GET', `/profiles/${id}/script-diff/${v1!.id}`, undefined, 'viewer');
    expect(toCurrent.status).toBe(200);
    expect(toCurrent.body.data).toMatchObject({ from_version: 1, to_version: 3, additions: 3, deletions: 2 });
    const diff = String(toCurrent.body.data.diff);
    expect(diff).toContain('--- profile-');
    expect(diff).toContain('+++ profile-');
    expect(diff).toContain('@@ -1,3 +1,4 @@');
    expect(diff).toContain('-echo b\n');
    expect(diff).toContain('+echo c\n');
    const toV2 = await call('GET', `/profiles/${id}/script-diff/${v1!.id}?to=${v2!.id}`, undefined, 'viewer');
    expect(toV2.body.data).toMatchObject({ from_version: 1, to_version: 2, additions: 2, deletions: 1 });
    expect(String(toV2.body.data.diff)).toContain(' echo a\n');
    expect((await call('GET', `/profiles/${id}/script-diff/${v1!.id}?to=999999`, undefined, 'viewer')).status).toBe(404);
  });

  it('rolls back as a new version, restoring the settings too, never rewriting history', async () => {
    const profile = await create({ name: 'Rolled', boot_type: 'linux', linux: { kernel: 'old/linux' } });
    const id = String(profile.id);
    await call('PUT', `/profiles/${id}`, { boot_type: 'ipxe_script', script: '#!ipxe\necho replaced\n' });
    const v1 = ((await call('GET', `/profiles/${id}/script-versions?sort=version`, undefined, 'viewer')).body.data as unknown as { id: number; script: string }[])[0]!;
    const rolled = await call('POST', `/profiles/${id}/script-rollback/${v1.id}`);
    expect(rolled.status).toBe(200);
    expect(rolled.body.data).toMatchObject({ boot_type: 'linux', linux: { kernel: 'old/linux' }, script: v1.script, script_version: 3 });
    // Rolling back to what is current already stores no duplicate: 200 with the profile unchanged.
    const again = await call('POST', `/profiles/${id}/script-rollback/${v1.id}`, { comment: 'again' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ script_version: 3, script: v1.script });
    const versions = (await call('GET', `/profiles/${id}/script-versions`, undefined, 'viewer')).body.data as unknown as { version: number; comment: string; script: string }[];
    expect(versions.map((v) => [v.version, v.comment])).toEqual([
      [3, 'rollback to version 1'],
      [2, 'updated'],
      [1, 'created'],
    ]);
    expect(versions[1]!.script).toBe('#!ipxe\necho replaced\n');
    expect((await call('POST', `/profiles/${id}/script-rollback/999999`)).status).toBe(404);
    expect((await call('POST', `/profiles/${id}/script-rollback/${v1.id}`, { bogus: 1 })).status).toBe(400);
  });

  it('refuses a rollback whose menu entries no longer exist', async () => {
    const entry = await create({ name: 'Gone soon', boot_type: 'local' });
    const menu = await create({ name: 'Rollback menu', boot_type: 'menu', menu: { entries: [{ profile_id: entry.id }] } });
    const v1 = ((await call('GET', `/profiles/${String(menu.id)}/script-versions`, undefined, 'viewer')).body.data as unknown as { id: number }[])[0]!;
    await call('PUT', `/profiles/${String(menu.id)}`, { boot_type: 'local' });
    expect((await call('DELETE', `/profiles/${String(entry.id)}`)).status).toBe(200);
    const rollback = await call('POST', `/profiles/${String(menu.id)}/script-rollback/${v1.id}`);
    expect(rollback.status).toBe(400);
    expect(rollback.body.error).toContain('does not exist');
  });
});

describe('deleting a profile', () => {
  it('is a 409 naming the hosts, menus and setting that use it; after release it deletes with its history', async () => {
    const profile = await create({ name: 'In use', boot_type: 'local' });
    const id = profile.id as number;
    const hostA = await call('POST', '/hosts', { mac: '52:54:00:de:00:01', hostname: 'user-a', profile_id: id });
    const hostB = await call('POST', '/hosts', { mac: '52:54:00:de:00:02', profile_id: id });
    const menu = await create({ name: 'Uses it', boot_type: 'menu', menu: { entries: [{ profile_id: id }] } });
    const settings = await call('PUT', '/settings/netboot', { default_action: 'profile', default_profile_id: id });
    expect(settings.status).toBe(200);

    const refused = await call('DELETE', `/profiles/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(`user-a (id ${String(hostA.body.data.id)})`);
    expect(refused.body.error).toContain(`52:54:00:de:00:02 (id ${String(hostB.body.data.id)})`);
    expect(refused.body.error).toContain('"Uses it"');
    expect(refused.body.error).toContain('netboot');

    await call('PUT', `/hosts/${String(hostA.body.data.id)}`, { profile_id: null });
    await call('DELETE', `/hosts/${String(hostB.body.data.id)}`);
    await call('DELETE', `/profiles/${String(menu.id)}`);
    await call('PUT', '/settings/netboot', { default_action: 'menu', default_profile_id: null });
    const deleted = await call('DELETE', `/profiles/${id}`);
    expect(deleted.status).toBe(200);
    expect((await call('GET', `/profiles/${id}/script-versions`, undefined, 'viewer')).status).toBe(404);
    expect(t.core.kernel.store.collection<ScriptVersion>('profile_script_versions').filter((v) => v.profile_id === id)).toEqual([]);
  });

  it('settings netboot.default_profile_id must name an existing profile', async () => {
    const res = await call('PUT', '/settings/netboot', { default_action: 'profile', default_profile_id: 424242 });
    expect(res.status).toBe(400);
    expect(res.body.details?.[0]).toMatchObject({ field: 'body.default_profile_id', message: 'profile 424242 does not exist' });
    expect(t.core.kernel.settings.netboot().default_profile_id).toBeNull();
  });
});
