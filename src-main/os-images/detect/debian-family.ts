import {
  archInText,
  entryFor,
  firstLine,
  formatBytes,
  joinArgs,
  majorMinorOf,
  majorOf,
  recognised,
  withoutArgs,
  type DetectContext,
  type Recognised,
} from './detect-kit.js';

/*
 * Debian and its derivatives: the Debian installer CD/DVD (install.<arch>/
 * with .disk/info), Debian live (live/ with live-boot) and Ubuntu-style
 * live media (casper/: Ubuntu Server and Desktop, their flavours, Linux
 * Mint). `.disk/info` is one line written by debian-cd / Ubuntu's image
 * builder: `<name> <version> ["LTS"] "<codename>" - <kind> <arch> … (<date>)`.
 */

export interface DiskInfo {
  name: string;
  version: string;
  codename: string;
  arch: string;
  /** The words after " - " (e.g. "Official amd64 NETINST with firmware 20240210-11:27"). */
  kind: string;
}

export function parseDiskInfo(text: string): DiskInfo | null {
  const line = firstLine(text);
  const match = /^(.+?)\s+(\d[\w.~+]*)(?:\s+LTS)?\s+"([^"]{0,64})"\s+-\s+(.*)$/.exec(line);
  if (!match) {
    // Some media write only "<name> <version>" or a free text; keep the name at least.
    const loose = /^(.+?)\s+(\d[\w.~+]*)\b/.exec(line);
    return loose ? { name: (loose[1] ?? '').trim(), version: loose[2] ?? '', codename: '', arch: archInText(line), kind: '' } : null;
  }
  const kind = match[4] ?? '';
  return { name: (match[1] ?? '').trim(), version: match[2] ?? '', codename: match[3] ?? '', arch: archInText(kind), kind };
}

/** Debian's installer folder per architecture (debian-cd's names). */
const INSTALL_DIRS: { dir: string; arch: string }[] = [
  { dir: 'install.amd', arch: 'amd64' },
  { dir: 'install.a64', arch: 'arm64' },
  { dir: 'install.386', arch: 'i386' },
  { dir: 'install.ppc', arch: 'ppc64el' },
  { dir: 'install.s390', arch: 's390x' },
  { dir: 'install.rv64', arch: 'riscv64' },
  { dir: 'install', arch: '' },
];

async function readDiskInfo(context: DetectContext): Promise<{ path: string; info: DiskInfo | null } | null> {
  const path = await context.lookup.file('.disk/info');
  if (!path) return null;
  const text = await context.lookup.text(path, 4096);
  return { path, info: text === null ? null : parseDiskInfo(text) };
}

/** Ubuntu-style media: casper/ holds the kernel, the initrd and the squashfs layers. */
export async function recogniseCasper(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  const casper = await lookup.directory('casper');
  if (!casper) return null;
  const menuEntry = entryFor(context, null);
  const menuKernel = menuEntry?.kernel?.toLowerCase().startsWith('casper/') ? menuEntry.kernel : null;
  const kernel = menuKernel ? await lookup.file(menuKernel) : await lookup.firstFile(['casper/vmlinuz', 'casper/vmlinuz.efi', 'casper/hwe-vmlinuz']);
  if (!kernel) return null;
  const entry = entryFor(context, kernel);
  const initrd = entry?.initrds[0] ? await lookup.file(entry.initrds[0]) : await lookup.firstFile(['casper/initrd', 'casper/initrd.lz', 'casper/initrd.gz', 'casper/hwe-initrd']);
  const disk = await readDiskInfo(context);
  const info = disk?.info ?? null;
  const name = info?.name ?? (context.info.volume_id || 'Ubuntu');
  const distro = name.replace(/-/g, ' ');
  const version = info?.version ?? (/\d+\.\d+(\.\d+)?/.exec(context.fileName)?.[0] ?? '');
  const arch = info?.arch || context.efiArch || archInText(context.fileName);
  const isUbuntu = /ubuntu/i.test(name);
  const isoArgs = entry?.args ?? '';
  const major = Number(majorOf(version));
  const notes = [
    `casper downloads the whole ISO (${formatBytes(context.imageBytes)}) into RAM before it starts: the machine needs that much memory plus about 1.5 GiB to run.`,
    'cloud-config-url=/dev/null stops cloud-init from downloading the ISO a second time as its config (it reads url= too).',
  ];
  if (isUbuntu && major > 0 && major < 20) notes.push(`casper before Ubuntu 20.04 does not fetch an ISO by url=: boot ${distro} ${version} by sanboot (BIOS) or NFS instead.`);
  if (/server/i.test(name)) notes.push('For an unattended install add `autoinstall ds=nocloud-net;s=<answer URL>/` (Subiquity).');
  return recognised({
    family: 'ubuntu',
    distro,
    version,
    arch,
    boot_method: 'linux',
    kernel,
    initrds: initrd ? [initrd] : [],
    netboot_cmdline: joinArgs('boot=casper ip=dhcp url={{ iso_url }} cloud-config-url=/dev/null', withoutArgs(isoArgs, /^(boot=casper|iso-scan\/filename=.*|file=\/cdrom\/.*|maybe-ubiquity|only-ubiquity)$/)),
    evidence: [disk?.path, kernel, initrd].filter((path): path is string => typeof path === 'string'),
    notes,
    // Only Ubuntu itself: a flavour (Kubuntu, Mint…) is not what the catalog's ubuntu entry installs.
    catalog: /^ubuntu(-server)?$/i.test(name) ? { distro: 'ubuntu', version: majorMinorOf(version) } : null,
  });
}

