import {
  debianArch,
  entryFor,
  firstLine,
  formatBytes,
  joinArgs,
  majorMinorOf,
  recognised,
  withoutArgs,
  type DetectContext,
  type Recognised,
} from './detect-kit.js';

/*
 * Arch Linux (archiso) and Alpine Linux.
 *
 * archiso keeps everything under <base>/ ("arch" on Arch's ISO,
 * "sysresccd" on SystemRescue's): <base>/boot/<arch>/vmlinuz-linux and
 * initramfs-linux.img, CPU microcode beside them, the root filesystem as
 * <base>/<arch>/airootfs.sfs. The initramfs's archiso_pxe_http hook
 * downloads it from `archiso_http_srv` + <base>/<arch>/airootfs.sfs.
 *
 * Alpine's ISO names its release in .alpine-release; boot/vmlinuz-<flavor>,
 * initramfs-<flavor> and modloop-<flavor> (lts, virt…), and apks/ is a
 * signed package repository the installer can use over HTTP.
 */

/** An archiso medium under `base`: the kernel, the initrds (microcode first, as archiso's own menus load them). */
export async function readArchiso(context: DetectContext, base: string): Promise<{ kernel: string; initrds: string[]; arch: string; rootfs: string | null } | null> {
  const { lookup } = context;
  const bootDir = await lookup.directory(`${base}/boot`);
  if (!bootDir) return null;
  for (const archDir of ['x86_64', 'aarch64', 'i686']) {
    const kernel = await lookup.firstFile([`${base}/boot/${archDir}/vmlinuz-linux`, `${base}/boot/${archDir}/vmlinuz`]);
    if (!kernel) continue;
    const image = await lookup.firstFile([`${base}/boot/${archDir}/initramfs-linux.img`, `${base}/boot/${archDir}/sysresccd.img`, `${base}/boot/${archDir}/archiso.img`]);
    const microcode: string[] = [];
    for (const name of ['intel-ucode.img', 'intel_ucode.img', 'amd-ucode.img', 'amd_ucode.img']) {
      const found = await lookup.file(`${base}/boot/${name}`);
      if (found) microcode.push(found);
    }
    const rootfs = await lookup.firstFile([`${base}/${archDir}/airootfs.sfs`, `${base}/${archDir}/airootfs.erofs`]);
    return { kernel, initrds: image ? [...microcode, image] : microcode, arch: debianArch(archDir), rootfs };
  }
  return null;
}

export function archisoCmdline(base: string, isoArgs: string): string {
  return joinArgs(
    `archisobasedir=${base} archiso_http_srv={{ image_url }} ip=dhcp`,
    // The ISO finds its medium by label/UUID; over HTTP those would make it wait for a disk that never comes.
    withoutArgs(isoArgs, /^(archisobasedir|archisolabel|archisosearchuuid|archisodevice|archiso_\w+_srv|ip|BOOTIF|img_dev|img_loop|cow_device|verify|cms_verify|checksum)=/i),
  );
}

export async function recogniseArch(context: DetectContext): Promise<Recognised | null> {
  const archiso = await readArchiso(context, 'arch');
  if (!archiso) return null;
  const versionFile = await context.lookup.file('arch/version');
  const version = versionFile ? firstLine((await context.lookup.text(versionFile, 256)) ?? '', 32) : (/\d{4}\.\d{2}\.\d{2}/.exec(context.fileName)?.[0] ?? '');
  const entry = entryFor(context, archiso.kernel);
  const rootBytes = archiso.rootfs ? ((await context.lookup.size(archiso.rootfs)) ?? 0) : 0;
  return recognised({
    family: 'arch',
    distro: 'Arch Linux',
    version,
    arch: archiso.arch || context.efiArch,
    boot_method: 'linux',
    kernel: archiso.kernel,
    initrds: archiso.initrds,
    netboot_cmdline: archisoCmdline('arch', entry?.args ?? ''),
    evidence: [versionFile, archiso.kernel, archiso.rootfs].filter((path): path is string => typeof path === 'string'),
    notes: [
      `archiso's PXE hook downloads ${archiso.rootfs ?? 'the root filesystem'}${rootBytes ? ` (${formatBytes(rootBytes)})` : ''} into RAM: the machine needs that much memory plus about 1 GiB.`,
      'Leave out verify=y / cms_verify=y unless the image carries the signature files beside airootfs.sfs.',
    ],
    catalog: { distro: 'archlinux', version: 'latest' },
  });
}

export async function recogniseAlpine(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  const releaseFile = await lookup.file('.alpine-release');
  if (!releaseFile) return null;
  const version = firstLine((await lookup.text(releaseFile, 256)) ?? '', 32);
  const bootDir = await lookup.directory('boot');
  const kernels = bootDir ? (await lookup.list(bootDir)).filter((entry) => entry.type === 'file' && /^vmlinuz-[\w.-]+$/i.test(entry.name)) : [];
  // The ISO's own menu names the flavor; else "lts" (the standard ISO), else the first one.
  const menuKernel = entryFor(context, null)?.kernel ?? '';
  const chosen = kernels.find((entry) => entry.path.toLowerCase() === menuKernel.toLowerCase()) ?? kernels.find((entry) => /-lts$/i.test(entry.name)) ?? kernels[0];
  if (!chosen) return null;
  const flavor = chosen.name.replace(/^vmlinuz-/i, '');
  const initrd = await lookup.file(`boot/initramfs-${flavor}`);
  const modloop = await lookup.file(`boot/modloop-${flavor}`);
  const apks = await lookup.directory('apks');
  const apkArch = apks ? (await lookup.list(apks)).find((entry) => entry.type === 'directory' && debianArch(entry.name) !== '') : undefined;
  const entry = entryFor(context, chosen.path);
  const repo = apks ? `alpine_repo={{ image_url }}${apks}` : '';
  const notes = [
    'Alpine runs from RAM: the kernel, initramfs and modloop load over HTTP, packages come from the image\'s apks/ repository.',
    'ip=dhcp needs the network card\'s driver in the ISO\'s initramfs; when it is missing, boot the netboot catalog entry\'s initramfs with the same alpine_repo/modloop.',
  ];
  if (!apks) notes.push('This image has no apks/ repository: give alpine_repo=<a mirror> for packages.');
  if (!modloop) notes.push('No modloop on this image: kernel modules beyond the initramfs are missing.');
  return recognised({
    family: 'alpine',
    distro: 'Alpine Linux',
    version,
    arch: debianArch(apkArch?.name ?? '') || context.efiArch,
    boot_method: 'linux',
    kernel: chosen.path,
    initrds: initrd ? [initrd] : [],
    netboot_cmdline: joinArgs(
      withoutArgs(entry?.args ?? 'modules=loop,squashfs,sd-mod,usb-storage quiet', /^(alpine_dev=.*|alpine_repo=.*|modloop=.*|ip=.*)$/i),
      'ip=dhcp',
      repo,
      modloop ? `modloop={{ image_url }}${modloop}` : '',
    ),
    evidence: [releaseFile, chosen.path, modloop].filter((path): path is string => typeof path === 'string'),
    notes,
    catalog: version !== '' ? { distro: 'alpine', version: majorMinorOf(version) } : null,
  });
}
