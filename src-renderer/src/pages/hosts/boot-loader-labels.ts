import type { BootLoader } from '@contracts/settings';
import type { LoaderPreview } from '@contracts/boot-scripts';

/*
 * How the boot loaders read in the UI (issue 21): the host form, the host
 * page's preview and the netboot settings name them the same way.
 */

export const LOADER_NAME: Record<BootLoader, string> = {
  ipxe: 'iPXE',
  grub: 'GRUB signed chain',
};

/** The choices of a loader select (settings per architecture and per group). */
export const LOADER_OPTIONS: { value: BootLoader; label: string }[] = [
  { value: 'grub', label: 'GRUB (Secure Boot chain)' },
  { value: 'ipxe', label: 'iPXE' },
];

/** The host form's choice; 'default' stands for null (the group's, else the architecture's default). */
export const HOST_LOADER_OPTIONS: { value: 'default' | BootLoader; label: string }[] = [
  { value: 'default', label: 'Default (group / architecture)' },
  { value: 'ipxe', label: 'iPXE' },
  { value: 'grub', label: 'GRUB (Secure Boot chain)' },
];

export const LOADER_SOURCE_TEXT: Record<LoaderPreview['source'], string> = {
  reservation: 'its DHCP reservation',
  host: 'the host setting',
  group: 'its group',
  architecture: 'the architecture default',
  fixed: 'fixed (iPXE only)',
};

export const ARCHITECTURE_TEXT: Record<NonNullable<LoaderPreview['architecture']>, string> = {
  bios: 'BIOS',
  uefi_x64: 'x64 UEFI',
  uefi_arm64: 'ARM64 UEFI',
  other: 'other',
};

/** Where the trade-off between the loaders is written up (shipped with the sources). */
export const SECURE_BOOT_DOC = 'docs/secure-boot-arm64.md';
