import { entryFor, firstLine, formatBytes, joinArgs, majorOf, recognised, withoutArgs, type DetectContext, type Recognised } from './detect-kit.js';
import { archisoCmdline, readArchiso } from './small-distros.js';

/*
 * Rescue and utility media: SystemRescue (archiso under sysresccd/),
 * GParted Live and Clonezilla Live (Debian live-build: live/ with
 * filesystem.squashfs, a "<Tool>-Live-Version" file at the root) and
 * memtest86+ (its binary boots as a Linux kernel from GRUB or iPXE).
 */

const VERSION_IN_NAME = /(\d+\.\d+(?:[.-]\d+)*)/;

export async function recogniseSystemRescue(context: DetectContext): Promise<Recognised | null> {
  const archiso = await readArchiso(context, 'sysresccd');
  if (!archiso) return null;
  const versionFile = await context.lookup.file('sysresccd/VERSION');
  const version = versionFile ? firstLine((await context.lookup.text(versionFile, 256)) ?? '', 32) : (VERSION_IN_NAME.exec(context.fileName)?.[1] ?? '');
  const entry = entryFor(context, archiso.kernel);
  const rootBytes = archiso.rootfs ? ((await context.lookup.size(archiso.rootfs)) ?? 0) : 0;
  return recognised({
    family: 'rescue',
    distro: 'SystemRescue',
    version,
    arch: archiso.arch || context.efiArch,
    boot_method: 'linux',
    kernel: archiso.kernel,
    initrds: archiso.initrds,
    netboot_cmdline: archisoCmdline('sysresccd', entry?.args ?? ''),
    evidence: [versionFile, archiso.kernel, archiso.rootfs].filter((path): path is string => typeof path === 'string'),
    notes: [`The root filesystem (${formatBytes(rootBytes)}) is downloaded into RAM over HTTP: the machine needs that much memory plus about 1 GiB.`],
  });
}

/** live-build rescue media recognised by their version file at the root. */
const LIVE_TOOLS: { file: string; distro: string }[] = [
  { file: 'GParted-Live-Version', distro: 'GParted Live' },
  { file: 'Clonezilla-Live-Version', distro: 'Clonezilla Live' },
];

export async function recogniseLiveTool(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  for (const tool of LIVE_TOOLS) {
    const versionFile = await lookup.file(tool.file);
    const byVolume = tool.distro.split(' ')[0] ?? tool.distro;
    if (!versionFile && !new RegExp(byVolume, 'i').test(context.info.volume_id)) continue;
    const squashfs = await lookup.file('live/filesystem.squashfs');
    if (!squashfs) continue;
    const liveEntries = context.menus.entries.filter((candidate) => candidate.kernel?.toLowerCase().startsWith('live/'));
    const entry = entryFor({ ...context, menus: { ...context.menus, entries: liveEntries } }, null);
    const kernel = (entry?.kernel ? await lookup.file(entry.kernel) : null) ?? (await lookup.file('live/vmlinuz'));
    if (!kernel) continue;
    const initrd = (entry?.initrds[0] ? await lookup.file(entry.initrds[0]) : null) ?? (await lookup.file('live/initrd.img'));
    // "clonezilla-live-3.1.2-22-amd64" / "gparted-live-1.6.0-3-amd64"
    const text = versionFile ? firstLine((await lookup.text(versionFile, 1024)) ?? '') : context.fileName;
    const version = VERSION_IN_NAME.exec(text)?.[1] ?? '';
    const arch = /amd64/i.test(text) ? 'amd64' : /i686|i386/i.test(text) ? 'i386' : /arm64/i.test(text) ? 'arm64' : context.efiArch;
    const squashBytes = (await lookup.size(squashfs)) ?? 0;
    return recognised({
      family: 'rescue',
      distro: tool.distro,
      version,
      arch,
      boot_method: 'linux',
      kernel,
      initrds: initrd ? [initrd] : [],
      netboot_cmdline: joinArgs(withoutArgs(entry?.args ?? 'boot=live union=overlay username=user config components noswap', /^(findiso=.*|live-media=.*|live-media-path=.*|toram.*)$/), 'fetch={{ image_url }}live/filesystem.squashfs'),
      evidence: [versionFile, kernel, squashfs].filter((path): path is string => typeof path === 'string'),
      notes: [`live-boot downloads live/filesystem.squashfs (${formatBytes(squashBytes)}) into RAM (fetch=): the machine needs that much memory plus about 512 MiB.`],
    });
  }
  return null;
}

export async function recogniseMemtest(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  const candidates = ['boot/memtest', 'boot/memtest.bin', 'boot/memtest.efi', 'memtest', 'memtest.bin', 'isolinux/memtest', 'boot/mt86plus', 'EFI/BOOT/memtest.efi'];
  const menuKernel = context.menus.entries.find((entry) => entry.kernel !== null && /memtest|mt86/i.test(entry.kernel))?.kernel ?? null;
  const kernel = (menuKernel ? await lookup.file(menuKernel) : null) ?? (await lookup.firstFile(candidates));
  const byName = /memtest|mt86/i.test(context.info.volume_id) || /memtest|mt86/i.test(context.fileName);
  // Many installers carry a memtest beside their kernel; only a medium that is nothing else counts.
  const otherKernels = context.menus.entries.filter((entry) => entry.kernel !== null && !/memtest|mt86|\.c32$/i.test(entry.kernel));
  if (!kernel || (!byName && otherKernels.length > 0)) return null;
  const version = VERSION_IN_NAME.exec(context.info.volume_id)?.[1] ?? VERSION_IN_NAME.exec(context.fileName)?.[1] ?? '';
  return recognised({
    family: 'rescue',
    distro: 'Memtest86+',
    version,
    arch: context.efiArch || 'amd64',
    boot_method: 'linux',
    kernel,
    iso_cmdline: entryFor(context, kernel)?.args ?? '',
    evidence: [kernel],
    notes: ['Memtest86+ 6 and later boot as a Linux kernel (BIOS and UEFI); older releases boot only by sanboot on BIOS machines.'],
    catalog: majorOf(version) !== '' ? { distro: 'memtest86plus-efi', version: majorOf(version) } : null,
  });
}
