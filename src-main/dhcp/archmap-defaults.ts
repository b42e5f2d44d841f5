import type { ArchmapEntry } from './dhcp-contract.js';

/**
 * The default architecture map: DHCP option 93 "Client System Architecture
 * Type" (RFC 4578 §2.1; values from the IANA "Processor Architecture Types"
 * registry) to the first-stage boot file a client of that type gets.
 *
 * Boot files are paths relative to the boot root (`<data-dir>/boot/`), which
 * TFTP serves at `/` and HTTP at `/boot/`. Codes marked deprecated in the
 * registry, and types without a usable iPXE build (PowerPC, s390, MIPS,
 * Sunway, U-Boot), are left out: such clients get no boot file unless the
 * operator adds an entry.
 */
export type { ArchmapEntry } from './dhcp-contract.js';

export const DEFAULT_ARCHMAP: readonly ArchmapEntry[] = [
  { code: 0x00, name: 'x86 BIOS', boot_file: 'undionly.kpxe', http_boot_url_path: null, alternatives: ['ipxe.pxe'] },
  { code: 0x06, name: 'x86 UEFI (IA32)', boot_file: 'ipxe-i386.efi', http_boot_url_path: null, alternatives: [] },
  { code: 0x07, name: 'x64 UEFI', boot_file: 'ipxe.efi', http_boot_url_path: null, alternatives: ['snponly.efi'] },
  // Code 9 is "EBC" in the registry, but many x64 UEFI firmwares send it for x64.
  { code: 0x09, name: 'EBC (x64 UEFI on some firmware)', boot_file: 'ipxe.efi', http_boot_url_path: null, alternatives: ['snponly.efi'] },
  { code: 0x0a, name: 'ARM 32-bit UEFI', boot_file: 'ipxe-arm32.efi', http_boot_url_path: null, alternatives: [] },
  { code: 0x0b, name: 'ARM 64-bit UEFI', boot_file: 'ipxe-arm64.efi', http_boot_url_path: null, alternatives: [] },
  { code: 0x0f, name: 'x86 UEFI HTTP boot', boot_file: 'ipxe-i386.efi', http_boot_url_path: 'ipxe-i386.efi', alternatives: [] },
  { code: 0x10, name: 'x64 UEFI HTTP boot', boot_file: 'ipxe.efi', http_boot_url_path: 'ipxe.efi', alternatives: ['snponly.efi'] },
  { code: 0x12, name: 'ARM 32-bit UEFI HTTP boot', boot_file: 'ipxe-arm32.efi', http_boot_url_path: 'ipxe-arm32.efi', alternatives: [] },
  { code: 0x13, name: 'ARM 64-bit UEFI HTTP boot', boot_file: 'ipxe-arm64.efi', http_boot_url_path: 'ipxe-arm64.efi', alternatives: [] },
  { code: 0x14, name: 'x86 BIOS HTTP boot', boot_file: 'undionly.kpxe', http_boot_url_path: 'ipxe.pxe', alternatives: [] },
  { code: 0x19, name: 'RISC-V 32-bit UEFI', boot_file: 'ipxe-riscv32.efi', http_boot_url_path: null, alternatives: [] },
  { code: 0x1a, name: 'RISC-V 32-bit UEFI HTTP boot', boot_file: 'ipxe-riscv32.efi', http_boot_url_path: 'ipxe-riscv32.efi', alternatives: [] },
  { code: 0x1b, name: 'RISC-V 64-bit UEFI', boot_file: 'ipxe-riscv64.efi', http_boot_url_path: null, alternatives: [] },
  { code: 0x1c, name: 'RISC-V 64-bit UEFI HTTP boot', boot_file: 'ipxe-riscv64.efi', http_boot_url_path: 'ipxe-riscv64.efi', alternatives: [] },
  { code: 0x27, name: 'LoongArch 64-bit UEFI', boot_file: 'ipxe-loong64.efi', http_boot_url_path: null, alternatives: [] },
  { code: 0x28, name: 'LoongArch 64-bit UEFI HTTP boot', boot_file: 'ipxe-loong64.efi', http_boot_url_path: 'ipxe-loong64.efi', alternatives: [] },
];

/** A fresh copy of the defaults (callers may change it). */
export function defaultArchmap(): ArchmapEntry[] {
  return DEFAULT_ARCHMAP.map((entry) => ({ ...entry, alternatives: [...entry.alternatives] }));
}
