/**
 * Proof of the signed GRUB chain with real firmware (issue 21): QEMU machines
 * network-boot from a headless Bootwright with its shipped default loader for
 * UEFI PXE clients (`grub`, settings netboot.boot_loaders):
 *
 * 1. Secure Boot x64 (OVMF with Microsoft's keys, enforced): an install task
 *    for Debian 12 x86_64. PXE → shimx64.efi → grubx64.efi → grub/grub.cfg →
 *    grub/host/x86_64/<mac>.cfg → Debian's signed kernel and initrd over TFTP
 *    → the installer fetches its preseed → task `installing`; the kernel says
 *    Secure Boot is on.
 * 2. Secure Boot x64 with a GRUB in the chain that Debian did not sign (the
 *    unsigned network GRUB of grub-efi-amd64-bin put where the signed one
 *    was): shim refuses to start it; no GRUB configuration is ever asked for.
 * 3. ARM64 (AAVMF on QEMU's virt board, option 93 = 11): an install task for
 *    Debian 12 arm64: shimaa64.efi → grubaa64.efi →
 *    debian-installer/arm64/grub/grub.cfg → host configuration → installer →
 *    task `installing`.
 *
 * Topology as in pxe-boot.test.ts:
 *
 *   root ns (this test) ──veth──► ns "lan": Bootwright (br0 10.93.6.1/24, API on the veth)
 *                                   └─ br0 ─┬─ tapS (Secure Boot install) ─ tapR (refused iPXE) ─ tapA (ARM64 install)
 *
 * One machine at a time (TCG on shared cores). Each test logs its boot's wall
 * time (the CI budget).
 */
import type { ChildProcess } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Netns } from '../../helpers/netns.js';
import type { EventRow, NetnsServer } from '../../helpers/netns-server.js';
import {
  DEBIAN_INSTALLER_ARM64,
  FIRMWARE_FILES,
  bootMachine,
  installDebianLocally,
  powerOff,
  skipQemuTest,
  startPxeLab,
  type Firmware,
  type PxeLab,
} from '../../helpers/qemu-machine.js';

/** Secure Boot x64 reaches the installer's preseed in about 2 min under TCG; ARM64 (emulated CPU) takes longer. */
const X64_TIMEOUT_MS = 300_000;
const ARM64_TIMEOUT_MS = 540_000;
/** Debian's network GRUB without Debian's signature (grub-efi-amd64-bin): what shim must refuse. */
const UNSIGNED_GRUB = '/usr/lib/grub/x86_64-efi/monolithic/grubnetx64.efi';

const skip = skipQemuTest('QEMU Secure Boot / ARM64 e2e', ['qemu-system-x86_64', 'qemu-system-aarch64'], [
  ...FIRMWARE_FILES['uefi-secure'],
  ...FIRMWARE_FILES.arm64,
  `${DEBIAN_INSTALLER_ARM64}/linux`,
  `${DEBIAN_INSTALLER_ARM64}/initrd.gz`,
  `${DEBIAN_INSTALLER_ARM64}/bootnetaa64.efi`,
  `${DEBIAN_INSTALLER_ARM64}/grubaa64.efi`,
  UNSIGNED_GRUB,
]);

interface Task {
  id: number;
  state: string;
  timeline: { kind: string }[];
}

let pxe: PxeLab | undefined;
let lan: Netns;
let server: NetnsServer;
let work: string;
const machines: ChildProcess[] = [];

/** A machine whose serial console (firmware, shim, GRUB, then the kernel's log) is kept for the test to read. */
interface Console {
  machine: ChildProcess;
  startedAt: number;
  text(): string;
}

async function boot(name: string, mac: string, firmware: Firmware): Promise<Console> {
  let serial = '';
  const startedAt = Date.now();
  const machine = await bootMachine(lan, 'br0', {
    name,
    mac,
    firmware,
    memoryMiB: 1024,
    workDir: work,
    onSerial: (chunk) => {
      serial = (serial + chunk).slice(-2_000_000);
    },
  });
  machines.push(machine);
  return { machine, startedAt, text: () => serial };
}

/** The console without terminal escape sequences (GRUB's menu draws with them). */
function withoutEscapes(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;:?]*[A-Za-z]/g, '');
}

/**
 * The console as one line: escape sequences and line breaks removed (GRUB's
 * EFI console wraps long lines at 80 columns, which would split a message).
 */
function flat(text: string): string {
  return withoutEscapes(text).replace(/[\r\n]+/g, '');
}

/**
 * Polls `probe` every second while the machine runs; a stopped machine or the
 * deadline fails with the console's end (what the firmware, shim or GRUB said).
 */
