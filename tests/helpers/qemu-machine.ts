import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import type { Netns } from './netns.js';

/*
 * QEMU machines that network-boot on a bridge inside a test namespace (the
 * QEMU end-to-end tests and the boot-time bench). TCG only: a KVM guest does
 * not boot on these machines. BIOS machines boot the e1000 option ROM (iPXE);
 * UEFI machines boot OVMF's own PXE client, as a real UEFI PC would.
 */

export const OVMF_CODE = '/usr/share/OVMF/OVMF_CODE.fd';
export const OVMF_VARS = '/usr/share/OVMF/OVMF_VARS.fd';
export const E1000_ROM = '/usr/lib/ipxe/qemu/efi-e1000.rom';
/** Debian 12's netboot installer (debian-installer-12-netboot-amd64): a real kernel and initrd. */
export const DEBIAN_INSTALLER = '/usr/lib/debian-installer/images/12/amd64/text/debian-installer/amd64';

/** The files a QEMU test needs that are missing on this machine. */
export function missingQemuFiles(extra: readonly string[] = []): string[] {
  return [OVMF_CODE, OVMF_VARS, E1000_ROM, `${DEBIAN_INSTALLER}/linux`, `${DEBIAN_INSTALLER}/initrd.gz`, ...extra].filter((file) => !existsSync(file));
}

export interface MachineOptions {
  /** Short name: the tap is `tap<name>`. */
  name: string;
  mac: string;
  firmware: 'bios' | 'uefi';
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
  const args = ['-accel', 'tcg', '-m', String(options.memoryMiB ?? 512), '-nographic', '-no-reboot', '-netdev', `tap,id=n0,ifname=${tap},script=no,downscript=no`];
  if (options.firmware === 'bios') {
    args.push('-device', `e1000,netdev=n0,mac=${options.mac},romfile=${E1000_ROM}`, '-boot', 'n');
  } else {
    // No option ROM: OVMF's own UEFI PXE client boots and must be handed ipxe.efi over TFTP.
    args.push('-device', `virtio-net-pci,netdev=n0,mac=${options.mac},romfile=`);
    const vars = path.join(options.workDir, `${options.name}-vars.fd`);
    await copyFile(OVMF_VARS, vars);
    args.push('-drive', `if=pflash,format=raw,unit=0,readonly=on,file=${OVMF_CODE}`, '-drive', `if=pflash,format=raw,unit=1,file=${vars}`);
  }
  const child = options.cpus === undefined ? ns.spawn('qemu-system-x86_64', args) : ns.spawn('taskset', ['-c', options.cpus, 'qemu-system-x86_64', ...args]);
  const onSerial = options.onSerial;
  if (onSerial) child.stdout?.on('data', (chunk: Buffer) => onSerial(chunk.toString('utf8')));
  else child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

export function powerOff(machine: ChildProcess): void {
  if (machine.exitCode === null && machine.signalCode === null) machine.kill('SIGKILL');
}
