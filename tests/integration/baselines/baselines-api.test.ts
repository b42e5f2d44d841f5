import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignedBaseline, Baseline, BaselineScriptView } from '../../../src-main/baselines/baselines-contract.js';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import { FakeScriptsFacade } from '../../helpers/fake-scripts-facade.js';
import { fakeAnswers, fakeCatalog } from '../../helpers/netboot-fakes.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

/*
 * The baselines API against a real core. The scripts area is built in
 * parallel, so these tests hand the baselines area an in-memory scripts
 * facade (BaselinesAreaOptions.scripts); everything else is real.
 */

let t: TestCore;
let data: { dir: string; remove: () => Promise<void> };
let scripts: FakeScriptsFacade;
const ids = { sh: 0, ps: 0, bat: 0, broken: 0, host: 0, tagged: 0, profile: 0, task: 0, unknownTask: 0 };

async function open(): Promise<TestCore> {
  return createTestCore({
    dataDir: data.dir,
    authenticator: roleAuthenticator,
    baselines: { scripts },
    netboot: { catalogReader: fakeCatalog(), answerRenderer: fakeAnswers() },
  });
}

interface Body<T> {
  success: boolean;
  data: T;
  meta?: { total: number; page: number; size: number };
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
}

async function call<T = Baseline>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, role: Role | null = 'operator') {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: role ? as(role) : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as Body<T> };
}

/** The events of one kind, oldest first. */
function lastEvents(kind: string) {
  return t.core.kernel.events.all().filter((event) => event.kind === kind);
}

async function ok<T = Baseline>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<T> {
  const res = await call<T>(method, url, payload);
  expect(res.status, res.body.error).toBeLessThan(300);
  return res.body.data;
}

beforeAll(async () => {
  data = await tempDir();
  scripts = new FakeScriptsFacade();
  t = await open();
  ids.sh = (await scripts.create({ name: 'Docker', kind: 'sh', content: '#!/bin/sh\necho {{ channel }} on {{ host.hostname }} via {{ server.name }}\n', variables: { channel: 'stable' } })).id;
  ids.ps = (await scripts.create({ name: 'Hello PS', kind: 'powershell', content: 'Write-Host "{{ host.mac }}"' })).id;
  ids.bat = (await scripts.create({ name: 'Batch', kind: 'batch', content: 'echo hi' })).id;
  ids.broken = (await scripts.create({ name: 'Broken', kind: 'sh', content: 'echo {{ x | no_such_filter }}' })).id;
  ids.profile = (await ok<{ id: number }>('POST', '/profiles', { name: 'Local disk', boot_type: 'local' })).id;
  ids.host = (await ok<{ id: number }>('POST', '/hosts', { mac: '52:54:00:12:00:01', hostname: 'web01', group: 'lab', tags: ['blue', 'gpu'], profile_id: ids.profile })).id;
  ids.tagged = (await ok<{ id: number }>('POST', '/hosts', { mac: '52:54:00:12:00:02', hostname: 'web02', tags: ['gpu'] })).id;
  ids.task = (await ok<{ id: number }>('POST', '/netboot/tasks', { host_id: ids.host, distro: 'debian' })).id;
  ids.unknownTask = (await ok<{ id: number }>('POST', '/netboot/tasks', { mac: '52:54:00:12:00:99', distro: 'debian' })).id;
});
afterAll(async () => {
  await t.close();
  await data.remove();
});

