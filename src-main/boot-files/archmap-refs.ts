import type { BootFileFormat } from './bootloader-manifest.js';

/** The fields of a DHCP archmap entry the checks read (src-main/dhcp/archmap-defaults.ts). */
export interface ArchmapEntryLike {
  code: number;
  name: string;
  boot_file: string | null;
  http_boot_url_path: string | null;
}

/** A file the archmap hands out, with what a client of that type can run. */
export interface ArchmapFileRef {
  file: string;
  /** The archmap entry's architecture name, e.g. "x64 UEFI". */
  architecture: string;
  format: BootFileFormat;
  /** PE machine for UEFI types; null for BIOS. */
  machine: string | null;
  /** Every option 93 code whose entry names the file (the check ranks its problems by them). */
  codes: number[];
}

/**
 * What a client of each option 93 type (RFC 4578 §2.1, IANA Processor
 * Architecture Types) executes: BIOS gets a PXE boot program, UEFI types a
 * PE/COFF image for their processor.
 */
export function expectationForArchCode(code: number): { format: BootFileFormat; machine: string | null } {
  switch (code) {
    case 0x00:
    case 0x14:
      return { format: 'pxe', machine: null };
    case 0x06:
    case 0x0f:
      return { format: 'pe', machine: 'ia32' };
    case 0x0a:
    case 0x12:
      return { format: 'pe', machine: 'arm' };
    case 0x0b:
    case 0x13:
      return { format: 'pe', machine: 'arm64' };
    case 0x19:
    case 0x1a:
      return { format: 'pe', machine: 'riscv32' };
    case 0x1b:
    case 0x1c:
      return { format: 'pe', machine: 'riscv64' };
    case 0x27:
    case 0x28:
      return { format: 'pe', machine: 'loongarch64' };
    default:
      return { format: 'pe', machine: 'x64' };
  }
}

/** Every file the archmap refers to (TFTP boot file and HTTP boot path), once per file. */
export function archmapFileRefs(entries: readonly ArchmapEntryLike[]): ArchmapFileRef[] {
  const refs = new Map<string, ArchmapFileRef>();
  for (const entry of entries) {
    const expectation = expectationForArchCode(entry.code);
    for (const file of [entry.boot_file, entry.http_boot_url_path]) {
      if (!file) continue;
      const known = refs.get(file);
      if (!known) refs.set(file, { file, architecture: entry.name, ...expectation, codes: [entry.code] });
      else if (!known.codes.includes(entry.code)) known.codes.push(entry.code);
    }
  }
  return [...refs.values()];
}
