import { AppError } from '../../core/errors.js';
import { PROFILE_NAME_MAX } from '../../profiles/profiles-contract.js';
import type { ProfileInput } from '../../profiles/profile-types.js';
import type { OsImage } from '../os-images-contract.js';
import { isoFilePath, MOUNT_PREFIX } from './image-mounts.js';

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

/**
 * The detection's network command line with its two placeholders turned into
 * those per-client URLs: `{{ image_url }}` (the mounted content, no trailing
 * slash) and `{{ iso_url }}` (the ISO file). Anything else stays as written.
 */
export function renderNetbootCmdline(cmdline: string, slug: string): string {
  return cmdline
    .replace(/\{\{\s*image_url\s*\}\}/g, imageUrlTemplate(slug))
    .replace(/\{\{\s*iso_url\s*\}\}/g, isoUrlTemplate(slug))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The default profile name of an image: stable across calls, so "boot this ISO" again updates it. */
export function defaultProfileName(image: Pick<OsImage, 'slug'>): string {
  return `ISO ${image.slug}`.replace(NAME_FORBIDDEN, '').slice(0, PROFILE_NAME_MAX).trim();
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
 * `wimboot` is the boot-root path of wimboot, or null.
 */
export function planBootProfile(image: OsImage, options: { name: string; description?: string; wimboot: string | null }): BootProfilePlan {
  const detection = image.detection;
  if (!detection) throw new AppError('INVALID_STATE', `image ${image.id} (${image.name}) is not detected yet: reprocess it first`);
  const label = [detection.distro, detection.version, detection.arch].filter((part) => part !== '').join(' ') || image.name;
  const base = { name: options.name, description: options.description ?? `Boots ${label} from the mounted image ${image.slug} (OS image ${image.id}); made by "boot this ISO".` };
  const notes = [...detection.notes];
  switch (detection.boot_method) {
    case 'linux': {
      if (!detection.kernel) throw new AppError('INVALID_STATE', `image ${image.id}: detection found no kernel to boot`);
      const inIso = (path: string) => `${MOUNT_PREFIX}/${image.slug}/${path.replace(/^\/+/, '')}`;
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
