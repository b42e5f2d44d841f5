import { GRUB_CHAINS, LOADER_ARCHITECTURES, type LoaderArchitecture } from '../dhcp/boot-loader-chains.js';
import type { BootLoaders } from '../settings/settings-contract.js';
import { architectureOfMachine, type HostFacts } from './check-architectures.js';

/*
 * Which UEFI architectures machines will fetch the signed shim → GRUB chain
 * for (docs/secure-boot-arm64.md, "Which loader a machine gets"), read from
 * the same settings and host fields DHCP decides with
 * (boot-scripts/boot-loader-policy.ts). The check then wants that chain's
 * shim and GRUB in the roots clients fetch from.
 */

export interface GrubUse {
  architecture: LoaderArchitecture;
  /** Why GRUB machines of this architecture exist, as sentences ("default (netboot.boot_loaders.uefi_arm64)", "group lab", "2 hosts with boot_loader grub"). */
  reasons: string[];
}

/** The file a GRUB chain needs, with what the firmware or shim will run it as. */
export interface GrubChainFile {
  name: string;
  architecture: LoaderArchitecture;
  role: 'shim' | 'grub';
  /** PE machine of the file. */
  machine: 'x64' | 'arm64';
}

/** Hosts naming an architecture-less `grub` count for every loader architecture: whatever they are, they would get it. */
export function grubUses(loaders: BootLoaders, hosts: readonly HostFacts[]): GrubUse[] {
  const reasons = new Map<LoaderArchitecture, string[]>(LOADER_ARCHITECTURES.map((architecture) => [architecture, []]));
  const add = (architectures: readonly LoaderArchitecture[], reason: string) => {
    for (const architecture of architectures) reasons.get(architecture)?.push(reason);
  };
  const loaderArchitectureOf = (host: HostFacts): LoaderArchitecture | null => {
    const architecture = architectureOfMachine(host.arch, host.platform);
    return architecture === 'uefi_x64' || architecture === 'uefi_arm64' ? architecture : null;
  };
  for (const architecture of LOADER_ARCHITECTURES) {
    if (loaders[architecture] === 'grub') add([architecture], `default (settings netboot.boot_loaders.${architecture})`);
  }
  for (const [group, loader] of Object.entries(loaders.groups)) {
    if (loader !== 'grub') continue;
    const wanted = group.toLowerCase();
    // Group names match case-insensitively (as chooseLoader does); a member's own boot_loader wins over its group.
    const members = hosts.filter((host) => host.group?.toLowerCase() === wanted && host.boot_loader === null);
    const known = [...new Set(members.map(loaderArchitectureOf).filter((architecture) => architecture !== null))];
    add(known.length > 0 ? known : LOADER_ARCHITECTURES, `group ${group}`);
  }
  // Counted, not listed: a site may set it on hundreds of hosts.
  const hostCounts = new Map<LoaderArchitecture, number>();
  for (const host of hosts) {
    if (host.boot_loader !== 'grub') continue;
    const architecture = loaderArchitectureOf(host);
    for (const each of architecture ? [architecture] : LOADER_ARCHITECTURES) hostCounts.set(each, (hostCounts.get(each) ?? 0) + 1);
  }
  for (const [architecture, count] of hostCounts) add([architecture], `${count} host${count === 1 ? '' : 's'} with boot_loader grub`);
  return LOADER_ARCHITECTURES.filter((architecture) => (reasons.get(architecture) ?? []).length > 0).map((architecture) => ({
    architecture,
    reasons: reasons.get(architecture) ?? [],
  }));
}

/** The shim and GRUB of an architecture's chain (MokManager is only needed to enrol a key: not checked). */
export function grubChainFiles(architecture: LoaderArchitecture): GrubChainFile[] {
  const chain = GRUB_CHAINS[architecture];
  const machine = chain.cpu === 'arm64' ? 'arm64' : 'x64';
  return [
    { name: chain.shim, architecture, role: 'shim', machine },
    { name: chain.grub, architecture, role: 'grub', machine },
  ];
}

/**
 * The file Debian's signed GRUB reads instead of the configuration at its
 * prefix when it exists: its built-in configuration runs
 * `if [ -e $prefix/<cpu>-efi/grub.cfg ]; then source it; else source $prefix/grub.cfg`.
 * Bootwright serves only the latter; a copy of a Debian netboot tree in the
 * root (it carries debian-installer/arm64/grub/arm64-efi/grub.cfg) would
 * take over every machine on GRUB.
 */
export function grubShadowingConfig(architecture: LoaderArchitecture): string {
  const chain = GRUB_CHAINS[architecture];
  const prefix = chain.config.slice(0, chain.config.lastIndexOf('/'));
  return `${prefix}/${chain.cpu}-efi/grub.cfg`;
}
