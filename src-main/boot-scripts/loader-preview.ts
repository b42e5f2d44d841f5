import { GRUB_CHAINS, loaderArchitectureOfMachine } from '../dhcp/boot-loader-chains.js';
import type { Host } from '../hosts/host-types.js';
import type { BootLoaders } from '../settings/settings-contract.js';
import type { LoaderPreview } from './boot-scripts-contract.js';
import { chooseLoader } from './boot-loader-policy.js';

/** Option 93 codes the preview names the first stage by: x86 BIOS, x64 UEFI, ARM64 UEFI. */
const ARCH_CODE = { bios: 0x00, uefi_x64: 0x07, uefi_arm64: 0x0b } as const;

/**
 * The first stage a host gets from DHCP, as the DHCP server decides it
 * (dhcp/server/boot-info.ts): a reservation's own boot file; for x64 and
 * ARM64 UEFI the loader chosen for the host (boot-loader-policy.ts); BIOS
 * and other types the archmap's iPXE. The architecture is what the machine
 * said at its last boot (or its host record); a machine not seen yet is
 * previewed as x64 UEFI, the most common kind.
 */
export function previewLoader(
  host: Host,
  deps: { loaders: BootLoaders; reservationBootFile: string | null; archmapFile: (code: number) => string | null },
): LoaderPreview {
  const architecture = machineArchitecture(host);
  const assumed = architecture === null;
  const effective = architecture ?? 'uefi_x64';
  const assumption = assumed ? ' (architecture not known until it boots; shown for x64 UEFI)' : '';
  if (deps.reservationBootFile !== null) {
    return {
      kind: 'ipxe',
      architecture,
      first_stage: deps.reservationBootFile,
      source: 'reservation',
      reason_text: `its DHCP reservation names the boot file ${deps.reservationBootFile}`,
    };
  }
  if (effective === 'bios' || effective === 'other') {
    const file = deps.archmapFile(ARCH_CODE.bios);
    return { kind: 'ipxe', architecture, first_stage: effective === 'bios' ? file : null, source: 'fixed', reason_text: `${effective === 'bios' ? 'BIOS' : 'this architecture'}: iPXE only (the signed GRUB chain is UEFI x64 and ARM64)` };
  }
  const choice = chooseLoader(host, effective, deps.loaders);
  const where = choice.source === 'host' ? 'the host is set to' : choice.source === 'group' ? `group "${host.group ?? ''}" is set to` : `the ${effective === 'uefi_x64' ? 'x64' : 'ARM64'} UEFI default is`;
  const first = choice.loader === 'grub' ? GRUB_CHAINS[effective].shim : deps.archmapFile(ARCH_CODE[effective]);
  const what = choice.loader === 'grub' ? 'the signed chain (shim → GRUB)' : 'iPXE';
  return { kind: choice.loader, architecture, first_stage: first, source: choice.source, reason_text: `${where} ${what}${assumption}` };
}

/** The machine's architecture from what it said at boot (iPXE `${buildarch}`/`${platform}`, GRUB `$grub_cpu`). */
function machineArchitecture(host: Pick<Host, 'arch' | 'platform'>): LoaderPreview['architecture'] {
  if (host.platform === 'pcbios') return 'bios';
  const uefi = loaderArchitectureOfMachine(host.arch, host.platform ?? 'efi');
  if (uefi !== null) return uefi;
  return host.arch === null ? null : 'other';
}
