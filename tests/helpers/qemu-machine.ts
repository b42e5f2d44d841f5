import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NetLab, skipNetnsTest, type Netns } from './netns.js';
import { NetnsServer, subnet } from './netns-server.js';

/*
 * QEMU machines that network-boot on a bridge inside a test namespace (the
 * QEMU end-to-end tests and the boot-time bench). TCG only: a KVM guest does
 * not boot on these machines. BIOS machines boot the e1000 option ROM (iPXE);
 * UEFI machines boot their firmware's own PXE client, as a real UEFI PC would:
 * `uefi` plain OVMF (Secure Boot off), `uefi-secure` OVMF with Microsoft's
 * keys enrolled and Secure Boot enforced, `arm64` AAVMF on QEMU's virt board
 * (option 93 = 11).
 */

export const OVMF_CODE = '/usr/share/OVMF/OVMF_CODE.fd';
export const OVMF_VARS = '/usr/share/OVMF/OVMF_VARS.fd';
export const E1000_ROM = '/usr/lib/ipxe/qemu/efi-e1000.rom';
/** Debian 12's netboot installer (debian-installer-12-netboot-amd64): a real kernel and initrd. */
export const DEBIAN_INSTALLER = '/usr/lib/debian-installer/images/12/amd64/text/debian-installer/amd64';
/** OVMF built with SMM and Secure Boot, its variable store with Microsoft's keys enrolled (package ovmf): Secure Boot is on from the first boot. */
export const OVMF_SECURE_CODE = '/usr/share/OVMF/OVMF_CODE_4M.ms.fd';
export const OVMF_SECURE_VARS = '/usr/share/OVMF/OVMF_VARS_4M.ms.fd';
/** UEFI for QEMU's ARM64 virt board (package qemu-efi-aarch64), 64 MiB flash images each. */
export const AAVMF_CODE = '/usr/share/AAVMF/AAVMF_CODE.fd';
export const AAVMF_VARS = '/usr/share/AAVMF/AAVMF_VARS.fd';
/** Debian 12's ARM64 netboot installer (debian-installer-12-netboot-arm64): kernel, initrd and the signed shim + GRUB. */
export const DEBIAN_INSTALLER_ARM64 = '/usr/lib/debian-installer/images/12/arm64/text/debian-installer/arm64';

export type Firmware = 'bios' | 'uefi' | 'uefi-secure' | 'arm64';

/** What each firmware needs besides QEMU itself. */
export const FIRMWARE_FILES: Readonly<Record<Firmware, readonly string[]>> = {
  bios: [E1000_ROM],
  uefi: [OVMF_CODE, OVMF_VARS],
  'uefi-secure': [OVMF_SECURE_CODE, OVMF_SECURE_VARS],
  arm64: [AAVMF_CODE, AAVMF_VARS],
};

/** The files a QEMU test needs that are missing on this machine. */
export function missingQemuFiles(extra: readonly string[] = []): string[] {
  return [OVMF_CODE, OVMF_VARS, E1000_ROM, `${DEBIAN_INSTALLER}/linux`, `${DEBIAN_INSTALLER}/initrd.gz`, ...extra].filter((file) => !existsSync(file));
}

export interface MachineOptions {
  /** Short name: the tap is `tap<name>`. */
  name: string;
  mac: string;
  firmware: Firmware;
  /** Memory in MiB (the Debian installer wants 1024). */
  memoryMiB?: number;
  /** Where a UEFI machine keeps its writable variable store. */
  workDir: string;
  /** Run QEMU on these CPUs only (taskset list; benches keep it off the server's core). */
  cpus?: string;
  /** Serial console output (the installer's kernel log), if wanted. */
  onSerial?: (text: string) => void;
}