async function until<T>(console_: Console, what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (console_.machine.exitCode !== null || console_.machine.signalCode !== null) throw new Error(`${what}: the machine stopped; its console:\n${console_.text().slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms; console:\n${console_.text().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function untilSerial(console_: Console, what: string, pattern: RegExp, timeoutMs: number): Promise<true> {
  return until(console_, what, async () => (pattern.test(flat(console_.text())) ? true : undefined), timeoutMs);
}

function untilEvent(console_: Console, kind: string, match: (event: EventRow) => boolean, timeoutMs: number): Promise<EventRow> {
  return until(console_, `event ${kind}`, async () => (await events(kind)).find(match), timeoutMs);
}

function untilState(console_: Console, taskId: number, state: string, timeoutMs: number): Promise<Task> {
  return until(
    console_,
    `task ${taskId} ${state}`,
    async () => {
      const current = await server.must<Task>('GET', `/netboot/tasks/${taskId}`);
      return current.state === state ? current : undefined;
    },
    timeoutMs,
  );
}

/** The console from the line holding `from` on, escapes removed, for the test's log. */
function excerpt(text: string, from: string): string {
  const readable = withoutEscapes(text);
  const at = readable.lastIndexOf('\n', Math.max(0, readable.indexOf(from)));
  return readable.slice(Math.max(0, at), at + 1200);
}

function seconds(console_: Console): string {
  return `${Math.round((Date.now() - console_.startedAt) / 1000)} s`;
}

/** TFTP paths as the server records them (GRUB asks with a leading slash). */
function tftpFile(event: EventRow): string {
  return String(event.detail?.file ?? '').replace(/^\/+/, '');
}

async function events(kind: string): Promise<EventRow[]> {
  return server.must<EventRow[]>('GET', `/events?kind=${encodeURIComponent(kind)}&size=500`);
}

/** The TFTP files `ip` completed, in order. */
async function tftpCompleted(ip: string | null): Promise<string[]> {
  // GET /events lists the newest first.
  return (await events('tftp.transfer.completed')).filter((event) => event.ip === ip).sort((a, b) => a.id - b.id).map(tftpFile);
}

describe.skipIf(skip)('the signed GRUB chain on real firmware: Secure Boot x64 and ARM64 (QEMU)', () => {
  beforeAll(async () => {
    // Router and DNS from DHCP (the quickstart's subnet): the installer goes on unattended (netboot-install.test.ts).
    pxe = await startPxeLab({ prefix: '10.93.6', minimalSubnet: true });
    ({ lan, server, work } = pxe);
    const data = path.join(work, 'data');
    await installDebianLocally(data, 'x86_64');
    await installDebianLocally(data, 'arm64');
    // The installer's kernel log on the serial console (the shipped command line names no console).
    await server.must('PUT', '/netboot/overlays/debian', {
      cmdline:
        "{{ answer_argument }} netcfg/choose_interface=auto{% if host.hostname %} hostname={{ host.hostname }}{% endif %} {% if arch == 'arm64' %}console=ttyAMA0{% else %}console=ttyS0{% endif %}",
    });
  }, 180_000);

  afterAll(async () => {
    for (const machine of machines) powerOff(machine);
    await pxe?.destroy();
  });

  // The two installs boot side by side (one TCG machine per core): they share nothing but the server. The refused
  // GRUB swaps grubx64.efi in the boot root, so it runs alone, after them.
  it.concurrent('Secure Boot x64: shim → GRUB → host configuration → Debian\'s signed installer over TFTP → task installing', async () => {
    const mac = '52:54:00:e2:e6:01';
    const task = await server.must<Task>('POST', '/netboot/tasks', { mac, distro: 'debian', version: '12', arch: 'x86_64', after_install: 'local_disk' });
    const machine = await boot('S', mac, 'uefi-secure');
    try {
      const served = await untilEvent(machine, 'boot.script_served', (event) => event.mac === mac, X64_TIMEOUT_MS);
      expect(served.detail).toMatchObject({ loader: 'grub', reason: 'netboot_task' });
      console.log(`secure-boot-arm64 e2e: Secure Boot x64 GRUB configuration served after ${seconds(machine)}`);
      await untilState(machine, task.id, 'installing', X64_TIMEOUT_MS);
      console.log(`secure-boot-arm64 e2e: Secure Boot x64 task installing after ${seconds(machine)}`);
      // Secure Boot really was on: the kernel says so (and shim ran the signed chain to get there).
      expect(flat(machine.text())).toContain('secureboot: Secure boot enabled');
      const files = await tftpCompleted(served.ip);
      for (const file of ['shimx64.efi', 'grubx64.efi', 'grub/grub.cfg', `grub/host/x86_64/${mac}.cfg`, 'netboot/debian/12/x86_64/linux', 'netboot/debian/12/x86_64/initrd.gz']) {
        expect(files, file).toContain(file);
      }
      expect(files.indexOf('shimx64.efi')).toBeLessThan(files.indexOf('grubx64.efi'));
      expect(files.indexOf('grub/grub.cfg')).toBeLessThan(files.indexOf(`grub/host/x86_64/${mac}.cfg`));
      expect((await events('boot.script_served')).filter((event) => event.mac === mac && event.detail?.loader === 'ipxe')).toEqual([]);
    } finally {
      powerOff(machine.machine);
    }
  }, X64_TIMEOUT_MS * 2);

  it.concurrent('ARM64: shimaa64.efi → grubaa64.efi → the d-i prefix\'s grub.cfg → host configuration → installer → task installing', async () => {
    const checks = await server.must<{ availability: string }[]>('GET', '/netboot/check-files?distro=debian&version=12&arch=arm64');
    expect(checks.map((check) => check.availability)).toEqual(['local']);
    const mac = '52:54:00:e2:e6:03';
    const task = await server.must<Task>('POST', '/netboot/tasks', { mac, distro: 'debian', version: '12', arch: 'arm64', after_install: 'local_disk' });
    const machine = await boot('A', mac, 'arm64');
    try {
      const served = await untilEvent(machine, 'boot.script_served', (event) => event.mac === mac, ARM64_TIMEOUT_MS);
      expect(served.detail).toMatchObject({ loader: 'grub', reason: 'netboot_task' });
      console.log(`secure-boot-arm64 e2e: ARM64 GRUB configuration served after ${seconds(machine)}`);
      await untilState(machine, task.id, 'installing', ARM64_TIMEOUT_MS);
      console.log(`secure-boot-arm64 e2e: ARM64 task installing after ${seconds(machine)}`);
      const files = await tftpCompleted(served.ip);
      for (const file of ['shimaa64.efi', 'grubaa64.efi', 'debian-installer/arm64/grub/grub.cfg', `grub/host/arm64/${mac}.cfg`, 'netboot/debian/12/arm64/linux', 'netboot/debian/12/arm64/initrd.gz']) {
        expect(files, file).toContain(file);
      }
      // The firmware asked as an ARM64 UEFI PXE client (option 93 = 11), which is what got it the shim.
      const acks = (await events('dhcp.ack')).filter((event) => event.mac === mac).sort((a, b) => a.id - b.id);
      expect(acks[0]?.detail).toMatchObject({ arch: 11, ipxe: false });
      expect(files[0]).toBe('shimaa64.efi');
    } finally {
      powerOff(machine.machine);
    }
  }, ARM64_TIMEOUT_MS * 2);

  it('Secure Boot x64: a GRUB Debian did not sign, in the same chain, is refused by shim', async () => {
    const mac = '52:54:00:e2:e6:02';
    const signed = path.join(work, 'data', 'boot', 'grubx64.efi');
    const kept = path.join(work, 'grubx64.efi.signed');
    await copyFile(signed, kept);
    await copyFile(UNSIGNED_GRUB, signed);
    const machine = await boot('R', mac, 'uefi-secure');
    try {
      await untilSerial(machine, 'shim refusing the unsigned GRUB', /Verification failed: \(0x1A\) Security Violation/, X64_TIMEOUT_MS);
      console.log(`secure-boot-arm64 e2e: Secure Boot x64 unsigned GRUB refused after ${seconds(machine)}; console:\n${excerpt(machine.text(), 'grubx64')}`);
    } finally {
      powerOff(machine.machine);
      await copyFile(kept, signed);
    }
    // shim fetched the unsigned GRUB and did not start it: no GRUB asked for its configuration, nothing was served.
    const ip = (await server.must<{ ip: string }[]>('GET', `/leases?q=${encodeURIComponent(mac)}`))[0]?.ip ?? null;
    expect(ip).not.toBeNull();
    const files = (await events('tftp.transfer.completed')).filter((event) => event.ip === ip).map(tftpFile);
    expect(files).toContain('grubx64.efi');
    expect((await events('tftp.transfer.started')).filter((event) => event.ip === ip).map(tftpFile)).not.toContain(`grub/host/x86_64/${mac}.cfg`);
    expect((await events('boot.script_served')).filter((event) => event.mac === mac)).toEqual([]);
  }, X64_TIMEOUT_MS + 60_000);
});
