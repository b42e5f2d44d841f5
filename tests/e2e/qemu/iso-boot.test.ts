/**
 * "Boot this ISO" with real machines (issue 14): an ISO built here with
 * xorriso — the Debian installer's kernel and initrd under install.amd/, an
 * isolinux El Torito boot (`serial 0`, `console=ttyS0`) and a .disk/info —
 * is imported into a headless Bootwright, mounted and given a boot profile,
 * which becomes the default for unknown machines. Then:
 *
 * - a BIOS machine boots the kernel and initrd straight from the mounted ISO
 *   over HTTP (/boot/iso/<slug>/install.amd/…) and the installer starts
 *   (its UI on the serial console, or its own DHCP request, vendor class d-i);
 * - a BIOS machine `sanboot`s the same ISO file (/boot/iso/<slug>.iso):
 *   iPXE hooks it as a disk, its isolinux starts and boots the installer
 *   kernel (ISOLINUX and the kernel's banner on the serial console).
 *
 * Topology as in pxe-boot.test.ts:
 *
 *   root ns (this test) ──veth──► ns "lan": Bootwright (br0 10.93.4.1/24, API on the veth)
 *                                   └─ br0 ─┬─ tapK (kernel+initrd VM) ─ tapS (sanboot VM)
 */
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Netns } from '../../helpers/netns.js';
import type { EventRow, NetnsServer } from '../../helpers/netns-server.js';
import { DEBIAN_INSTALLER, bootMachine, powerOff, skipQemuTest, startPxeLab, type PxeLab } from '../../helpers/qemu-machine.js';

const run = promisify(execFile);

/** Kernel and initrd over HTTP, then the installer's first screen, under TCG. */
const BOOT_TIMEOUT_MS = 240_000;
const ISOLINUX_BIN = '/usr/lib/ISOLINUX/isolinux.bin';
const LDLINUX = '/usr/lib/syslinux/modules/bios/ldlinux.c32';

const skip = skipQemuTest('QEMU ISO boot e2e', ['qemu-system-x86_64', 'xorriso']) || missingIsolinux();

function missingIsolinux(): boolean {
  const missing = [ISOLINUX_BIN, LDLINUX].filter((file) => !existsSync(file));
  if (missing.length === 0) return false;
  if (process.env.CI) throw new Error(`QEMU ISO boot e2e needs ${missing.join(', ')} (.ci/run installs isolinux, syslinux-common)`);
  console.warn(`QEMU ISO boot e2e skipped: missing ${missing.join(', ')}`);
  return true;
}


interface OsImage {
  id: number;
  slug: string;
  state: string;
  error: string | null;
  detection: { boot_method: string; kernel: string | null; initrds: string[] } | null;
  mounted: { url_path: string } | null;
}

interface Profile {
  id: number;
  boot_type: string;
  linux: { kernel: string; initrds: string[]; cmdline: string } | null;
  sanboot: { url: string } | null;
}

let pxe: PxeLab | undefined;
let lan: Netns;
let server: NetnsServer;
let work: string;
let image: OsImage;
const machines: ChildProcess[] = [];



/** Builds the test ISO into the images folder (an allowed import root): installer kernel+initrd, isolinux with a serial console. */
async function buildIso(target: string): Promise<void> {
  const stage = path.join(work, 'iso-stage');
  await mkdir(path.join(stage, 'install.amd'), { recursive: true });
  await mkdir(path.join(stage, 'isolinux'), { recursive: true });
  await mkdir(path.join(stage, '.disk'), { recursive: true });
  await copyFile(`${DEBIAN_INSTALLER}/linux`, path.join(stage, 'install.amd', 'vmlinuz'));
  await copyFile(`${DEBIAN_INSTALLER}/initrd.gz`, path.join(stage, 'install.amd', 'initrd.gz'));
  await copyFile(ISOLINUX_BIN, path.join(stage, 'isolinux', 'isolinux.bin'));
  await copyFile(LDLINUX, path.join(stage, 'isolinux', 'ldlinux.c32'));
  await writeFile(
    path.join(stage, 'isolinux', 'isolinux.cfg'),
    ['serial 0 115200', 'default install', 'prompt 0', 'timeout 1', 'label install', '  kernel /install.amd/vmlinuz', '  append initrd=/install.amd/initrd.gz console=ttyS0,115200 priority=critical ---', ''].join('\n'),
  );
  await writeFile(path.join(stage, '.disk', 'info'), 'Debian GNU/Linux 12 "Bookworm" - Official amd64 NETINST 20240210-11:27\n');
  await mkdir(path.dirname(target), { recursive: true });
  await run('xorriso', ['-as', 'mkisofs', '-o', target, '-V', 'DEBIAN12', '-J', '-R', '-b', 'isolinux/isolinux.bin', '-c', 'isolinux/boot.cat', '-no-emul-boot', '-boot-load-size', '4', '-boot-info-table', stage], {
    timeout: 120_000,
  });
}

/** A BIOS machine booting from the network on br0 whose serial console is collected. */
async function machine(name: string, mac: string): Promise<{ child: ChildProcess; serial: () => string }> {
  let serial = '';
  const child = await bootMachine(lan, 'br0', { name, mac, firmware: 'bios', memoryMiB: 1024, workDir: work, onSerial: (text) => (serial = (serial + text).slice(-400_000)) });
  machines.push(child);
  return { child, serial: () => serial };
}

