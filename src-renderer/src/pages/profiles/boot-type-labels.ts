import type { BootType } from '@contracts/profiles';

/** How the UI names each boot type (the list itself is the contract's BOOT_TYPES). */
export const BOOT_TYPE_LABELS: Record<BootType, string> = {
  ipxe_script: 'iPXE script',
  linux: 'Linux kernel',
  chain: 'Chain (URL)',
  sanboot: 'SAN boot (ISO/disk image)',
  local: 'Local disk',
  menu: 'Menu',
};
