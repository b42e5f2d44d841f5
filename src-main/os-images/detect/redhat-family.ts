import {
  archInText,
  debianArch,
  entryFor,
  formatBytes,
  joinArgs,
  majorOf,
  recognised,
  withoutArgs,
  type DetectContext,
  type Recognised,
} from './detect-kit.js';

/*
 * The Red Hat family (RHEL, Rocky, AlmaLinux, CentOS Stream, Oracle Linux)
 * and Fedora. Install media carry `.treeinfo` (productmd's INI: [release]
 * name/version, [tree] arch, [images-<arch>] kernel/initrd, [stage2]
 * mainimage; the older format has [general] family/version/arch). Anaconda
 * installs over the network with `inst.repo=<the mounted tree>`. Fedora's
 * live media have no .treeinfo: LiveOS/squashfs.img booted by dracut.
 */

export type IniSections = Map<string, Map<string, string>>;

/** A small INI parser (sections, `key = value`, `#`/`;` comments); the first 2000 lines at most. */
export function parseIni(text: string): IniSections {
  const sections: IniSections = new Map();
  let current = new Map<string, string>();
  sections.set('', current);
  for (const raw of text.split(/\r?\n/).slice(0, 2000)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[([^\]]{1,128})\]$/.exec(line);
    if (section) {
      const name = (section[1] ?? '').trim().toLowerCase();
      current = sections.get(name) ?? new Map<string, string>();
      sections.set(name, current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    current.set(line.slice(0, eq).trim().toLowerCase(), line.slice(eq + 1).trim().slice(0, 512));
  }
  return sections;
}

function get(ini: IniSections, section: string, key: string): string {
  return ini.get(section)?.get(key) ?? '';
}

/** The netboot catalog's distro id for a .treeinfo release name. */
function catalogDistro(name: string): string | null {
  const table: [RegExp, string][] = [
    [/^fedora/i, 'fedora'],
    [/^rocky/i, 'rocky'],
    [/^alma/i, 'almalinux'],
    [/^centos stream/i, 'centos-stream'],
    [/^red hat enterprise linux/i, 'rhel'],
    [/^oracle linux/i, 'oraclelinux'],
  ];
  return table.find(([pattern]) => pattern.test(name))?.[1] ?? null;
}

export async function recogniseTreeinfo(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  const treeinfo = (await lookup.file('.treeinfo')) ?? (await lookup.file('treeinfo'));
  if (!treeinfo) return null;
  const text = await lookup.text(treeinfo, 64 * 1024);
  if (text === null) return null;
  const ini = parseIni(text);
  const name = get(ini, 'release', 'name') || get(ini, 'general', 'family') || get(ini, 'product', 'name');
  if (name === '') return null;
  const version = get(ini, 'release', 'version') || get(ini, 'general', 'version') || get(ini, 'product', 'version');
  const treeArch = get(ini, 'tree', 'arch') || get(ini, 'general', 'arch');
  const arch = debianArch(treeArch) || context.efiArch;
  const images = ini.get(`images-${treeArch.toLowerCase()}`);
  const kernel = (images?.get('kernel') ? await lookup.file(images.get('kernel') ?? '') : null) ?? (await lookup.file('images/pxeboot/vmlinuz'));
  if (!kernel) return null;
  const initrd = (images?.get('initrd') ? await lookup.file(images.get('initrd') ?? '') : null) ?? (await lookup.file('images/pxeboot/initrd.img'));
  const stage2 = (await lookup.file(get(ini, 'stage2', 'mainimage') || 'images/install.img')) ?? (await lookup.file('LiveOS/squashfs.img'));
  // A DVD carries packages (BaseOS/Packages, Packages/); a boot ISO only the installer.
  const hasPackages = (await lookup.directory('BaseOS/Packages')) !== null || (await lookup.directory('Packages')) !== null;
  const entry = entryFor(context, kernel);
  const isoArgs = withoutArgs(entry?.args ?? '', /^(inst\.stage2=.*|inst\.repo=.*|rd\.live\.check|root=live:.*|inst\.ks=.*)$/i);
  const notes: string[] = [];
  if (stage2) notes.push(`Anaconda downloads its stage 2 (${stage2}, ${formatBytes((await lookup.size(stage2)) ?? 0)}) into RAM: plan on 2 GiB of memory or more.`);
  if (!hasPackages) notes.push('This is a boot ISO without packages: inst.stage2 boots the installer from the image, packages come from the distribution\'s mirrors (internet access, or add inst.repo=<a mirror>).');
  notes.push('For an unattended install add inst.ks=<kickstart URL>.');
  const family = /^fedora/i.test(name) ? 'fedora' : 'rhel';
  const distro = catalogDistro(name);
  return recognised({
    family,
    distro: name,
    version,
    arch,
    boot_method: 'linux',
    kernel,
    initrds: initrd ? [initrd] : [],
    netboot_cmdline: joinArgs(hasPackages ? 'inst.repo={{ image_url }}' : 'inst.stage2={{ image_url }}', 'ip=dhcp', isoArgs),
    evidence: [treeinfo, kernel, initrd].filter((path): path is string => typeof path === 'string'),
    notes,
    catalog: distro && version !== '' ? { distro, version: majorOf(version) } : null,
  });
}

/** Fedora-style live media (dracut dmsquash-live): LiveOS/squashfs.img, no .treeinfo. */
export async function recogniseLiveOs(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  const squashfs = await lookup.file('LiveOS/squashfs.img');
  if (!squashfs) return null;
  const entry = context.menus.entries.find((candidate) => /root=live:/i.test(candidate.args)) ?? entryFor(context, null);
  const kernel = (entry?.kernel ? await lookup.file(entry.kernel) : null) ?? (await lookup.firstFile(['images/pxeboot/vmlinuz', 'isolinux/vmlinuz', 'boot/x86_64/loader/linux']));
  if (!kernel) return null;
  const initrd = (entry?.initrds[0] ? await lookup.file(entry.initrds[0]) : null) ?? (await lookup.firstFile(['images/pxeboot/initrd.img', 'isolinux/initrd.img']));
  const volume = context.info.volume_id;
  // Fedora names its live volumes "Fedora-WS-Live-40-1-14"; the release is the first number.
  const version = /-(\d+)(-|$)/.exec(volume)?.[1] ?? /-(\d+)-/.exec(context.fileName)?.[1] ?? '';
  const isFedora = /fedora/i.test(volume) || /fedora/i.test(context.fileName);
  const squashBytes = (await lookup.size(squashfs)) ?? 0;
  return recognised({
    family: isFedora ? 'fedora' : 'rhel',
    distro: isFedora ? 'Fedora Live' : volume || 'LiveOS',
    version,
    arch: context.efiArch || archInText(volume) || archInText(context.fileName),
    boot_method: 'linux',
    kernel,
    initrds: initrd ? [initrd] : [],
    netboot_cmdline: joinArgs('root=live:{{ image_url }}LiveOS/squashfs.img rd.live.image ip=dhcp rd.neednet=1', withoutArgs(entry?.args ?? '', /^(root=.*|rd\.live\.image|rd\.live\.check|iso-scan\/filename=.*)$/i)),
    evidence: [kernel, squashfs],
    notes: [
      `dracut's livenet module downloads LiveOS/squashfs.img (${formatBytes(squashBytes)}) into RAM: the machine needs that much memory plus about 1.5 GiB. The ISO's initrd must include livenet (Fedora's live images do).`,
    ],
    // The catalog's fedora entry is Anaconda's network install; a live image is not that.
    catalog: null,
  });
}
