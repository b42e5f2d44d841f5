/**
 * Proof with a real installer (issue 13): an install task for a QEMU machine
 * with the Debian 12 preseed preset, the Debian installer from the
 * debian-installer-12-netboot-amd64 package as a local catalog entry. The
 * installer boots with no human input, fetches its preseed from
 * /netboot/answer/…, its early command calls back and the task reaches
 * `installing` (the test stops there: there is no mirror). A second machine
 * without a task boots its own profile. Topology as in pxe-boot.test.ts:
 *
 *   root ns (this test) ──veth──► ns "lan": Bootwright (br0 10.93.1.1/24, API on the veth)
 *                                   └─ br0 ─┬─ tapI (installer VM) ─ tapO (other VM)
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Netns } from '../../helpers/netns.js';
import type { NetnsServer } from '../../helpers/netns-server.js';
import { bootMachine, installDebianLocally, powerOff, skipQemuTest, startPxeLab, type PxeLab } from '../../helpers/qemu-machine.js';

/** The installer reaches its preseed in about 70 s under TCG; two machines share two cores. */
const INSTALL_TIMEOUT_MS = 300_000;

const skip = skipQemuTest('QEMU netboot install e2e', ['qemu-system-x86_64']);

interface Task {
  id: number;
  mac: string;
  state: string;
  answer_url?: string | null;
  timeline: { at: string; kind: string; state: string | null; message: string }[];
}


let pxe: PxeLab | undefined;
let lan: Netns;
let server: NetnsServer;
let work: string;
const machines: ChildProcess[] = [];



/** GET from the root namespace, as anybody on the network could (no session cookie). */
async function anonymous(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, text: await response.text() };
}

describe.skipIf(skip)('an unattended Debian install task on a real PXE client (QEMU)', () => {
  beforeAll(async () => {
    // The installer runs unattended only with a router and a DNS server from DHCP: the subnet is
    // the quickstart's (only subnet and ranges), so both are this server by default (docs/dhcp.md).
    pxe = await startPxeLab({ prefix: '10.93.1', minimalSubnet: true });
    ({ lan, server, work } = pxe);
    // Debian 12 as a local entry: the package's installer where the catalog looks for local files.
    await installDebianLocally(path.join(work, 'data'));
  }, 180_000);

  afterAll(async () => {
    for (const machine of machines) powerOff(machine);
    await pxe?.destroy();
  });

  it('boots the installer with no human input: preseed fetched, early command calls back, task installing; another machine is unaffected', async () => {
    const checks = await server.must<{ availability: string; files: { availability: string }[] }[]>('GET', '/netboot/check-files?distro=debian&version=12&arch=x86_64');
    expect(checks.map((check) => check.availability)).toEqual(['local']);

    const installMac = '52:54:00:e2:e1:01';
    const otherMac = '52:54:00:e2:e1:02';
    const hold = await server.must<{ id: number }>('POST', '/profiles', {
      name: 'hold',
      boot_type: 'ipxe_script',
      script: '#!ipxe\necho Bootwright e2e: ${mac} booted its profile\nsleep 600\n',
    });
    await server.must('POST', '/hosts', { mac: installMac, hostname: 'install-e2e', profile_id: hold.id });
    await server.must('POST', '/hosts', { mac: otherMac, hostname: 'other-e2e', profile_id: hold.id });
    const task = await server.must<Task>('POST', '/netboot/tasks', {
      mac: installMac,
      distro: 'debian',
      version: '12',
      arch: 'x86_64',
      after_install: 'local_disk',
    });
    expect(task.state).toBe('pending');
    // A second task for a machine that never boots: its token must not open the first task's answer.
    const decoy = await server.must<Task>('POST', '/netboot/tasks', { mac: '52:54:00:e2:e1:09', distro: 'debian', version: '12', arch: 'x86_64' });

    const installer = await bootMachine(lan, 'br0', { name: 'I', mac: installMac, firmware: 'bios', memoryMiB: 1024, workDir: work });
    machines.push(installer);
    const other = await bootMachine(lan, 'br0', { name: 'O', mac: otherMac, firmware: 'bios', workDir: work });
    machines.push(other);
    try {
      const otherServed = await server.waitForEvent('boot.script_served', (event) => event.mac === otherMac, INSTALL_TIMEOUT_MS);
      expect(otherServed.detail).toMatchObject({ profile_id: hold.id, reason: 'host_assignment' });
      powerOff(other);

      const served = await server.waitForEvent('boot.script_served', (event) => event.mac === installMac, INSTALL_TIMEOUT_MS);
      expect(served.detail).toMatchObject({ reason: 'netboot_task' });
      const fetched = await server.waitForEvent('netboot.answer_fetched', (event) => event.detail?.task_id === task.id, INSTALL_TIMEOUT_MS);
      expect(fetched.ip).toBe(served.ip);
      const installing = await server.waitFor(
        'task installing',
        async () => {
          const current = await server.must<Task>('GET', `/netboot/tasks/${task.id}`);
          return current.state === 'installing' ? current : undefined;
        },
        INSTALL_TIMEOUT_MS,
      );
      const kinds = installing.timeline.map((item) => item.kind);
      for (const kind of ['dhcp.ack', 'boot.script_served', 'http.transfer.completed', 'netboot.answer_fetched', 'netboot.callback']) expect(kinds).toContain(kind);
    } finally {
      powerOff(installer);
      powerOff(other);
    }

    // The runtime endpoints refuse what is not the machine's own.
    const token = new URL(String(task.answer_url)).searchParams.get('token');
    const decoyToken = new URL(String(decoy.answer_url)).searchParams.get('token');
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const apiBase = `http://${server.apiAddress}:8080/api/v1`;
    expect((await anonymous(`${apiBase}/netboot/answer/${task.id}`)).status).toBe(404);
    expect((await anonymous(`${apiBase}/netboot/answer/${task.id}?token=${decoyToken}`)).status).toBe(404);
    const own = await anonymous(`${apiBase}/netboot/answer/${task.id}?token=${token}`);
    expect(own.status).toBe(200);
    expect(own.text).toContain('d-i ');
    // Asked from this test's address, not the machine's: nothing to see.
    expect((await anonymous(`${apiBase}/netboot/task/by-mac/${encodeURIComponent(installMac)}`)).status).toBe(404);

    // Done: the machine boots its local disk from now on, not the installer again.
    expect((await anonymous(`${apiBase}/netboot/callback/${task.id}/${token}/done`)).status).toBe(200);
    expect((await server.must<Task>('GET', `/netboot/tasks/${task.id}`)).state).toBe('done');
    const hosts = await server.must<{ id: number; mac: string }[]>('GET', `/hosts?q=${encodeURIComponent(installMac)}`);
    const preview = await server.must<{ action: string; reason: string }>('GET', `/hosts/${hosts[0]!.id}/boot-config`);
    expect(preview.action).toBe('local');
    expect((await anonymous(`${apiBase}/netboot/answer/${task.id}?token=${token}`)).status).toBe(410);
  }, INSTALL_TIMEOUT_MS * 2 + 60_000);
});
