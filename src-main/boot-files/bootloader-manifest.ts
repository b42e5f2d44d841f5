import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The architectures boot loaders are built for (the DHCP archmap maps client types to them). */
export const BOOTLOADER_ARCHITECTURES = ['bios', 'uefi-x64', 'uefi-arm64', 'uefi-ia32'] as const;
export type BootloaderArchitecture = (typeof BOOTLOADER_ARCHITECTURES)[number];

/** File formats the checks recognise: a PXE network boot program, or a PE/COFF (UEFI) image. */
export type BootFileFormat = 'pxe' | 'pe';

/** One bundled boot loader as resources/bootloaders/manifest.json records it. */
export interface BootloaderManifestEntry {
  name: string;
  architecture: BootloaderArchitecture;
  format: BootFileFormat;
  /** Optional files (the Secure Boot chain) are not needed for a healthy install. */
  optional: boolean;
  description: string;
  source: { package: string; version: string; path: string };
  size: number;
  sha256: string;
}

export interface BootloaderManifest {
  files: BootloaderManifestEntry[];
}

export const MANIFEST_FILE = 'manifest.json';

/**
 * Reads and checks the manifest written by scripts/fetch-bootloaders.mjs. A
 * malformed entry is an error: the manifest ships with the app, so a bad
 * one is a packaging bug to catch at start, not to serve around.
 */
export async function loadManifest(dir: string): Promise<BootloaderManifest> {
  const file = path.join(dir, MANIFEST_FILE);
  const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
  return parseManifest(parsed, file);
}

export function parseManifest(parsed: unknown, where: string): BootloaderManifest {
  if (!isRecord(parsed) || !Array.isArray(parsed.files)) throw new Error(`${where}: expected an object with a "files" array`);
  const seen = new Set<string>();
  const files = parsed.files.map((entry: unknown, index: number): BootloaderManifestEntry => {
    const at = `${where}: files[${index}]`;
    if (!isRecord(entry) || !isRecord(entry.source)) throw new Error(`${at}: expected an object with a "source" object`);
    const { name, architecture, format, optional, description, size, sha256 } = entry;
    const source = entry.source;
    if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`${at}: name must be a plain file name`);
    if (seen.has(name)) throw new Error(`${at}: ${name} is listed twice`);
    seen.add(name);
    if (!(BOOTLOADER_ARCHITECTURES as readonly unknown[]).includes(architecture)) throw new Error(`${at}: unknown architecture ${String(architecture)}`);
    if (format !== 'pxe' && format !== 'pe') throw new Error(`${at}: format must be pxe or pe`);
    if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) throw new Error(`${at}: size must be a positive integer`);
    if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`${at}: sha256 must be 64 lowercase hex digits`);
    if (typeof source.package !== 'string' || typeof source.version !== 'string' || typeof source.path !== 'string') {
      throw new Error(`${at}: source needs package, version and path strings`);
    }
    return {
      name,
      architecture: architecture as BootloaderArchitecture,
      format,
      optional: optional === true,
      description: typeof description === 'string' ? description : '',
      source: { package: source.package, version: source.version, path: source.path },
      size,
      sha256,
    };
  });
  return { files };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
