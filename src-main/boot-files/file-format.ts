import type { BootFileFormat } from './bootloader-manifest.js';

/** PE machine types (PE/COFF specification, "Machine Types"). */
const PE_MACHINES: Record<number, string> = {
  0x8664: 'x64',
  0xaa64: 'arm64',
  0x014c: 'ia32',
  0x01c2: 'arm',
  0x01c4: 'arm',
  0x5032: 'riscv32',
  0x5064: 'riscv64',
  0x6264: 'loongarch64',
};
/** Optional header subsystems of UEFI images. */
const EFI_SUBSYSTEMS = new Set([10, 11, 12]);
/**
 * A PXE network boot program is loaded at 0000:7C00 and must fit below
 * 640 KiB (PXE specification 2.1, §4.4.5): 0xA0000 - 0x7C00 bytes.
 */
export const PXE_MAX_SIZE = 0xa0000 - 0x7c00;

/** Bytes of the file the format check reads. */
export const FORMAT_PROBE_BYTES = 64 * 1024;

export interface FormatReport {
  /** What the bytes look like; null when neither. */
  detected: BootFileFormat | null;
  /** PE only: the machine type, e.g. x64. */
  machine: string | null;
  /** Why the file is not what it should be, or null when it is. */
  problem: string | null;
}

/**
 * Looks at a file's first bytes (`head`, up to FORMAT_PROBE_BYTES) and its
 * size. PE/COFF: "MZ", a PE header at e_lfanew, an EFI subsystem. A PXE
 * boot program has no magic number; iPXE, PXELINUX and GRUB's pxeboot all
 * start with an x86 jump and carry the "PXENV+" or "!PXE" signature they
 * search memory for, and fit the PXE size limit.
 */
export function inspectFormat(head: Buffer, size: number, expected: BootFileFormat, machine: string | null): FormatReport {
  const pe = inspectPe(head);
  if (expected === 'pe') {
    if (pe.problem) return { detected: looksLikePxe(head, size) ? 'pxe' : null, machine: null, problem: pe.problem };
    if (machine && pe.machine !== machine) {
      return { detected: 'pe', machine: pe.machine, problem: `PE/COFF image for ${pe.machine ?? 'an unknown machine'}, expected ${machine}` };
    }
    return { detected: 'pe', machine: pe.machine, problem: null };
  }
  if (!pe.problem) return { detected: 'pe', machine: pe.machine, problem: 'a PE/COFF (UEFI) image, not a BIOS PXE boot program' };
  if (size > PXE_MAX_SIZE) return { detected: null, machine: null, problem: `${size} bytes is more than a PXE boot program can be (${PXE_MAX_SIZE})` };
  if (!looksLikePxe(head, size)) return { detected: null, machine: null, problem: 'does not look like a PXE boot program (no x86 entry jump and no PXE signature)' };
  return { detected: 'pxe', machine: null, problem: null };
}

function inspectPe(head: Buffer): { machine: string | null; problem: string | null } {
  if (head.length < 0x40 || head[0] !== 0x4d || head[1] !== 0x5a) return { machine: null, problem: 'no "MZ" header: not a PE/COFF (UEFI) image' };
  const peOffset = head.readUInt32LE(0x3c);
  if (peOffset + 24 + 70 > head.length) return { machine: null, problem: 'PE header offset points past the start of the file' };
  if (head.readUInt32BE(peOffset) !== 0x50450000) return { machine: null, problem: 'no "PE\\0\\0" signature: not a PE/COFF image' };
  const machine = PE_MACHINES[head.readUInt16LE(peOffset + 4)] ?? null;
  const optionalMagic = head.readUInt16LE(peOffset + 24);
  if (optionalMagic !== 0x10b && optionalMagic !== 0x20b) return { machine, problem: 'PE optional header missing or unknown' };
  const subsystem = head.readUInt16LE(peOffset + 24 + 68);
  if (!EFI_SUBSYSTEMS.has(subsystem)) return { machine, problem: `PE subsystem ${subsystem} is not a UEFI application or driver` };
  return { machine, problem: null };
}

function looksLikePxe(head: Buffer, size: number): boolean {
  if (size === 0 || head.length === 0) return false;
  const jump = head[0] === 0xea || head[0] === 0xe9 || head[0] === 0xeb;
  return jump || head.includes('PXENV+') || head.includes('!PXE');
}

/** The format and PE machine a boot loader for `architecture` should have. */
export function expectedFor(architecture: string): { format: BootFileFormat; machine: string | null } {
  switch (architecture) {
    case 'bios':
      return { format: 'pxe', machine: null };
    case 'uefi-arm64':
      return { format: 'pe', machine: 'arm64' };
    case 'uefi-ia32':
      return { format: 'pe', machine: 'ia32' };
    default:
      return { format: 'pe', machine: 'x64' };
  }
}

/** A guess from the file name, for archmap files the manifest does not know. */
export function expectedFromName(name: string): { format: BootFileFormat; machine: string | null } | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.efi')) return { format: 'pe', machine: /arm64|aa64/.test(lower) ? 'arm64' : /ia32|i386/.test(lower) ? 'ia32' : null };
  if (/\.(kpxe|kkpxe|pxe|0|com)$/.test(lower)) return { format: 'pxe', machine: null };
  return null;
}
