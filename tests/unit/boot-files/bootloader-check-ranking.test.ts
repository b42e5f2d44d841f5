import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { archmapFileRefs } from '../../../src-main/boot-files/archmap-refs.js';
import { Bootloaders, defaultBootloaderDir } from '../../../src-main/boot-files/bootloaders.js';
import { architectureOfCode, architectureOfMachine, architecturesSeen, sightingOfEvent, type CodeSighting, type HostFacts } from '../../../src-main/boot-files/check-architectures.js';
import { grubChainFiles, grubShadowingConfig, grubUses } from '../../../src-main/boot-files/grub-usage.js';
import { defaultArchmap } from '../../../src-main/dhcp/archmap-defaults.js';
import type { BootLoaders } from '../../../src-main/settings/settings-contract.js';
import { recordingLogger } from '../../helpers/netboot-fakes.js';

const GRUB_BOTH: BootLoaders = { uefi_x64: 'grub', uefi_arm64: 'grub', groups: {} };
const IPXE_BOTH: BootLoaders = { uefi_x64: 'ipxe', uefi_arm64: 'ipxe', groups: {} };

function host(fields: Partial<HostFacts> & { mac: string }): HostFacts {
  return { arch: null, platform: null, group: null, boot_loader: null, ...fields };
}

describe('check architectures', () => {
  it('name option 93 codes and booted machines by one architecture per processor', () => {
    expect([0x00, 0x14].map(architectureOfCode)).toEqual(['bios', 'bios']);
    expect([0x07, 0x09, 0x10].map(architectureOfCode)).toEqual(['uefi_x64', 'uefi_x64', 'uefi_x64']);
    expect([0x0b, 0x13].map(architectureOfCode)).toEqual(['uefi_arm64', 'uefi_arm64']);
    expect(architectureOfCode(0x1b)).toBe('uefi_riscv64');
    expect(architectureOfCode(0x02)).toBe('other');
    // iPXE (${buildarch}/${platform}) and GRUB ($grub_cpu, platform efi) name them alike.
    expect(architectureOfMachine('arm64', null)).toBe('uefi_arm64');
    expect(architectureOfMachine('x86_64', 'efi')).toBe('uefi_x64');
    expect(architectureOfMachine('x86_64', 'pcbios')).toBe('bios');
    expect(architectureOfMachine('i386', 'efi')).toBe('uefi_ia32');
    // x86 without a platform could be either.
    expect(architectureOfMachine('x86_64', null)).toBeNull();
    expect(architectureOfMachine(null, 'efi')).toBeNull();
  });

  it('count distinct machines per architecture across leases, DHCP events and hosts', () => {
    const leases: CodeSighting[] = [{ mac: 'aa:00:00:00:00:01', code: 0x0b }];
    const events = [
      { kind: 'dhcp.ack', mac: 'AA:00:00:00:00:01', detail: { arch: 0x0b } },
      { kind: 'dhcp.offer', mac: 'aa:00:00:00:00:02', detail: { arch: 0x07 } },
      { kind: 'tftp.transfer.completed', mac: 'aa:00:00:00:00:03', detail: { arch: 0x1b } },
      { kind: 'dhcp.ack', mac: null, detail: { arch: 0x1b } },
      { kind: 'dhcp.ack', mac: 'aa:00:00:00:00:04', detail: { arch: 'x' } },
    ].flatMap((event) => sightingOfEvent(event) ?? []);
    expect(events).toEqual([
      { mac: 'AA:00:00:00:00:01', code: 0x0b },
      { mac: 'aa:00:00:00:00:02', code: 0x07 },
    ]);
    const seen = architecturesSeen({ leases, events, hosts: [host({ mac: 'aa:00:00:00:00:05', arch: 'arm64', platform: 'efi' })] });
    expect(seen.get('uefi_arm64')).toEqual({ leases: 1, events: 1, hosts: 1, machines: 2 });
    expect(seen.get('uefi_x64')).toEqual({ leases: 0, events: 1, hosts: 0, machines: 1 });
    expect(seen.has('uefi_riscv64')).toBe(false);
  });
});