/** Debian live (live-build): live/ with vmlinuz, initrd.img and filesystem.squashfs, booted by live-boot. */
export async function recogniseDebianLive(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  const squashfs = await lookup.file('live/filesystem.squashfs');
  if (!squashfs) return null;
  const liveEntries = context.menus.entries.filter((candidate) => candidate.kernel?.toLowerCase().startsWith('live/'));
  const entry = entryFor({ ...context, menus: { ...context.menus, entries: liveEntries } }, null);
  const kernel = (entry?.kernel ? await lookup.file(entry.kernel) : null) ?? (await firstMatching(context, 'live', /^vmlinuz/i));
  if (!kernel) return null;
  const initrd = (entry?.initrds[0] ? await lookup.file(entry.initrds[0]) : null) ?? (await firstMatching(context, 'live', /^initrd/i));
  const disk = await readDiskInfo(context);
  const info = disk?.info ?? null;
  const squashBytes = (await lookup.size(squashfs)) ?? 0;
  const version = info?.version ?? '';
  const installer = await lookup.directory('install');
  const notes = [
    `live-boot downloads live/filesystem.squashfs (${formatBytes(squashBytes)}) into RAM (fetch=): the machine needs that much memory plus about 1 GiB.`,
  ];
  if (installer) notes.push('The live image also carries the Debian installer (install/); its CD initrd looks for a CD-ROM, so over the network use the live system (Calamares) or the netboot catalog entry.');
  return recognised({
    family: 'debian',
    distro: info?.name ?? 'Debian GNU/Linux',
    version,
    arch: info?.arch || context.efiArch || archFromKernelName(kernel),
    boot_method: 'linux',
    kernel,
    initrds: initrd ? [initrd] : [],
    netboot_cmdline: joinArgs(withoutArgs(entry?.args ?? 'boot=live components', /^(findiso=.*|live-media=.*|live-media-path=.*|toram.*)$/), 'fetch={{ image_url }}live/filesystem.squashfs'),
    evidence: [disk?.path, kernel, squashfs].filter((path): path is string => typeof path === 'string'),
    notes,
    catalog: /debian/i.test(info?.name ?? 'debian') && version !== '' ? { distro: 'debian', version: majorOf(version) } : null,
  });
}

function archFromKernelName(path: string): string {
  return archInText(path.split('/').pop() ?? '');
}

async function firstMatching(context: DetectContext, dir: string, pattern: RegExp): Promise<string | null> {
  const dirPath = await context.lookup.directory(dir);
  if (!dirPath) return null;
  const match = (await context.lookup.list(dirPath)).find((entry) => entry.type === 'file' && pattern.test(entry.name));
  return match?.path ?? null;
}

/** The Debian installer's CD/DVD: install.<arch>/vmlinuz and initrd.gz, described by .disk/info. */
export async function recogniseDebianInstaller(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  let found: { dir: string; arch: string; kernel: string } | null = null;
  for (const candidate of INSTALL_DIRS) {
    const dir = await lookup.directory(candidate.dir);
    const kernel = dir ? await lookup.file(`${dir}/vmlinuz`) : null;
    if (dir && kernel) {
      found = { dir, arch: candidate.arch, kernel };
      break;
    }
  }
  if (!found) return null;
  const disk = await readDiskInfo(context);
  const info = disk?.info ?? null;
  const entry = entryFor(context, found.kernel);
  const initrd = (entry?.initrds[0] ? await lookup.file(entry.initrds[0]) : null) ?? (await lookup.firstFile([`${found.dir}/initrd.gz`, `${found.dir}/gtk/initrd.gz`]));
  const version = info?.version ?? '';
  const codename = (info?.codename ?? '').toLowerCase().split(/\s+/)[0] ?? '';
  const evidence = [disk?.path, found.kernel, initrd].filter((path): path is string => typeof path === 'string');
  const notes = [
    'The CD/DVD initrd looks for the installation medium on a CD-ROM (cdrom-detect): booted over the network it stops at "No common CD-ROM drive was detected". The kernel and initrd boot, the install does not continue from this image by itself.',
    `What installs over the network: the netboot installer of the same point release${version ? ` (${version})` : ''} (its kernel and initrd, e.g. the netboot catalog entry) with this image as its mirror: \`mirror/country=manual mirror/http/hostname=<this server>:<port> mirror/http/directory=/boot/iso/<slug> mirror/http/proxy=\` — the image's dists/ and pool/ form a Debian archive. A netboot initrd of another point release finds no kernel modules on the image (the kernel ABI differs).`,
    'BIOS machines can also sanboot the whole ISO, but the installer\'s Linux kernel cannot see an iPXE SAN disk either: sanboot shows the menu, the install stops at the same CD-ROM step.',
  ];
  if (codename) {
    const signed = (await lookup.firstFile([`dists/${codename}/Release.gpg`, `dists/${codename}/InRelease`])) !== null;
    if (!signed && (await lookup.file(`dists/${codename}/Release`))) {
      notes.push(`The image's dists/${codename}/Release carries no signature (no Release.gpg/InRelease): as a network mirror it needs \`debian-installer/allow_unauthenticated=true\`.`);
      evidence.push(`dists/${codename}/Release`);
    }
  }
  const name = info?.name ?? 'Debian GNU/Linux';
  const isDebian = /debian/i.test(name);
  return recognised({
    family: /ubuntu/i.test(name) ? 'ubuntu' : 'debian',
    distro: name,
    version,
    arch: info?.arch || found.arch || context.efiArch,
    boot_method: 'linux',
    kernel: found.kernel,
    initrds: initrd ? [initrd] : [],
    // The CD initrd takes no argument that would make it find the medium over the network; the ISO's own arguments keep the boot as the menu has it.
    netboot_cmdline: entry?.args ?? '',
    evidence,
    notes,
    catalog: isDebian && version !== '' ? { distro: 'debian', version: majorOf(version) } : null,
  });
}