describe('baselines CRUD', () => {
  it('creates a baseline with defaults filled in and reads it back; viewers read, only operators write', async () => {
    const res = await call('POST', '/baselines', { name: 'Web servers', description: 'd', scripts: [{ script_id: ids.sh, variables: { channel: 'edge' } }, { script_id: ids.ps, continue_on_error: true }] });
    expect(res.status, res.body.error).toBe(201);
    const baseline = res.body.data;
    expect(baseline).toMatchObject({
      name: 'Web servers',
      description: 'd',
      os_family: 'linux',
      assign: { host_ids: [], groups: [], tags: [], profile_ids: [], task_ids: [], is_default: false },
      scripts: [
        { position: 1, script_id: ids.sh, script_name: 'Docker', kind: 'sh', variables: { channel: 'edge' }, continue_on_error: false, timeout_seconds: 600 },
        { position: 2, script_id: ids.ps, script_name: 'Hello PS', kind: 'powershell', variables: {}, continue_on_error: true, timeout_seconds: 600 },
      ],
    });
    expect((await call('GET', `/baselines/${baseline.id}`, undefined, 'viewer')).body.data).toEqual(baseline);
    expect((await call('POST', '/baselines', { name: 'Viewer made' }, 'viewer')).status).toBe(403);
    expect((await call('PUT', `/baselines/${baseline.id}`, { description: 'x' }, 'viewer')).status).toBe(403);
    expect((await call('DELETE', `/baselines/${baseline.id}`, undefined, 'viewer')).status).toBe(403);
    expect((await call('PUT', `/baselines/${baseline.id}/scripts`, { scripts: [] }, 'viewer')).status).toBe(403);
    expect((await call('GET', '/baselines', undefined, null)).status).toBe(401);
    const events = lastEvents('baseline.created');
    expect(events.at(-1)).toMatchObject({ kind: 'baseline.created', detail: { id: baseline.id, name: 'Web servers', user: 'test-operator' } });
  });

  it('lists with paging, q and os_family', async () => {
    await ok('POST', '/baselines', { name: 'Windows base', os_family: 'windows', scripts: [{ script_id: ids.bat }] });
    const all = await call<Baseline[]>('GET', '/baselines?size=1&sort=name', undefined, 'viewer');
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ total: 2, page: 1, size: 1 });
    expect(all.body.data.map((b) => b.name)).toEqual(['Web servers']);
    expect((await call<Baseline[]>('GET', '/baselines?q=batch', undefined, 'viewer')).body.data.map((b) => b.name)).toEqual(['Windows base']);
    expect((await call<Baseline[]>('GET', '/baselines?os_family=windows', undefined, 'viewer')).body.data.map((b) => b.name)).toEqual(['Windows base']);
    expect((await call('GET', '/baselines?sort=bogus', undefined, 'viewer')).status).toBe(400);
    expect((await call('GET', '/baselines?nope=1', undefined, 'viewer')).status).toBe(400);
  });

  it('refuses bad input with 400 naming the field, and duplicate names with 409', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.name'],
      [{ name: ' leading space' }, 'body.name'],
      [{ name: 'Extra', colour: 'red' }, 'body.colour'],
      [{ name: 'Bad family', os_family: 'beos' }, 'body.os_family'],
      [{ name: 'Ctrl', description: 'a\u0007b' }, 'body.description'],
      [{ name: 'No script', scripts: [{ script_id: 999 }] }, 'body.scripts.0.script_id'],
      [{ name: 'Batch on linux', scripts: [{ script_id: ids.sh }, { script_id: ids.bat }] }, 'body.scripts.1.script_id'],
      [{ name: 'Undeclared', scripts: [{ script_id: ids.sh, variables: { other: 'x' } }] }, 'body.scripts.0.variables.other'],
      [{ name: 'Step extra', scripts: [{ script_id: ids.sh, retries: 2 }] }, 'body.scripts.0.retries'],
      [{ name: 'Too many', scripts: Array.from({ length: 65 }, () => ({ script_id: ids.sh })) }, 'body.scripts'],
      [{ name: 'Ghost host', assign: { host_ids: [9999] } }, 'body.assign.host_ids.0'],
      [{ name: 'Ghost profile', assign: { profile_ids: [9999] } }, 'body.assign.profile_ids.0'],
      [{ name: 'Ghost task', assign: { task_ids: [9999] } }, 'body.assign.task_ids.0'],
      [{ name: 'Bad tag', assign: { tags: ['no spaces'] } }, 'body.assign.tags.0'],
      [{ name: 'Assign extra', assign: { racks: [] } }, 'body.assign.racks'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', '/baselines', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details?.map((d) => d.field), JSON.stringify(payload)).toContain(field);
    }
    const batch = await call('POST', '/baselines', { name: 'Batch on linux', scripts: [{ script_id: ids.bat }] });
    expect(batch.body.error).toBe('body.scripts.0.script_id: step 1: script "Batch" (batch) runs on windows, not in a linux baseline');
    const duplicate = await call('POST', '/baselines', { name: 'WEB SERVERS' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toContain('baseline "Web servers"');
    expect((await call<Baseline[]>('GET', '/baselines', undefined, 'viewer')).body.meta?.total).toBe(2);
  });

  it('assigns targets: each target to one baseline and one default, 409 naming the other baseline', async () => {
    const web = (await call<Baseline[]>('GET', '/baselines?q=web', undefined, 'viewer')).body.data[0]!;
    const assigned = await ok('PUT', `/baselines/${web.id}`, { assign: { host_ids: [ids.host], groups: ['lab'], is_default: true } });
    expect(assigned.assign).toEqual({ host_ids: [ids.host], groups: ['lab'], tags: [], profile_ids: [], task_ids: [], is_default: true });
    // assign replaces only the lists it names.
    const more = await ok('PUT', `/baselines/${web.id}`, { assign: { tags: ['gpu'], profile_ids: [ids.profile], task_ids: [ids.task] } });
    expect(more.assign).toEqual({ host_ids: [ids.host], groups: ['lab'], tags: ['gpu'], profile_ids: [ids.profile], task_ids: [ids.task], is_default: true });
    const other = await ok('POST', '/baselines', { name: 'Other' });
    for (const [assign, message] of [
      [{ host_ids: [ids.host] }, `host ${ids.host} is already assigned to baseline "Web servers" (id ${web.id})`],
      [{ groups: ['LAB'] }, `group "LAB" is already assigned to baseline "Web servers" (id ${web.id})`],
      [{ tags: ['gpu'] }, `tag "gpu" is already assigned to baseline "Web servers" (id ${web.id})`],
      [{ profile_ids: [ids.profile] }, `profile ${ids.profile} is already assigned to baseline "Web servers" (id ${web.id})`],
      [{ task_ids: [ids.task] }, `install task ${ids.task} is already assigned to baseline "Web servers" (id ${web.id})`],
      [{ is_default: true }, `baseline "Web servers" (id ${web.id}) is already the default`],
    ] as const) {
      const res = await call('PUT', `/baselines/${other.id}`, { assign });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(message);
    }
    const renamed = await call('PUT', `/baselines/${other.id}`, { name: 'web servers' });
    expect(renamed.status).toBe(409);
    expect((await call('PUT', `/baselines/${other.id}`, {})).status).toBe(400);
    expect((await call('PUT', '/baselines/9999', { description: 'x' })).status).toBe(404);
    expect((await call('DELETE', `/baselines/${other.id}`)).status).toBe(200);
    expect((await call('GET', `/baselines/${other.id}`, undefined, 'viewer')).status).toBe(404);
    expect(lastEvents('baseline.deleted').at(-1)).toMatchObject({ detail: { id: other.id, name: 'Other' } });
  });

  it('reads and replaces the ordered scripts of a baseline', async () => {
    const win = (await call<Baseline[]>('GET', '/baselines?os_family=windows', undefined, 'viewer')).body.data[0]!;
    const read = await call<BaselineScriptView[]>('GET', `/baselines/${win.id}/scripts`, undefined, 'viewer');
    expect(read.body.data.map((s) => s.script_name)).toEqual(['Batch']);
    const put = await call<BaselineScriptView[]>('PUT', `/baselines/${win.id}/scripts`, { scripts: [{ script_id: ids.ps, timeout_seconds: 30 }, { script_id: ids.bat, continue_on_error: true }] });
    expect(put.status, put.body.error).toBe(200);
    expect(put.body.data.map((s) => [s.position, s.script_name, s.timeout_seconds, s.continue_on_error])).toEqual([
      [1, 'Hello PS', 30, false],
      [2, 'Batch', 600, true],
    ]);
    const bad = await call('PUT', `/baselines/${win.id}/scripts`, { scripts: [{ script_id: ids.ps }, { script_id: ids.sh }] });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.[0]?.field).toBe('body.scripts.1.script_id');
    expect((await call('PUT', `/baselines/${win.id}/scripts`, { scripts: [], extra: 1 })).status).toBe(400);
    expect((await call('GET', '/baselines/9999/scripts', undefined, 'viewer')).status).toBe(404);
    expect((await call('PUT', '/baselines/9999/scripts', { scripts: [] })).status).toBe(404);
    expect(lastEvents('baseline.updated').at(-1)).toMatchObject({ detail: { id: win.id, fields: ['scripts'] } });
  });

  it('makes a delete of a script a baseline runs a 409 naming the baseline', async () => {
    const err = await scripts.remove(ids.bat).catch((e: unknown) => e);
    expect(String(err)).toContain('baseline "Windows base"');
    expect(scripts.get(ids.bat)).toBeDefined();
  });
});