describe('which architectures get GRUB', () => {
  it('follows the defaults, groups (members\' architectures, case-insensitively) and hosts, as DHCP decides', () => {
    expect(grubUses(GRUB_BOTH, []).map((use) => use.architecture)).toEqual(['uefi_x64', 'uefi_arm64']);
    expect(grubUses(IPXE_BOTH, [])).toEqual([]);
    const lab = [host({ mac: 'aa:00:00:00:00:01', arch: 'x86_64', platform: 'efi', group: 'Lab' })];
    expect(grubUses({ ...IPXE_BOTH, groups: { lab: 'grub' } }, lab)).toEqual([{ architecture: 'uefi_x64', reasons: ['group lab'] }]);
    // A group without members of a known architecture: any of its machines could be either.
    expect(grubUses({ ...IPXE_BOTH, groups: { empty: 'grub' } }, lab).map((use) => use.architecture)).toEqual(['uefi_x64', 'uefi_arm64']);
    const hosts = [host({ mac: 'aa:00:00:00:00:02', arch: 'arm64', boot_loader: 'grub' }), host({ mac: 'aa:00:00:00:00:03', arch: 'arm64', boot_loader: 'grub' })];
    expect(grubUses(IPXE_BOTH, hosts)).toEqual([{ architecture: 'uefi_arm64', reasons: ['2 hosts with boot_loader grub'] }]);
    expect(grubShadowingConfig('uefi_x64')).toBe('grub/x86_64-efi/grub.cfg');
    expect(grubShadowingConfig('uefi_arm64')).toBe('debian-installer/arm64/grub/arm64-efi/grub.cfg');
    expect(grubChainFiles('uefi_arm64')).toEqual([
      { name: 'shimaa64.efi', architecture: 'uefi_arm64', role: 'shim', machine: 'arm64' },
      { name: 'grubaa64.efi', architecture: 'uefi_arm64', role: 'grub', machine: 'arm64' },
    ]);
  });
});

