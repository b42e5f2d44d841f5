import { AppError, type FieldError } from '../core/errors.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import { defaultArchmap, type ArchmapEntry } from './archmap-defaults.js';
import { MAX_BOOT_PATH } from './dhcp-contract.js';
import type { BootLoaderPolicy, LoaderArchitecture, LoaderChoice } from './boot-loader-chains.js';

export type { ArchmapEntry } from './archmap-defaults.js';

interface StoredArchmap {
  /** null until the operator saves a map: the defaults apply (and follow later versions' defaults). */
  entries: ArchmapEntry[] | null;
}

export { MAX_BOOT_PATH } from './dhcp-contract.js';

/**
 * The architecture map (option 93 code → boot files), editable through
 * `/services/archmap`. The DHCP server reads it per PXE client; the boot
 * loader check reads `entries()`.
 */
export class Archmap {
  private readonly section: Section<StoredArchmap>;
  private readonly listeners = new Set<() => void>();
  private byCode = new Map<number, ArchmapEntry>();
  private loaderPolicy: BootLoaderPolicy | null = null;

  constructor(store: Store) {
    this.section = store.section<StoredArchmap>('dhcp_archmap', { entries: null });
    this.index();
  }

  /** The current map, in code order. */
  entries(): ArchmapEntry[] {
    return [...this.byCode.values()].map(copyEntry);
  }

  defaults(): ArchmapEntry[] {
    return defaultArchmap();
  }

  /** The entry for an option 93 code, or undefined (read per packet: no copy). */
  lookup(code: number): Readonly<ArchmapEntry> | undefined {
    return this.byCode.get(code);
  }

  /** Replaces the whole map after validating it (400 naming the field; nothing changes on error). */
  async replace(entries: readonly ArchmapEntry[], field = 'body.entries'): Promise<ArchmapEntry[]> {
    const errors = validateArchmap(entries, field);
    if (errors.length > 0) {
      const [first] = errors;
      throw new AppError('VALIDATION_FAILED', `${first!.field}: ${first!.message}`, { details: errors });
    }
    const sorted = entries.map(copyEntry).sort((a, b) => a.code - b.code);
    await this.section.set({ entries: sorted });
    this.index();
    for (const listener of this.listeners) listener();
    return this.entries();
  }

  /**
   * Lets the boot scripts area choose per machine between the map's file
   * (iPXE) and the signed GRUB chain (boot-loader-chains.ts); null: the map only.
   */
  setLoaderPolicy(policy: BootLoaderPolicy | null): void {
    this.loaderPolicy = policy;
  }

  /** The loader a UEFI PXE client of `architecture` gets; iPXE (the map's file) without a policy. */
  loaderFor(mac: string, architecture: LoaderArchitecture): LoaderChoice {
    return this.loaderPolicy?.choose(mac, architecture) ?? { loader: 'ipxe', source: 'architecture' };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private index(): void {
    const stored = this.section.get().entries ?? defaultArchmap();
    this.byCode = new Map([...stored].sort((a, b) => a.code - b.code).map((entry) => [entry.code, copyEntry(entry)]));
  }
}

function copyEntry(entry: ArchmapEntry): ArchmapEntry {
  return {
    code: entry.code,
    name: entry.name,
    boot_file: entry.boot_file,
    http_boot_url_path: entry.http_boot_url_path,
    alternatives: [...entry.alternatives],
  };
}

/** Field errors of a map: unique codes, safe relative paths that fit the packet. */
export function validateArchmap(entries: readonly ArchmapEntry[], field: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  entries.forEach((entry, index) => {
    const at = `${field}[${index}]`;
    if (seen.has(entry.code)) errors.push({ field: `${at}.code`, message: `code ${entry.code} appears twice` });
    seen.add(entry.code);
    for (const [key, value] of [['boot_file', entry.boot_file], ['http_boot_url_path', entry.http_boot_url_path]] as const) {
      if (value === null) continue;
      const problem = bootPathProblem(value);
      if (problem) errors.push({ field: `${at}.${key}`, message: problem });
    }
    entry.alternatives.forEach((alt, i) => {
      const problem = bootPathProblem(alt);
      if (problem) errors.push({ field: `${at}.alternatives[${i}]`, message: problem });
    });
  });
  return errors;
}

/**
 * Why `value` is no acceptable boot file path, or null. Paths are relative
 * to the boot root, use forward slashes and printable ASCII (TFTP file names
 * are NVT ASCII, RFC 1350), and never climb out with `..`.
 */
export function bootPathProblem(value: string): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_BOOT_PATH) return `must be at most ${MAX_BOOT_PATH} characters (the BOOTP file field)`;
  if (!/^[\x21-\x7e]+$/.test(value)) return 'must be printable ASCII without spaces';
  if (value.startsWith('/')) return 'must be relative to the boot root (no leading /)';
  if (value.includes('\\')) return 'must use forward slashes';
  if (value.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'must not contain empty, "." or ".." segments';
  }
  return null;
}