describe('GET /baselines/assigned', () => {
  async function assigned(query: string, role: Role = 'operator') {
    return call<AssignedBaseline>('GET', `/baselines/assigned?${query}`, undefined, role);
  }

  it('is for operators, and takes exactly one of mac or host_id', async () => {
    expect((await assigned(`host_id=${ids.host}`, 'viewer')).status).toBe(403);
    expect((await assigned('')).status).toBe(400);
    expect((await assigned(`mac=52:54:00:12:00:01&host_id=${ids.host}`)).status).toBe(400);
    expect((await assigned('mac=not-a-mac')).body.details?.[0]?.field).toBe('querystring.mac');
    expect((await assigned('host_id=9999')).status).toBe(404);
    expect((await assigned(`host_id=${ids.host}&task_id=9999`)).status).toBe(404);
    expect((await assigned(`host_id=${ids.host}&task_id=${ids.unknownTask}`)).body.details?.[0]?.field).toBe('querystring.task_id');
    expect((await assigned('mac=52:54:00:12:00:01&extra=1')).status).toBe(400);
  });

  it('resolves by host, then tag, task and default as targets drop out, rendering the scripts', async () => {
    const byHost = await assigned(`host_id=${ids.host}`);
    expect(byHost.status, byHost.body.error).toBe(200);
    expect(byHost.body.data).toMatchObject({ rule: 'host', baseline: { name: 'Web servers' }, host: { id: ids.host, mac: '52:54:00:12:00:01', hostname: 'web01' } });
    expect(byHost.body.data.reason).toContain('assigned to it directly');
    const [first, second] = byHost.body.data.scripts;
    expect(first).toMatchObject({ position: 1, name: 'Docker', kind: 'sh', version: 1, continue_on_error: false });
    expect(first?.content).toBe('#!/bin/sh\necho edge on web01 via Bootwright\n'.replace('Bootwright', t.core.kernel.settings.general().server_name));
    expect(first?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toMatchObject({ position: 2, name: 'Hello PS', content: 'Write-Host "52:54:00:12:00:01"', continue_on_error: true });
    // The same machine by MAC (any spelling).
    expect((await assigned('mac=52-54-00-12-00-01')).body.data.rule).toBe('host');
    // Another host with the tag only.
    expect((await assigned(`host_id=${ids.tagged}`)).body.data).toMatchObject({ rule: 'tag', reason: expect.stringContaining('tag "gpu"') });
    // An unknown MAC: no host, so only its active task (none assigned) or the default.
    expect((await assigned('mac=52:54:00:12:00:99')).body.data).toMatchObject({ rule: 'default', host: null, baseline: { name: 'Web servers' } });
  });

  it('drops a deleted host from the assignment and falls through to the next rule', async () => {
    const web = (await call<Baseline[]>('GET', '/baselines?q=web', undefined, 'viewer')).body.data[0]!;
    await ok('PUT', `/baselines/${web.id}`, { assign: { groups: [], tags: [], is_default: false } });
    const extra = (await ok<{ id: number }>('POST', '/hosts', { mac: '52:54:00:12:00:03', hostname: 'temp' })).id;
    await ok('PUT', `/baselines/${web.id}`, { assign: { host_ids: [ids.host, extra] } });
    expect((await call('DELETE', `/hosts/${extra}`)).status).toBe(200);
    expect((await call('GET', `/baselines/${web.id}`, undefined, 'viewer')).body.data.assign.host_ids).toEqual([ids.host]);
    // Task rule: the host's active install task (found by MAC), or given.
    await ok('PUT', `/baselines/${web.id}`, { assign: { host_ids: [] } });
    expect((await assigned(`host_id=${ids.host}`)).body.data).toMatchObject({ rule: 'task', reason: expect.stringContaining(`install task ${ids.task}`) });
    expect((await assigned(`host_id=${ids.host}&task_id=${ids.task}`)).body.data.rule).toBe('task');
    await ok('PUT', `/baselines/${web.id}`, { assign: { task_ids: [] } });
    expect((await assigned(`host_id=${ids.host}`)).body.data).toMatchObject({ rule: 'profile', reason: expect.stringContaining('profile "Local disk"') });
    await ok('PUT', `/baselines/${web.id}`, { assign: { profile_ids: [] } });
    expect((await assigned(`host_id=${ids.host}`)).body.data).toMatchObject({ rule: 'none', baseline: null, scripts: [] });
  });

  it('answers 409 naming the script when a script does not render', async () => {
    const made = await ok('POST', '/baselines', { name: 'Broken one', scripts: [{ script_id: ids.broken }], assign: { host_ids: [ids.tagged] } });
    const res = await assigned(`host_id=${ids.tagged}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('INVALID_STATE');
    expect(res.body.error).toContain(`script "Broken" (id ${ids.broken}, step 1 of baseline "Broken one" (id ${made.id})) does not render`);
    await ok('DELETE', `/baselines/${made.id}`);
  });
});

describe('persistence', () => {
  it('keeps baselines, their steps and assignments across a restart', async () => {
    const before = (await call<Baseline[]>('GET', '/baselines?sort=id', undefined, 'viewer')).body.data;
    expect(before.length).toBeGreaterThan(0);
    await t.core.stop();
    t = await open();
    const after = (await call<Baseline[]>('GET', '/baselines?sort=id', undefined, 'viewer')).body.data;
    expect(after).toEqual(before);
    // Ids are never reused and the usage check is registered again on the new core.
    const next = await ok('POST', '/baselines', { name: 'After restart' });
    expect(next.id).toBeGreaterThan(Math.max(...before.map((b) => b.id)));
    expect(String(await scripts.remove(ids.bat).catch((e: unknown) => e))).toContain('baseline "Windows base"');
  });
});
