import type { Detection } from '../os-images-contract.js';
import { readBootMenus } from '../detect/boot-menu.js';
import { TreeLookup } from '../detect/tree-lookup.js';

/*
 * Which parts of an image a boot extraction copies (docs/os-detection.md,
 * "Extraction"): what a network boot of the extracted folder needs to start
 * the way a boot of the mounted image would. From the detection: the
 * kernel, initrds, EFI loaders, Windows' boot.wim with bootmgr/BCD/boot.sdi,
 * the boot menus, the metadata files (.disk/, .treeinfo…) and what the
 * netboot command line fetches from the image ({{ image_url }}<path>, the
 * archiso root filesystem, Anaconda's stage 2, linuxrc's boot/<arch>/).
 * Without a detection: a fixed list of the places the known families keep
 * their boot files. Paths are matched case-insensitively (plain ISO 9660
 * names are upper case) and only what exists is returned.
 */

export interface Selection {
  /** Tree paths copied as they are (a directory: its whole subtree). */
  paths: string[];
}

/** Metadata every boot extraction keeps (detection reads them again from the extracted folder). */
const METADATA = ['.disk', '.treeinfo', '.discinfo', 'media.1', 'content', '.alpine-release', 'arch/version', 'GParted-Live-Version', 'Clonezilla-Live-Version', 'sources/idwbinfo.txt'];

/** What Windows' boot manager needs beside boot.wim (wimboot loads them by name). */
const WINDOWS_BOOT = ['bootmgr', 'bootmgr.efi', 'boot/bcd', 'boot/boot.sdi', 'boot/fonts', 'efi/microsoft/boot', 'efi/boot'];

/** Where the known families keep their boot files, for an image without a detection. */
const FIXED = [
  'EFI/BOOT',
  'isolinux',
  'syslinux',
  'boot/grub',
  'boot/syslinux',
  'install.amd',
  'install.a64',
  'install.386',
  'install',
  'casper/vmlinuz',
  'casper/initrd',
  'casper/hwe-vmlinuz',
  'casper/hwe-initrd',
  'images/pxeboot',
  'live/vmlinuz',
  'live/initrd.img',
  'boot/x86_64/loader',
  'boot/aarch64/loader',
  'arch/boot',
  'sysresccd/boot',
  'boot/vmlinuz-lts',
  'boot/initramfs-lts',
  'boot/modloop-lts',
  'sources/boot.wim',
  ...WINDOWS_BOOT,
];

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Paths the netboot command line fetches from the image ("{{ image_url }}live/filesystem.squashfs"). */
export function cmdlineImagePaths(cmdline: string): string[] {
  const paths: string[] = [];
  for (const match of cmdline.matchAll(/\{\{\s*image_url\s*\}\}([^\s"']*)/g)) {
    const path = (match[1] ?? '').replace(/^\/+|\/+$/g, '');
    if (path !== '') paths.push(path);
  }
  return paths;
}

/** What the detected boot needs from the image besides kernel and initrds. */
function netbootNeeds(detection: Detection): string[] {
  const needs = cmdlineImagePaths(detection.netboot_cmdline);
  const base = /\barchisobasedir=(\S+)/.exec(detection.netboot_cmdline)?.[1];
  const kernelArch = detection.kernel?.split('/')[2];
  // archiso fetches <base>/<arch>/airootfs.sfs (and its checksum) from archiso_http_srv.
  if (base && kernelArch) needs.push(`${base}/${kernelArch}`);
  if (/\binst\.stage2=/.test(detection.netboot_cmdline)) needs.push('images/install.img');
  if (/\broot=live:/.test(detection.netboot_cmdline)) needs.push('LiveOS');
  // linuxrc loads the installation system from boot/<arch>/ (root, common, bind…).
  if (detection.family === 'suse' && detection.kernel) needs.push(parentOf(parentOf(detection.kernel)));
  return needs;
}

export async function bootSelection(lookup: TreeLookup, detection: Detection | null): Promise<Selection> {
  const wanted: string[] = [...METADATA];
  if (detection === null) {
    wanted.push(...FIXED);
  } else {
    if (detection.kernel) wanted.push(detection.kernel);
    wanted.push(...detection.initrds, ...detection.efi_loaders);
    if (detection.efi_loaders.length > 0) wanted.push('EFI/BOOT');
    if (detection.boot_wim) wanted.push(detection.boot_wim, ...WINDOWS_BOOT);
    wanted.push(...netbootNeeds(detection));
    wanted.push(...(await readBootMenus(lookup)).files);
  }
  const paths: string[] = [];
  for (const candidate of wanted) {
    const node = await lookup.find(candidate);
    if (node && !paths.includes(node.path)) paths.push(node.path);
  }
  return { paths };
}