async function makeDefault(profileId: number): Promise<void> {
  await server.must('PUT', '/settings/netboot', { default_action: 'profile', default_profile_id: profileId });
}

describe.skipIf(skip)('booting a mounted ISO in QEMU', () => {
  beforeAll(async () => {
    pxe = await startPxeLab({ prefix: '10.93.4' });
    ({ lan, server, work } = pxe);
    const file = path.join(work, 'data', 'images', 'debian-iso-boot.iso');
    await buildIso(file);
    const imported = await server.must<OsImage>('POST', '/os-images/import', { path: file, name: 'Debian ISO boot e2e' });
    // Detection runs after import: wait until the image is ready.
    image = await server.waitFor(
      'image detection',
      async () => {
        const current = await server.must<OsImage>('GET', `/os-images/${imported.id}`);
        if (current.state === 'error') throw new Error(`image failed: ${current.error ?? 'no reason'}`);
        return current.state === 'ready' ? current : undefined;
      },
      60_000,
    );
    expect(image.detection).toMatchObject({ boot_method: 'linux', kernel: 'install.amd/vmlinuz', initrds: ['install.amd/initrd.gz'] });
    image = await server.must<OsImage>('POST', `/os-images/${image.id}/mount`, {});
    expect(image.mounted?.url_path).toBe(`/boot/iso/${image.slug}/`);
  }, 300_000);

  afterAll(async () => {
    for (const child of machines) powerOff(child);
    await pxe?.destroy();
  });

  it('boots the installer kernel and initrd straight from the mounted ISO over HTTP', async () => {
    const made = await server.must<{ profile: Profile; created: boolean; notes: string[] }>('POST', `/os-images/${image.id}/boot-profile`, {});
    expect(made.profile).toMatchObject({ boot_type: 'linux', linux: { kernel: `iso/${image.slug}/install.amd/vmlinuz`, initrds: [`iso/${image.slug}/install.amd/initrd.gz`] } });
    // The serial console shows the installer only with console=ttyS0 (detection's command line is for any machine).
    const cmdline = made.profile.linux?.cmdline ?? '';
    if (!cmdline.includes('console=ttyS0')) {
      await server.must('PUT', `/profiles/${made.profile.id}`, { linux: { ...made.profile.linux, cmdline: `${cmdline} console=ttyS0,115200 priority=critical`.trim() } });
    }
    await makeDefault(made.profile.id);

    const mac = '52:54:00:e2:e4:01';
    const vm = await machine('K', mac);
    try {
      const served = await server.waitForEvent('boot.script_served', (event) => event.mac === mac);
      for (const [inIso, local] of [['install.amd/vmlinuz', 'linux'], ['install.amd/initrd.gz', 'initrd.gz']] as const) {
        const done = await server.waitForEvent('http.transfer.completed', (event) => event.ip === served.ip && event.detail?.file === `iso/${image.slug}/${inIso}`);
        expect(done.detail?.bytes, inIso).toBe((await stat(`${DEBIAN_INSTALLER}/${local}`)).size);
      }
      // The installer runs: its screen on the serial console, or its own DHCP request (vendor class d-i).
      await server.waitFor(
        'the installer starting',
        async () => {
          if (/Linux version/.test(vm.serial()) && /1\*installer|<Tab> moves|Language|Configure the network/.test(vm.serial())) return true;
          const leases = await server.must<{ mac: string; vendor_class: string | null }[]>('GET', `/leases?q=${encodeURIComponent(mac)}`);
          return leases.some((lease) => lease.vendor_class === 'd-i') ? true : undefined;
        },
        BOOT_TIMEOUT_MS,
      );
    } finally {
      powerOff(vm.child);
    }
  }, BOOT_TIMEOUT_MS * 2);

  it('sanboots the same ISO in BIOS: its isolinux starts the installer kernel', async () => {
    const sanboot = await server.must<Profile>('POST', '/profiles', { name: 'ISO sanboot e2e', boot_type: 'sanboot', sanboot: { url: `iso/${image.slug}.iso` } });
    await makeDefault(sanboot.id);
    const mac = '52:54:00:e2:e4:02';
    const vm = await machine('S', mac);
    try {
      await server.waitForEvent('boot.script_served', (event) => event.mac === mac);
      await server.waitFor('isolinux from the SAN-booted ISO', async () => (/ISOLINUX/.test(vm.serial()) ? true : undefined), BOOT_TIMEOUT_MS);
      await server.waitFor('the installer kernel', async () => (/Linux version/.test(vm.serial()) ? true : undefined), BOOT_TIMEOUT_MS);
      // iPXE read the ISO with range requests of /boot/iso/<slug>.iso.
      const reads = (await server.must<EventRow[]>('GET', `/events?kind=http.transfer.completed&size=500`)).filter((event) => event.detail?.file === `iso/${image.slug}.iso`);
      expect(reads.length).toBeGreaterThan(0);
    } finally {
      powerOff(vm.child);
    }
  }, BOOT_TIMEOUT_MS * 2);
});
