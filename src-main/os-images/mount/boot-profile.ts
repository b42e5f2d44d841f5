import { AppError } from '../../core/errors.js';
import { PROFILE_NAME_MAX } from '../../profiles/profiles-contract.js';
import type { ProfileInput } from '../../profiles/profile-types.js';
import type { OsImage } from '../os-images-contract.js';
import { isoFilePath, MOUNT_PREFIX } from './image-mounts.js';
import { nfsCmdline } from './nfs-cmdline.js';

/** Profile names may not hold these (profiles-contract.ts): they would break the iPXE menu line. */
const NAME_FORBIDDEN = /[${}#;&|"'\\]/g;

/**
 * The Liquid the profile renders per client for the mount's URL: the server
 * address the machine reached (`server.boot_url`, as every generated script
 * uses), never 127.0.0.1 or a fixed address.
 */
export function imageUrlTemplate(slug: string): string {
  return `{{ server.boot_url }}/${MOUNT_PREFIX}/${slug}`;
}

export function isoUrlTemplate(slug: string): string {
  return `{{ server.boot_url }}/${isoFilePath(slug)}`;
}

/** The Liquid for the image's NFS export as `<server>:<path>`: the address the machine reached, as for the URLs. */
export function nfsRootTemplate(exportPath: string): string {
  return `{{ server.ip }}:${exportPath}`;
}

/**
 * The detection's network command line with its placeholders turned into
 * those per-client sources: `{{ image_url }}` (the mounted content, no
 * trailing slash), `{{ iso_url }}` (the ISO file) and, for an NFS boot,
 * `{{ nfs_root }}` (the export). Anything else stays as written.
 */
export function renderNetbootCmdline(cmdline: string, slug: string, nfsExportPath: string | null = null): string {
  const withNfs = nfsExportPath === null ? cmdline : cmdline.replace(/\{\{\s*nfs_root\s*\}\}/g, nfsRootTemplate(nfsExportPath));
  return withNfs
    .replace(/\{\{\s*image_url\s*\}\}/g, imageUrlTemplate(slug))
    .replace(/\{\{\s*iso_url\s*\}\}/g, isoUrlTemplate(slug))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The default profile name of an image: stable across calls, so "boot this
 * ISO" again updates it; the NFS profile has its own, beside the HTTP one.
 */
export function defaultProfileName(image: Pick<OsImage, 'slug'>, via: 'http' | 'nfs' = 'http'): string {
  const suffix = via === 'nfs' ? ' (NFS)' : '';
  return `ISO ${image.slug}`.replace(NAME_FORBIDDEN, '').slice(0, PROFILE_NAME_MAX - suffix.length).trim() + suffix;
}

/** An NFS boot's export: its path and what the NFS area says to know. */
export interface NfsBootExport {
  path: string;
  notes: string[];
}

export interface BootProfilePlan {
  input: ProfileInput;
  notes: string[];
}

/**
 * What "boot this ISO" makes of a detected image (docs/iso-boot.md):
 * linux → a `linux` profile with the kernel and initrds under iso/<slug>/;
 * sanboot → a `sanboot` profile with the ISO's URL (BIOS only);
 * windows → wimboot with the ISO's BCD, boot.sdi and boot.wim when a wimboot
 * binary is in the boot root, else INVALID_STATE saying it is not available.
 * `wimboot` is the boot-root path of wimboot, or null. With `nfs`, a linux
 * image whose boot system takes an NFS source (nfs-cmdline.ts) reads its
 * medium from that export; any other is INVALID_STATE.
 */
export function planBootProfile(image: OsImage, options: { name: string; description?: string; wimboot: string | null; nfs?: NfsBootExport | null }): BootProfilePlan {
  const detection = image.detection;
  if (!detection) throw new AppError('INVALID_STATE', `image ${image.id} (${image.name}) is not detected yet: reprocess it first`);
  const label = [detection.distro, detection.version, detection.arch].filter((part) => part !== '').join(' ') || image.name;
  const nfs = options.nfs ?? null;
  const medium = nfs ? ', its medium over NFS' : '';
  const base = { name: options.name, description: options.description ?? `Boots ${label} from the mounted image ${image.slug} (OS image ${image.id}${medium}); made by "boot this ISO".` };
  const notes = [...detection.notes];
  if (nfs && detection.boot_method !== 'linux') {
    throw new AppError('INVALID_STATE', `image ${image.id} (${label}) boots by ${detection.boot_method}: only a kernel and initrd boot can take its medium over NFS`);
  }
  switch (detection.boot_method) {
    case 'linux': {
      if (!detection.kernel) throw new AppError('INVALID_STATE', `image ${image.id}: detection found no kernel to boot`);
      const inIso = (path: string) => `${MOUNT_PREFIX}/${image.slug}/${path.replace(/^\/+/, '')}`;
      if (nfs) return nfsLinuxPlan(image, label, base, notes, nfs, inIso);
      notes.unshift(`Boots the kernel and initrds straight from the mounted image (/boot/${MOUNT_PREFIX}/${image.slug}/) over HTTP; keep the image mounted while machines use this profile.`);
      if (detection.netboot_cmdline.trim() === '') notes.push('Detection found no network command line: the kernel boots with an empty one; set it in the profile if the installer needs its medium.');
      return {
        input: { ...base, boot_type: 'linux', linux: { kernel: inIso(detection.kernel), initrds: detection.initrds.map(inIso), cmdline: renderNetbootCmdline(detection.netboot_cmdline, image.slug) } },
        notes,
      };
    }
    case 'sanboot':
      notes.unshift(
        `iPXE hooks the whole ISO (/boot/${isoFilePath(image.slug)}) as a disk and boots it: BIOS machines only (UEFI firmware does not boot an ISO this way), and the ISO is read over HTTP as the machine needs it.`,
        'An installer that looks for its CD-ROM after its kernel started does not find it (the SAN disk lives in iPXE, not in the booted system).',
      );
      return { input: { ...base, boot_type: 'sanboot', sanboot: { url: isoFilePath(image.slug) } }, notes };
    case 'windows':
      return windowsPlan(image, base, notes, options.wimboot);
    case 'none':
      throw new AppError('INVALID_STATE', `image ${image.id} (${image.name}): detection found nothing bootable (${detection.distro || 'unknown'})`);
  }
}

function nfsLinuxPlan(image: OsImage, label: string, base: { name: string; description: string }, notes: string[], nfs: NfsBootExport, inIso: (path: string) => string): BootProfilePlan {
  const detection = image.detection;
  const converted = detection ? nfsCmdline(detection.netboot_cmdline) : null;
  if (!detection?.kernel || !converted) {
    throw new AppError(
      'INVALID_STATE',
      `image ${image.id} (${label}): its boot takes its medium over HTTP only (NFS is for casper, live-boot, Anaconda and archiso images); make the profile without via nfs`,
    );
  }
  notes.unshift(
    `Boots the kernel and initrds from the mounted image over HTTP; the system then reads the image over NFS v3 from <this server>:${nfs.path} (${converted.kind}). Keep the image mounted and the NFS service running while machines use this profile.`,
    ...nfs.notes,
  );
  return {
    input: {
      ...base,
      boot_type: 'linux',
      linux: { kernel: inIso(detection.kernel), initrds: detection.initrds.map(inIso), cmdline: renderNetbootCmdline(converted.cmdline, image.slug, nfs.path) },
    },
    notes,
  };
}

/**
 * wimboot (https://ipxe.org/wimboot) loads the ISO's BCD, boot.sdi and
 * boot.wim by the names it is given, which a `linux` profile's generated
 * names (initrd0…) cannot carry: the profile is an iPXE script.
 */
function windowsPlan(image: OsImage, base: { name: string; description: string }, notes: string[], wimboot: string | null): BootProfilePlan {
  const bootWim = image.detection?.boot_wim ?? null;
  if (!wimboot) {
    throw new AppError(
      'INVALID_STATE',
      'Windows images boot through wimboot, which Bootwright does not bundle: put a wimboot binary at the top of the boot root (<data-dir>/boot/wimboot) and try again, or boot the ISO some other way',
    );
  }
  if (!bootWim) throw new AppError('INVALID_STATE', `image ${image.id}: detection found no sources/boot.wim to boot`);
  const root = `{{ server.boot_url }}/${MOUNT_PREFIX}/${image.slug}`;
  // The BCD and boot.sdi sit next to each other under boot/ on Windows install media (BIOS); boot.wim is where detection found it.
  const script = [
    '#!ipxe',
    `# Generated by "boot this ISO" for OS image ${image.id}: wimboot with the mounted image's boot files.`,
    `kernel {{ server.boot_url }}/${wimboot.replace(/^\/+/, '')}`,
    `initrd --name BCD ${root}/boot/bcd BCD`,
    `initrd --name boot.sdi ${root}/boot/boot.sdi boot.sdi`,
    `initrd --name boot.wim ${root}/${bootWim.replace(/^\/+/, '')} boot.wim`,
    'boot',
    '',
  ].join('\n');
  notes.unshift('Boots Windows PE through wimboot with the image\'s BCD, boot.sdi and boot.wim, read from the mounted image over HTTP; Setup then needs the install files from a network share (not served by Bootwright).');
  return { input: { ...base, boot_type: 'ipxe_script', script }, notes };
}
