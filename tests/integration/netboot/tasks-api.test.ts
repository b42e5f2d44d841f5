import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallTask } from '../../../src-main/netboot/netboot-contract.js';
import { bootScript, call, createTask, nextMac, tasksLab, type TasksLab } from './tasks-kit.js';

let lab: TasksLab;
beforeAll(async () => {
  lab = await tasksLab();
});
afterAll(async () => lab.close());

describe('/netboot/tasks', () => {
  it('creates with defaults and shows the answer URL to operators only', async () => {
    const mac = nextMac();
    const created = await createTask(lab, { mac: mac.toUpperCase().replaceAll(':', '-'), distro: 'debian', template_id: 1, variables: { hostname: 'n1' } });
    expect(created).toMatchObject({ mac, distro: 'debian', version: '12', arch: 'x86_64', state: 'pending', template_id: 1, template_version: 3, after_install: 'local_disk', started_at: null });
    expect(created.answer_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/v1/netboot/answer/${created.id}\\?token=[A-Za-z0-9_-]{43}$`));
    expect(created.timeline).toEqual([expect.objectContaining({ kind: 'netboot.task.state', state: 'pending' })]);
    const minutes = (Date.parse(created.expires_at) - Date.parse(created.created_at)) / 60_000;
    expect(Math.round(minutes)).toBe(1440);

    const asViewer = await call<InstallTask>(lab, 'GET', `/netboot/tasks/${created.id}`, { headers: lab.viewer });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.data).not.toHaveProperty('answer_url');
    expect(asViewer.text).not.toContain('token=');
    const listed = await call<InstallTask[]>(lab, 'GET', `/netboot/tasks?mac=${mac}`, { headers: lab.viewer });
    expect(listed.body.data).toHaveLength(1);
    expect(listed.text).not.toContain('token=');
    const asOperator = await call<InstallTask>(lab, 'GET', `/netboot/tasks/${created.id}`);
    expect(asOperator.body.data.answer_url).toBe(created.answer_url);
    expect((await call(lab, 'POST', '/netboot/tasks', { body: { mac: nextMac(), distro: 'debian' }, headers: lab.viewer })).status).toBe(403);
    expect((await call(lab, 'GET', '/netboot/tasks', { headers: {} })).status).toBe(401);
  });

  it('refuses a second active task for a MAC with 409 naming the first, bad input with 400', async () => {
    const mac = nextMac();
    const first = await createTask(lab, { mac, distro: 'debian' });
    const second = await call(lab, 'POST', '/netboot/tasks', { body: { mac, distro: 'debian' } });
    expect(second.status).toBe(409);
    expect(second.body.error).toContain(`install task ${first.id}`);
    expect((await call(lab, 'POST', '/netboot/tasks', { body: { mac: nextMac(), distro: 'debian', template_id: 2 } })).body.error).toMatch(/kickstart template/);
    expect((await call(lab, 'POST', '/netboot/tasks', { body: { mac: nextMac(), distro: 'nope' } })).status).toBe(404);
    expect((await call(lab, 'POST', '/netboot/tasks', { body: { mac: 'zz', distro: 'debian' } })).status).toBe(400);
    expect((await call(lab, 'POST', '/netboot/tasks', { body: { distro: 'debian' } })).status).toBe(400);
  });

  it('cancels, restarts with a new token, changes while active, deletes; the timeline shows the boot', async () => {
    const mac = nextMac();
    const created = await createTask(lab, { mac, distro: 'debian' });
    await bootScript(lab, mac);
    const read = await call<InstallTask>(lab, 'GET', `/netboot/tasks/${created.id}`);
    expect(read.body.data.state).toBe('booting');
    expect(read.body.data.timeline.map((item) => item.kind)).toEqual(expect.arrayContaining(['netboot.task.state', 'boot.script_served']));

    const changed = await call<InstallTask>(lab, 'PUT', `/netboot/tasks/${created.id}`, { body: { variables: { hostname: 'x' }, after_install: 'host_profile', expires_in_minutes: 30 } });
    expect(changed.body.data).toMatchObject({ variables: { hostname: 'x' }, after_install: 'host_profile', state: 'booting' });
    const cancelled = await call<InstallTask>(lab, 'PUT', `/netboot/tasks/${created.id}`, { body: { state: 'cancelled' } });
    expect(cancelled.body.data).toMatchObject({ state: 'cancelled' });
    expect((await call(lab, 'PUT', `/netboot/tasks/${created.id}`, { body: { variables: {} } })).status).toBe(409);
    const restarted = await call<InstallTask>(lab, 'PUT', `/netboot/tasks/${created.id}`, { body: { state: 'pending' } });
    expect(restarted.body.data).toMatchObject({ state: 'pending', started_at: null, finished_at: null });
    expect(restarted.body.data.answer_url).not.toBe(created.answer_url);
    expect((await fetch(created.answer_url ?? '')).status).toBe(404);
    expect((await fetch(restarted.body.data.answer_url ?? '')).status).toBe(200);

    // The answer fetch moved the restarted task on: an installer that fetched its answer has booted.
    const filtered = await call<InstallTask[]>(lab, 'GET', `/netboot/tasks?state=booting&mac=${mac}`);
    expect(filtered.body.data.map((task) => task.id)).toEqual([created.id]);
    expect((await call(lab, 'DELETE', `/netboot/tasks/${created.id}`)).status).toBe(200);
    expect((await call(lab, 'GET', `/netboot/tasks/${created.id}`)).status).toBe(404);
  });

  it('audits operator writes but not the installers\' callbacks', async () => {
    const mac = nextMac();
    const created = await createTask(lab, { mac, distro: 'debian' });
    const token = new URL(created.answer_url ?? '').searchParams.get('token') ?? '';
    expect((await fetch(`${lab.base}/api/v1/netboot/callback/${created.id}/${token}/installing`, { method: 'POST' })).status).toBe(200);
    await lab.t.core.kernel.audit.flush();
    const rows = lab.t.core.kernel.audit.all();
    expect(rows.some((row) => row.path === '/api/v1/netboot/tasks' && row.method === 'POST')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('/netboot/callback/');
  });
});

describe('POST /profiles/from-netboot', () => {
  it('makes an interactive linux profile at the served paths, without an answer URL', async () => {
    const reply = await call<{ id: number; name: string; boot_type: string; linux: { kernel: string; initrds: string[]; cmdline: string } }>(lab, 'POST', '/profiles/from-netboot', {
      body: { distro: 'debian', variables: { hostname: 'lab' } },
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).toMatchObject({
      name: 'Debian 12 (x86_64) installer',
      boot_type: 'linux',
      linux: { kernel: 'netboot/debian/12/x86_64/linux', initrds: ['netboot/debian/12/x86_64/initrd.gz'], cmdline: 'hostname={{ variables.hostname }} --- quiet' },
    });
    expect((await call(lab, 'POST', '/profiles/from-netboot', { body: { distro: 'winpe' } })).status).toBe(400);
    expect((await call(lab, 'POST', '/profiles/from-netboot', { body: { distro: 'debian' }, headers: lab.viewer })).status).toBe(403);
    // A host on that profile boots it with its own variables rendered.
    const mac = nextMac();
    expect((await call(lab, 'POST', '/hosts', { body: { mac, profile_id: reply.body.data.id } })).status).toBe(201);
    const script = await bootScript(lab, mac);
    expect(script).toContain(`kernel ${lab.base}/boot/netboot/debian/12/x86_64/linux initrd=initrd0 hostname=lab --- quiet`);
  });
});