/** A tap on `bridge` in `ns` and a QEMU machine booting from the network through it; the caller powers it off. */
export async function bootMachine(ns: Netns, bridge: string, options: MachineOptions): Promise<ChildProcess> {
  const tap = `tap${options.name}`;
  await ns.ip('tuntap', 'add', 'dev', tap, 'mode', 'tap');
  await ns.ip('link', 'set', tap, 'master', bridge);
  await ns.ip('link', 'set', tap, 'up');
  const { command, args } = await machineCommand(options, tap);
  const child = options.cpus === undefined ? ns.spawn(command, args) : ns.spawn('taskset', ['-c', options.cpus, command, ...args]);
  const onSerial = options.onSerial;
  if (onSerial) child.stdout?.on('data', (chunk: Buffer) => onSerial(chunk.toString('utf8')));
  else child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

/** The QEMU command line of a machine: its board, firmware (flash copies in `workDir`) and NIC on `tap`; serial console on stdout. */
async function machineCommand(options: MachineOptions, tap: string): Promise<{ command: string; args: string[] }> {
  const args = ['-accel', 'tcg', '-m', String(options.memoryMiB ?? 512), '-nographic', '-no-reboot', '-netdev', `tap,id=n0,ifname=${tap},script=no,downscript=no`];
  // No option ROM on UEFI machines: the firmware's own PXE client boots and must be handed a first stage over TFTP.
  const uefiNic = ['-device', `virtio-net-pci,netdev=n0,mac=${options.mac},romfile=`];
  const flash = async (code: string, varsTemplate: string): Promise<string[]> => {
    const vars = path.join(options.workDir, `${options.name}-vars.fd`);
    await copyFile(varsTemplate, vars);
    return ['-drive', `if=pflash,format=raw,unit=0,readonly=on,file=${code}`, '-drive', `if=pflash,format=raw,unit=1,file=${vars}`];
  };
  switch (options.firmware) {
    case 'bios':
      return { command: 'qemu-system-x86_64', args: [...args, '-device', `e1000,netdev=n0,mac=${options.mac},romfile=${E1000_ROM}`, '-boot', 'n'] };
    case 'uefi':
      return { command: 'qemu-system-x86_64', args: [...args, ...uefiNic, ...(await flash(OVMF_CODE, OVMF_VARS))] };
    case 'uefi-secure':
      // The Secure Boot OVMF needs SMM (it keeps its variables out of the OS's reach) and a flash only SMM code may write.
      return {
        command: 'qemu-system-x86_64',
        args: ['-machine', 'q35,smm=on', '-global', 'driver=cfi.pflash01,property=secure,value=on', ...args, ...uefiNic, ...(await flash(OVMF_SECURE_CODE, OVMF_SECURE_VARS))],
      };
    case 'arm64':
      return { command: 'qemu-system-aarch64', args: ['-machine', 'virt', '-cpu', 'cortex-a57', ...args, ...uefiNic, ...(await flash(AAVMF_CODE, AAVMF_VARS))] };
  }
}

export function powerOff(machine: ChildProcess): void {
  if (machine.exitCode === null && machine.signalCode === null) machine.kill('SIGKILL');
}

/** A namespace with a bridge served by a headless Bootwright (DHCP server on the bridge), the API reachable from the root namespace. */
export interface PxeLab {
  lab: NetLab;
  lan: Netns;
  server: NetnsServer;
  /** Temporary folder of the run (the server's data dir is `data` in it). */
  work: string;
  destroy(): Promise<void>;
}

/**
 * The topology of the QEMU tests and the boot-time bench: ns "lan" with br0
 * at `<prefix>.1/24`, Bootwright serving br0 (DHCP pool `<prefix>.100–150`,
 * `dhcpExtra` for router/DNS; `minimalSubnet`: only `subnet` and `ranges`, as the
 * quickstart writes it, so router and DNS take their defaults), waited for until DHCP and TFTP run.
 */
export async function startPxeLab(options: { prefix: string; dhcpExtra?: Record<string, unknown>; minimalSubnet?: boolean; server?: ConstructorParameters<typeof NetnsServer>[3] }): Promise<PxeLab> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'bootwright-qemu-'));
  const lab = await NetLab.create();
  const lan = await lab.namespace('lan');
  await lab.bridge(lan, 'br0');
  await lan.addAddress('br0', `${options.prefix}.1/24`);
  const { address } = await lab.rootLink(lan, 'api0');
  const server = new NetnsServer(lan, path.join(work, 'data'), address, options.server);
  await server.start();
  await server.must('PUT', '/settings/interfaces', { served: ['br0'] });
  await server.must('PUT', '/services/dhcp', {
    interfaces: [{ name: 'br0', mode: 'server' }],
    subnets: [
      options.minimalSubnet
        ? { subnet: `${options.prefix}.0/24`, ranges: [{ start: `${options.prefix}.100`, end: `${options.prefix}.150` }] }
        : subnet(`${options.prefix}.0/24`, [{ start: `${options.prefix}.100`, end: `${options.prefix}.150` }], options.dhcpExtra ?? {}),
    ],
  });
  // Settings changes restart the servers they concern; wait until both settled.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const services = await server.must<{ name: string; state: string; last_error: string | null }[]>('GET', '/services');
    const states = ['dhcp', 'tftp'].map((name) => services.find((service) => service.name === name)?.state);
    if (states.every((state) => state === 'running')) break;
    if (Date.now() > deadline || states.includes('failed')) throw new Error(`dhcp/tftp did not start: ${JSON.stringify(services)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    lab,
    lan,
    server,
    work,
    async destroy() {
      await server.stop().catch(() => undefined);
      await lab.destroy();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/** Debian 12's installer where the netboot catalog looks for a local Debian 12 entry (`arch` x86_64 or arm64), under `dataDir`'s boot root. */
export async function installDebianLocally(dataDir: string, arch: 'x86_64' | 'arm64' = 'x86_64'): Promise<void> {
  const local = path.join(dataDir, 'boot', 'netboot', 'debian', '12', arch);
  const source = arch === 'x86_64' ? DEBIAN_INSTALLER : DEBIAN_INSTALLER_ARM64;
  await mkdir(local, { recursive: true });
  await copyFile(`${source}/linux`, path.join(local, 'linux'));
  await copyFile(`${source}/initrd.gz`, path.join(local, 'initrd.gz'));
}

/**
 * Whether a QEMU test skips here: without root/namespaces or `tools` it skips
 * with a printed reason (skipNetnsTest); without the firmware and installer
 * files (and `files`) it skips locally and fails in CI, which installs them.
 */
export function skipQemuTest(label: string, tools: readonly string[], files: readonly string[] = []): boolean {
  if (skipNetnsTest(label, tools)) return true;
  const missing = missingQemuFiles(files);
  if (missing.length === 0) return false;
  if (process.env.CI) throw new Error(`${label} needs ${missing.join(', ')} (.ci/run installs ovmf, qemu-efi-aarch64, ipxe-qemu, debian-installer-12-netboot-amd64 and -arm64)`);
  console.warn(`${label} skipped: missing ${missing.join(', ')}; in CI it runs`);
  return true;
}
