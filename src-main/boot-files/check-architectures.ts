import type { CheckArchitectureId } from './boot-files-contract.js';

/*
 * The architectures the boot-loader check ranks its problems by: the client
 * types of DHCP option 93 (RFC 4578 §2.1, IANA "Processor Architecture
 * Types"), PXE and HTTP boot of one processor counted as one. A problem of an
 * architecture no machine was seen with is reported lower than one of an
 * architecture that boots here (docs/boot-files.md, "The boot loader check").
 */

export interface CheckArchitectureInfo {
  id: CheckArchitectureId;
  name: string;
  /** Option 93 codes of this architecture (PXE, then HTTP boot). */
  codes: readonly number[];
}

export const CHECK_ARCHITECTURES: readonly CheckArchitectureInfo[] = [
  { id: 'bios', name: 'x86 BIOS', codes: [0x00, 0x14] },
  { id: 'uefi_x64', name: 'x64 UEFI', codes: [0x07, 0x09, 0x10] },
  { id: 'uefi_arm64', name: 'ARM64 UEFI', codes: [0x0b, 0x13] },
  { id: 'uefi_ia32', name: 'x86 UEFI (IA32)', codes: [0x06, 0x0f] },
  { id: 'uefi_arm32', name: 'ARM 32-bit UEFI', codes: [0x0a, 0x12] },
  { id: 'uefi_riscv32', name: 'RISC-V 32-bit UEFI', codes: [0x19, 0x1a] },
  { id: 'uefi_riscv64', name: 'RISC-V 64-bit UEFI', codes: [0x1b, 0x1c] },
  { id: 'uefi_loong64', name: 'LoongArch 64-bit UEFI', codes: [0x27, 0x28] },
  { id: 'other', name: 'Other client types', codes: [] },
];

const BY_CODE = new Map(CHECK_ARCHITECTURES.flatMap((arch) => arch.codes.map((code) => [code, arch.id] as const)));

/** The check architecture of an option 93 code; codes outside the table (an operator's own archmap entry) are `other`. */
export function architectureOfCode(code: number): CheckArchitectureId {
  return BY_CODE.get(code) ?? 'other';
}

/**
 * The check architecture of a host as a boot reported it: iPXE's
 * `${buildarch}`/`${platform}` or GRUB's `$grub_cpu` (platform efi). An
 * x86 machine without a platform could be BIOS or UEFI: unknown (null).
 */
export function architectureOfMachine(arch: string | null, platform: string | null): CheckArchitectureId | null {
  if (arch === null) return null;
  const efi = platform === 'efi';
  switch (arch) {
    case 'x86_64':
      return platform === 'pcbios' ? 'bios' : efi ? 'uefi_x64' : null;
    case 'i386':
      return platform === 'pcbios' ? 'bios' : efi ? 'uefi_ia32' : null;
    case 'arm64':
      return 'uefi_arm64';
    case 'arm32':
      return 'uefi_arm32';
    case 'riscv32':
      return 'uefi_riscv32';
    case 'riscv64':
      return 'uefi_riscv64';
    case 'loong64':
      return 'uefi_loong64';
    default:
      return null;
  }
}

/** A machine seen by DHCP (a lease, an event) with its option 93 code. */
export interface CodeSighting {
  mac: string;
  code: number;
}

/** What Bootwright knows of a host for the check: what it reported at boot and its loader settings. */
export interface HostFacts {
  mac: string;
  arch: string | null;
  platform: string | null;
  group: string | null;
  boot_loader: 'ipxe' | 'grub' | null;
}

export interface Seen {
  /** Distinct machines (MACs) seen per architecture, by each source and in all. */
  leases: number;
  events: number;
  hosts: number;
  machines: number;
}

/** Counts the distinct machines each source saw per architecture. */
export function architecturesSeen(sources: { leases: Iterable<CodeSighting>; events: Iterable<CodeSighting>; hosts: Iterable<HostFacts> }): Map<CheckArchitectureId, Seen> {
  const macs = new Map<CheckArchitectureId, { leases: Set<string>; events: Set<string>; hosts: Set<string> }>();
  const add = (architecture: CheckArchitectureId, source: 'leases' | 'events' | 'hosts', mac: string) => {
    let entry = macs.get(architecture);
    if (!entry) macs.set(architecture, (entry = { leases: new Set(), events: new Set(), hosts: new Set() }));
    entry[source].add(mac.toLowerCase());
  };
  for (const lease of sources.leases) add(architectureOfCode(lease.code), 'leases', lease.mac);
  for (const event of sources.events) add(architectureOfCode(event.code), 'events', event.mac);
  for (const host of sources.hosts) {
    const architecture = architectureOfMachine(host.arch, host.platform);
    if (architecture) add(architecture, 'hosts', host.mac);
  }
  const seen = new Map<CheckArchitectureId, Seen>();
  for (const [architecture, entry] of macs) {
    const all = new Set([...entry.leases, ...entry.events, ...entry.hosts]);
    seen.set(architecture, { leases: entry.leases.size, events: entry.events.size, hosts: entry.hosts.size, machines: all.size });
  }
  return seen;
}

/** The option 93 code an event about a DHCP client carries (`detail.arch`, dhcp-observer.ts), or null. */
export function sightingOfEvent(event: { kind: string; mac: string | null; detail?: unknown }): CodeSighting | null {
  if (!event.kind.startsWith('dhcp.') || event.mac === null) return null;
  const detail = event.detail;
  if (typeof detail !== 'object' || detail === null || !('arch' in detail)) return null;
  const code = (detail as { arch: unknown }).arch;
  return typeof code === 'number' && Number.isInteger(code) ? { mac: event.mac, code } : null;
}