describe('boot loader check ranking', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function loaders(options: { loaders: BootLoaders; hosts?: HostFacts[]; events?: CodeSighting[]; tftpRoot?: boolean }) {
    const root = await mkdtemp(path.join(os.tmpdir(), 'bw-check-'));
    dirs.push(root);
    const bootRoot = path.join(root, 'boot');
    const bootloaders = await Bootloaders.open({ sourceDir: defaultBootloaderDir(), roots: () => [bootRoot], log: recordingLogger() });
    if (options.tftpRoot) bootloaders.addRoots(() => [path.join(root, 'tftp')]);
    await bootloaders.installMissing();
    bootloaders.setArchmapSource(() => archmapFileRefs(defaultArchmap()));
    bootloaders.setLoaderUsage({ loaders: () => options.loaders, sightings: () => ({ leases: [], events: options.events ?? [] }) });
    bootloaders.setHostSource(() => options.hosts ?? []);
    return { bootloaders, bootRoot, tftpRoot: path.join(root, 'tftp') };
  }

  it('reports a missing shimaa64.efi first when an arm64 machine was seen and loaders are on grub; unseen architectures are info, last', async () => {
    const { bootloaders, bootRoot } = await loaders({ loaders: GRUB_BOTH, hosts: [host({ mac: 'aa:00:00:00:00:01', arch: 'arm64' })] });
    await rm(path.join(bootRoot, 'shimaa64.efi'));
    // No x64 machine was seen: its broken file stays an error, but comes after what arm64 machines hit.
    await writeFile(path.join(bootRoot, 'ipxe.efi'), 'not a loader');
    const report = await bootloaders.check();
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatchObject({ name: 'shimaa64.efi', code: 'missing', severity: 'error', architectures: ['uefi_arm64'], seen: true });
    expect(report.problems[0]?.message).toContain('machines on GRUB');
    // The ARM64 iPXE the archmap names (not bundled) is still a warning: an arm64 machine exists.
    expect(report.problems[1]).toMatchObject({ name: 'ipxe-arm64.efi', severity: 'warning', seen: true });
    expect(report.problems[2]).toMatchObject({ name: 'ipxe.efi', code: 'wrong_format', severity: 'error', seen: false });
    const unseen = report.problems.slice(2);
    expect(unseen.map((problem) => problem.name)).toEqual(expect.arrayContaining(['ipxe-riscv64.efi', 'ipxe-loong64.efi', 'ipxe-i386.efi', 'ipxe-arm32.efi']));
    expect(unseen.every((problem) => !problem.seen && problem.severity !== 'warning')).toBe(true);
    expect(report.architectures[0]).toMatchObject({ id: 'uefi_arm64', seen: true, machines: 1, seen_by: { hosts: 1 }, loader: 'grub', grub: true, errors: 1, warnings: 1 });
    expect(report.architectures.find((arch) => arch.id === 'uefi_riscv64')).toMatchObject({ seen: false, warnings: 0, infos: 1 });
    const shim = report.files.find((file) => file.name === 'shimaa64.efi');
    expect(shim).toMatchObject({ referenced_by: ['grub_chain'], architectures: ['uefi_arm64'], seen: true, present: false, ok: false });
    expect(report.files.find((file) => file.name === 'grubaa64.efi')).toMatchObject({ ok: true, format: 'pe', checksum: 'match' });
    expect(report.tftp_root).toBeNull();
  });

  it('checks the chain files for their machine: an x64 GRUB where the ARM64 one belongs is the wrong format', async () => {
    const { bootloaders, bootRoot } = await loaders({ loaders: { ...IPXE_BOTH, uefi_arm64: 'grub' } });
    await rm(path.join(bootRoot, 'grubaa64.efi'));
    await copyFile(path.join(bootRoot, 'grubx64.efi'), path.join(bootRoot, 'grubaa64.efi'));
    const report = await bootloaders.check();
    const grub = report.files.find((file) => file.name === 'grubaa64.efi');
    expect(grub?.problems.map((problem) => problem.code)).toEqual(['wrong_format', 'checksum_mismatch']);
    expect(grub?.problems[0]?.message).toContain('expected arm64');
    // An unseen architecture's errors stay errors (a broken bundled file is broken), ranked after the seen ones.
    expect(grub?.problems.every((problem) => problem.severity === 'error')).toBe(true);
    // Loaders on iPXE for x64: its chain is not asked for.
    expect(report.files.some((file) => file.name === 'shimx64.efi')).toBe(false);
  });

  it('ranks by option 93 codes DHCP saw: a RISC-V machine makes its missing iPXE a warning, first', async () => {
    const { bootloaders } = await loaders({ loaders: IPXE_BOTH, events: [{ mac: 'aa:00:00:00:00:09', code: 0x1b }] });
    const report = await bootloaders.check();
    expect(report.ok).toBe(true);
    expect(report.problems[0]).toMatchObject({ name: 'ipxe-riscv64.efi', severity: 'warning', seen: true, architectures: ['uefi_riscv64'] });
    expect(report.problems.filter((problem) => problem.severity === 'warning').map((problem) => problem.name)).toEqual(['ipxe-riscv64.efi']);
    expect(report.architectures[0]).toMatchObject({ id: 'uefi_riscv64', seen: true, seen_by: { events: 1 }, loader: null });
    expect(report.architectures.find((arch) => arch.id === 'uefi_x64')).toMatchObject({ seen: false, loader: 'ipxe', grub: false });
  });

  it('finds a Debian netboot tree\'s GRUB configuration that the signed GRUB would read instead of Bootwright\'s', async () => {
    const { bootloaders, bootRoot } = await loaders({ loaders: { ...IPXE_BOTH, uefi_arm64: 'grub' }, hosts: [host({ mac: 'aa:00:00:00:00:01', arch: 'arm64' })] });
    await mkdir(path.join(bootRoot, 'debian-installer/arm64/grub/arm64-efi'), { recursive: true });
    await writeFile(path.join(bootRoot, 'debian-installer/arm64/grub/arm64-efi/grub.cfg'), 'source /boot/grub/grub.cfg\n');
    // x64 machines are on iPXE: a stray x64 copy harms nobody.
    await mkdir(path.join(bootRoot, 'grub/x86_64-efi'), { recursive: true });
    await writeFile(path.join(bootRoot, 'grub/x86_64-efi/grub.cfg'), 'source /boot/grub/grub.cfg\n');
    const report = await bootloaders.check();
    expect(report.ok).toBe(false);
    const shadowed = report.problems.filter((problem) => problem.code === 'shadowed_config');
    expect(shadowed).toEqual([expect.objectContaining({ name: 'debian-installer/arm64/grub/arm64-efi/grub.cfg', severity: 'error', seen: true, architectures: ['uefi_arm64'] })]);
    expect(report.problems[0]?.code).toBe('shadowed_config');
  });

  it('warns when the TFTP root is not the boot root while machines get GRUB', async () => {
    const { bootloaders, bootRoot, tftpRoot } = await loaders({ loaders: GRUB_BOTH, tftpRoot: true, hosts: [host({ mac: 'aa:00:00:00:00:01', arch: 'x86_64', platform: 'efi' })] });
    const report = await bootloaders.check();
    expect(report).toMatchObject({ boot_root: bootRoot, tftp_root: tftpRoot });
    const mismatch = report.problems.find((problem) => problem.code === 'root_mismatch');
    expect(mismatch).toMatchObject({ severity: 'warning', root: tftpRoot, seen: true, architectures: ['uefi_x64', 'uefi_arm64'] });
    expect(mismatch?.message).toContain('kernels and initrds over TFTP');
    const onIpxe = await (await loaders({ loaders: IPXE_BOTH, tftpRoot: true })).bootloaders.check();
    expect(onIpxe.problems.some((problem) => problem.code === 'root_mismatch')).toBe(false);
  });
});
