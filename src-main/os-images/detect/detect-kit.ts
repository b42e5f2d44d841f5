import type { BootMethod, ImageOsFamily, IsoInfo } from '../os-images-contract.js';
import { chooseEntry, type BootMenus, type MenuEntry } from './boot-menu.js';
import type { TreeLookup } from './tree-lookup.js';

/*
 * What the family recognisers share: the context they read from, the shape
 * of what they recognise, and small helpers for architectures and command
 * lines. A recogniser reads through the case-insensitive TreeLookup only.
 */

export interface DetectContext {
  lookup: TreeLookup;
  info: IsoInfo;
  /** The image's file name (a hint for names and versions the medium does not record). */
  fileName: string;
  menus: BootMenus;
  /** The architecture the EFI loaders name (Debian style), '' when none does. */
  efiArch: string;
  /** Bytes of the whole image (what a loader that fetches the ISO into RAM must hold). */
  imageBytes: number;
}

export interface Recognised {
  family: ImageOsFamily;
  distro: string;
  version: string;
  arch: string;
  boot_method: BootMethod;
  kernel: string | null;
  initrds: string[];
  netboot_cmdline: string;
  boot_wim: string | null;
  evidence: string[];
  notes: string[];
  /** The netboot catalog's own names for this OS (its distro id and version label), or null when the catalog has no such distro. */
  catalog: { distro: string; version: string } | null;
  /** The ISO's own command line; when absent it is taken from the menu entry that boots `kernel`. */
  iso_cmdline?: string;
}

export type Recogniser = (context: DetectContext) => Promise<Recognised | null>;

/** Architecture names as distros and firmware spell them, to Debian's (the contract's) spelling. */
const ARCH_ALIASES: Record<string, string> = {
  amd64: 'amd64',
  x86_64: 'amd64',
  x64: 'amd64',
  'x86-64': 'amd64',
  arm64: 'arm64',
  aarch64: 'arm64',
  a64: 'arm64',
  aa64: 'arm64',
  i386: 'i386',
  i486: 'i386',
  i586: 'i386',
  i686: 'i386',
  x86: 'i386',
  ia32: 'i386',
  '386': 'i386',
  armhf: 'armhf',
  armv7: 'armhf',
  armv7hl: 'armhf',
  ppc64le: 'ppc64el',
  ppc64el: 'ppc64el',
  s390x: 's390x',
  riscv64: 'riscv64',
  loongarch64: 'loong64',
  loong64: 'loong64',
};

/** Debian's name for an architecture word, or '' when the word is none. */
export function debianArch(word: string): string {
  return ARCH_ALIASES[word.trim().toLowerCase()] ?? '';
}

/** The netboot catalog spells the two architectures it knows as iPXE's ${buildarch}. */
export function catalogArch(arch: string): string {
  if (arch === 'amd64') return 'x86_64';
  return arch;
}

/** The architecture a UEFI removable-media loader's name stands for (UEFI 2.x §3.5.1.1), '' for other names. */
export function efiLoaderArch(fileName: string): string {
  const match = /^boot(x64|aa64|ia32|arm|riscv64|loongarch64)\.efi$/i.exec(fileName);
  if (!match) return '';
  const map: Record<string, string> = { x64: 'amd64', aa64: 'arm64', ia32: 'i386', arm: 'armhf', riscv64: 'riscv64', loongarch64: 'loong64' };
  return map[(match[1] ?? '').toLowerCase()] ?? '';
}

/** The first architecture word in a text ("… Official amd64 NETINST …"). */
export function archInText(text: string): string {
  for (const word of text.split(/[\s_()/,-]+/)) {
    const arch = debianArch(word);
    if (arch !== '') return arch;
  }
  return '';
}

/** A command line's words without those `drop` matches (a regexp on the whole word). */
export function withoutArgs(args: string, drop: RegExp): string {
  return args
    .split(/\s+/)
    .filter((word) => word !== '' && !drop.test(word))
    .join(' ');
}

/** Joins command-line parts, leaving out empty ones. */
export function joinArgs(...parts: string[]): string {
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');
}

/** A size for notes: "1.4 GiB", "620 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  return `${Math.max(1, Math.round(bytes / 1024 ** 2))} MiB`;
}

/** The menu entry that boots `kernel` (the ISO's default when several do), or the menu's choice. */
export function entryFor(context: DetectContext, kernel: string | null): MenuEntry | null {
  return chooseEntry(context.menus.entries, kernel);
}

/** The first line of a text, trimmed and cut to `max` characters (for .disk/info-style one-liners). */
export function firstLine(text: string, max = 256): string {
  return (text.split(/\r?\n/)[0] ?? '').trim().slice(0, max);
}

/** Major version ("12.5.0" → "12"). */
export function majorOf(version: string): string {
  return /^\d+/.exec(version)?.[0] ?? '';
}

/** Major.minor ("24.04.1" → "24.04", "3.20.0" → "3.20"). */
export function majorMinorOf(version: string): string {
  return /^\d+(\.\d+)?/.exec(version)?.[0] ?? '';
}

/** A recognised result with the defaults filled in. */
export function recognised(fields: Partial<Recognised> & Pick<Recognised, 'family' | 'distro' | 'boot_method'>): Recognised {
  return {
    version: '',
    arch: '',
    kernel: null,
    initrds: [],
    netboot_cmdline: '',
    boot_wim: null,
    evidence: [],
    notes: [],
    catalog: null,
    ...fields,
  };
}
