import type { BootLoader } from '../settings/settings-contract.js';

export type { BootLoader } from '../settings/settings-contract.js';

/*
 * The signed GRUB chains Bootwright hands UEFI machines that get the `grub`
 * loader (docs/secure-boot-arm64.md). The firmware loads the shim over TFTP;
 * shim (signed by Microsoft's UEFI CA) loads the GRUB of the same directory
 * by its fixed name (grubx64.efi, grubaa64.efi) and checks Debian's
 * signature on it; that GRUB reads `config` from the TFTP root (the prefix
 * compiled into it) and Bootwright serves a configuration there which loads
 * the machine's own one (boot-scripts/grub/). Under Secure Boot, GRUB loads
 * no modules, so everything it fetches comes over TFTP: the signed network
 * GRUB has no HTTP.
 */

/** UEFI architectures with a choice of loader (option 93 codes, RFC 4578 §2.1). */
export const LOADER_ARCHITECTURES = ['uefi_x64', 'uefi_arm64'] as const;
export type LoaderArchitecture = (typeof LOADER_ARCHITECTURES)[number];

export interface GrubChain {
  /** First stage, handed out by DHCP (file name in the boot root). */
  shim: string;
  /** Loaded by shim from the same directory, by this exact name. */
  grub: string;
  /** MokManager, started by shim to enrol a key; null where Debian ships none for network boot. */
  mok: string | null;
  /** Where that GRUB looks for its configuration (its compiled-in prefix + grub.cfg), relative to the TFTP root. */
  config: string;
  /** GRUB's `$grub_cpu` on these machines. */
  cpu: string;
}

export const GRUB_CHAINS: Readonly<Record<LoaderArchitecture, GrubChain>> = {
  // shim-signed + grub-efi-amd64-signed (grubnetx64, prefix /grub).
  uefi_x64: { shim: 'shimx64.efi', grub: 'grubx64.efi', mok: 'mmx64.efi', config: 'grub/grub.cfg', cpu: 'x86_64' },
  // debian-installer-12-netboot-arm64's bootnetaa64.efi (signed shim) and grubaa64.efi (signed GRUB, prefix /debian-installer/arm64/grub).
  uefi_arm64: { shim: 'shimaa64.efi', grub: 'grubaa64.efi', mok: null, config: 'debian-installer/arm64/grub/grub.cfg', cpu: 'arm64' },
};

/** Option 93 codes of PXE (TFTP) clients that can take either loader; HTTP-boot codes keep the archmap. */
export function loaderArchitectureOf(archCode: number | null): LoaderArchitecture | null {
  if (archCode === 0x07 || archCode === 0x09) return 'uefi_x64';
  if (archCode === 0x0b) return 'uefi_arm64';
  return null;
}

/** The loader architecture of a machine as iPXE (`${buildarch}`, `${platform}`) or GRUB (`$grub_cpu`, `$grub_platform`) named it; null for BIOS or unknown. */
export function loaderArchitectureOfMachine(arch: string | null, platform: string | null): LoaderArchitecture | null {
  if (platform !== null && platform !== 'efi') return null;
  if (arch === 'arm64') return 'uefi_arm64';
  if (arch === 'x86_64') return platform === 'efi' ? 'uefi_x64' : null;
  return null;
}

/** Where a machine's loader was decided (the boot-config preview's `loader.source`). */
export type LoaderSource = 'reservation' | 'host' | 'group' | 'architecture' | 'fixed';

/** The first stage a UEFI PXE client gets, decided per machine. */
export interface LoaderChoice {
  loader: BootLoader;
  source: LoaderSource;
}

/**
 * Which loader a machine gets, answered per DHCP packet (synchronously, from
 * memory). Registered with the DHCP area by the boot scripts area, which
 * knows hosts and settings; without it every machine gets the archmap's file.
 */
export interface BootLoaderPolicy {
  choose(mac: string, architecture: LoaderArchitecture): LoaderChoice;
}
