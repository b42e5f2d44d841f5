import { rename } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallTask } from '../../../src-main/netboot/netboot-contract.js';
import { lintIpxeScript } from '../../unit/boot-scripts/ipxe-lint.js';
import { answerUrlIn, bootScript, call, createTask, eventsSince, lastEventId, nextMac, tasksLab, type TasksLab } from './tasks-kit.js';

let lab: TasksLab;
beforeAll(async () => {
  lab = await tasksLab();
  await lab.t.core.kernel.settings.update({ netboot: { default_action: 'menu', default_profile_id: null, record_unknown_hosts: true, menu_timeout_seconds: 10 } });
});
afterAll(async () => lab.close());

function task(id: number): InstallTask {
  const row = lab.t.core.area('netboot').tasks.service.require(id);
  return { ...row } as unknown as InstallTask;
}

describe('a machine with an install task', () => {
  it('PXE-boots into its installer over HTTP /boot/, moves to booting; a second machine is unaffected; the answer and callbacks finish it; then it boots its local disk', async () => {
    const mac = nextMac();
    const created = await createTask(lab, { mac, distro: 'debian', variables: { hostname: 'node-a' } });
    const before = lastEventId(lab);

    const renderedBefore = lab.answers.rendered.length;
    const script = await bootScript(lab, mac);
    expect(lintIpxeScript(script)).toEqual([]);
    // Serving the installer renders its answer ahead, for the machine's own address, before the installer asks.
    await expect.poll(() => lab.answers.rendered.slice(renderedBefore).some((context) => context.task.id === created.id)).toBe(true);
    const boot = `${lab.base}/boot`;
    expect(script).toContain(`kernel ${boot}/netboot/debian/12/x86_64/linux initrd=initrd.gz auto=true priority=critical preseed/url=${lab.base}/api/v1/netboot/answer/${created.id}?token=`);
    expect(script).toContain(' hostname=node-a --- quiet || goto bw-failed');
    expect(script).toContain(`initrd --name initrd.gz ${boot}/netboot/debian/12/x86_64/initrd.gz || goto bw-failed`);
    expect(task(created.id).state).toBe('booting');
    const served = eventsSince(lab, before, 'boot.script_served');
    expect(served.at(-1)).toMatchObject({ mac, detail: { action: 'install', reason: 'netboot_task', task_id: created.id } });
    expect(eventsSince(lab, before, 'netboot.task.state').at(-1)).toMatchObject({ mac, detail: { task_id: created.id, from: 'pending', to: 'booting', source: 'boot' } });

    // A second machine without a task gets what it got before: the boot menu.
    const other = await bootScript(lab, nextMac());
    expect(other).toContain('menu Bootwright boot menu');
    expect(other).not.toContain('netboot/debian');

    // The installer fetches its answer (real HTTP), which names its callback; it calls back.
    const answerUrl = answerUrlIn(script);
    const answer = await fetch(answerUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.headers.get('server-timing')).toMatch(/^answer;dur=\d+\.\d\d$/);
    const preseed = await answer.text();
    const callback = /wget -q -O \/dev\/null (\S+)\/installing/.exec(preseed)?.[1];
    expect(callback).toBe(`${lab.base}/api/v1/netboot/callback/${created.id}/${new URL(answerUrl).searchParams.get('token') ?? ''}`);
    expect((await fetch(`${callback}/installing`)).status).toBe(200);
    expect(task(created.id).state).toBe('installing');
    const done = await fetch(`${callback}/done?message=${encodeURIComponent('installed in 4 minutes')}`, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ success: true, data: { task_id: created.id, state: 'done' } });
    expect(task(created.id)).toMatchObject({ state: 'done', message: 'installed in 4 minutes' });

    // Install once: the next boot is the local disk, said so on the machine.
    const after = await bootScript(lab, mac);
    expect(after).toContain(`install task ${created.id}`);
    expect(after).toContain('is done: the machine boots its local disk');
    expect(after).toMatch(/exit 0\n$/);
    expect(lintIpxeScript(after)).toEqual([]);
  });

  it('with its boot files missing: the task says so at creation, the machine is told what to copy and retries, the task stays pending', async () => {
    const dir = path.join(lab.t.core.area('boot-files').files.root, 'netboot', 'debian', '11', 'x86_64');
    await rename(path.join(dir, 'initrd.gz'), path.join(dir, 'initrd.gz.away'));
    try {
      const mac = nextMac();
      const created = await createTask(lab, { mac, distro: 'debian', version: '11' });
      expect(created.message).toContain(`has no mirror: put initrd.gz at ${dir}/`);
      const script = await bootScript(lab, mac);
      expect(script).toContain(`put initrd.gz at ${dir}/`);
      expect(script).not.toContain('kernel ');
      expect(lintIpxeScript(script)).toEqual([]);
      expect(task(created.id).state).toBe('pending');
      // Once the file is there, the next try boots the installer.
      await rename(path.join(dir, 'initrd.gz.away'), path.join(dir, 'initrd.gz'));
      expect(await bootScript(lab, mac)).toContain('netboot/debian/11/x86_64/linux');
      expect(task(created.id).state).toBe('booting');
    } finally {
      await rename(path.join(dir, 'initrd.gz.away'), path.join(dir, 'initrd.gz')).catch(() => undefined);
    }
  });

  it('with after_install host_profile, follows the host\'s profile once done; cancelled tasks stop overriding', async () => {
    const profile = await call<{ id: number }>(lab, 'POST', '/profiles', { body: { name: 'After install chain', boot_type: 'chain', chain: { url: 'http://192.0.2.9/after.ipxe' } } });
    expect(profile.status).toBe(201);
    const mac = nextMac();
    const host = await call<{ id: number }>(lab, 'POST', '/hosts', { body: { mac, profile_id: profile.body.data.id } });
    const created = await createTask(lab, { host_id: host.body.data.id, distro: 'debian', after_install: 'host_profile' });
    expect(created).toMatchObject({ host_id: host.body.data.id, mac });
    expect(await bootScript(lab, mac)).toContain('netboot/debian/12/x86_64/linux');
    const service = lab.t.core.area('netboot').tasks.service;
    await service.transition(created.id, 'done', '', 'callback');
    expect(await bootScript(lab, mac)).toContain('chain --autofree http://192.0.2.9/after.ipxe');

    const second = await createTask(lab, { host_id: host.body.data.id, distro: 'debian' });
    expect(await bootScript(lab, mac)).toContain('netboot/debian/12/x86_64/linux');
    expect((await call(lab, 'PUT', `/netboot/tasks/${second.id}`, { body: { state: 'cancelled' } })).status).toBe(200);
    expect(await bootScript(lab, mac)).toContain('chain --autofree http://192.0.2.9/after.ipxe');
  });

  it('shows in the boot-config preview, which records and moves nothing', async () => {
    const mac = nextMac();
    const host = await call<{ id: number }>(lab, 'POST', '/hosts', { body: { mac } });
    const created = await createTask(lab, { mac, distro: 'debian' });
    const preview = await call<{ action: string; reason: string; reason_text: string; script: string; files: { url: string }[] }>(lab, 'GET', `/hosts/${host.body.data.id}/boot-config`);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ action: 'install', reason: 'netboot_task', reason_text: `install task ${created.id}: Debian 12 (x86_64)` });
    expect(preview.body.data.files.map((file) => file.url)).toEqual(expect.arrayContaining([expect.stringContaining('/boot/netboot/debian/12/x86_64/linux')]));
    expect(task(created.id).state).toBe('pending');
  });

  it('keeps a task pending and warns when the machine boots in a firmware mode the entry does not support', async () => {
    const mac = nextMac();
    const created = await createTask(lab, { mac, distro: 'ubuntu' });
    const before = lastEventId(lab);
    const script = await bootScript(lab, mac, 'pcbios');
    expect(script).toContain('cannot start on this machine: Ubuntu 24.04 (x86_64) does not boot with legacy BIOS (supports uefi)');
    expect(lintIpxeScript(script)).toEqual([]);
    expect(task(created.id).state).toBe('pending');
    expect(eventsSince(lab, before, 'netboot.task.firmware_unsupported')).toEqual([expect.objectContaining({ mac, level: 'warn', detail: expect.objectContaining({ task_id: created.id, firmware: 'bios' }) })]);
    // In UEFI mode the same task boots, with cloud-init's seed URL (its ; inside a word needs no escaping).
    const uefi = await bootScript(lab, mac, 'efi');
    expect(uefi).toMatch(new RegExp(`autoinstall ds=nocloud-net;s=${lab.base}/api/v1/netboot/answer/${created.id}/[A-Za-z0-9_-]+/ ---`));
    expect(task(created.id).state).toBe('booting');
  });
});
