import type { IsoInfo } from '../os-images-contract.js';
import { MAX_BOOT_ENTRIES, MAX_CATALOG_SECTORS, SECTOR_BYTES } from './iso-limits.js';
import type { IsoSource } from './iso-source.js';

/*
 * The El Torito boot catalog (El Torito 1.0, 1995): 32-byte entries from
 * the sector the boot record names (§2.0). First the validation entry (§2.1:
 * header 0x01, platform, checksum making the 16-bit little-endian words sum
 * to zero, key bytes 0x55 0xAA), then the initial/default entry (§2.2), then
 * section headers (§2.3: 0x90, or 0x91 for the last) each followed by its
 * section entries (§2.4) and their extension entries (§3.0: 0x44).
 */

export type BootEntry = IsoInfo['el_torito'][number];

/** §2.1 platform ids; 0xEF is UEFI (UEFI 2.x §13.3.2.1). */
function platformName(id: number): BootEntry['platform'] {
  if (id === 0x00) return 'bios';
  if (id === 0xef) return 'uefi';
  return 'other';
}

/** §2.2 boot media types (low nibble). */
const EMULATIONS = ['no_emulation', 'floppy_1.2', 'floppy_1.44', 'floppy_2.88', 'hard_disk'];

const ENTRY_BYTES = 32;
const HEADER_MORE = 0x90;
const HEADER_LAST = 0x91;
const EXTENSION = 0x44;
const EXTENSION_FOLLOWS = 0x20;

function bootEntry(entry: Buffer, platform: number): BootEntry {
  const media = entry.readUInt8(1) & 0x0f;
  return {
    platform: platformName(platform),
    bootable: entry.readUInt8(0) === 0x88,
    emulation: EMULATIONS[media] ?? `unknown_${media}`,
    load_rba: entry.readUInt32LE(8),
    sector_count: entry.readUInt16LE(6),
  };
}

function validationProblem(entry: Buffer): string | null {
  if (entry.readUInt8(0) !== 0x01) return `the validation entry's header is 0x${entry.readUInt8(0).toString(16)} (0x01 expected)`;
  if (entry.readUInt8(30) !== 0x55 || entry.readUInt8(31) !== 0xaa) return 'the validation entry has no 0x55 0xAA key bytes';
  let sum = 0;
  for (let at = 0; at < ENTRY_BYTES; at += 2) sum = (sum + entry.readUInt16LE(at)) & 0xffff;
  if (sum !== 0) return 'the validation entry checksum does not add up';
  return null;
}

export interface BootCatalog {
  entries: BootEntry[];
  /** Why (part of) the catalog was not read, for the image's limitations. */
  problems: string[];
}

/** Reads the catalog at `sector`; never throws for what it finds (a bad catalog is a limitation, the files stay readable). */
export async function readBootCatalog(source: IsoSource, sector: number): Promise<BootCatalog> {
  const offset = sector * SECTOR_BYTES;
  const available = Math.min(MAX_CATALOG_SECTORS * SECTOR_BYTES, source.size - offset);
  if (!source.contains(offset, ENTRY_BYTES * 2) || available < ENTRY_BYTES * 2) {
    return { entries: [], problems: [`the El Torito boot catalog (sector ${sector}) lies outside the file`] };
  }
  const catalog = await source.read(offset, available - (available % ENTRY_BYTES), 'El Torito boot catalog');
  const entryAt = (index: number): Buffer => catalog.subarray(index * ENTRY_BYTES, (index + 1) * ENTRY_BYTES);
  const invalid = validationProblem(entryAt(0));
  if (invalid) return { entries: [], problems: [`El Torito boot catalog not read: ${invalid}`] };
  const entries = [bootEntry(entryAt(1), entryAt(0).readUInt8(1))];
  const problems: string[] = [];
  const total = catalog.length / ENTRY_BYTES;
  let index = 2;
  while (index < total && entries.length < MAX_BOOT_ENTRIES) {
    const header = entryAt(index);
    const indicator = header.readUInt8(0);
    if (indicator !== HEADER_MORE && indicator !== HEADER_LAST) break; // the catalog's end (zeros)
    const platform = header.readUInt8(1);
    const count = header.readUInt16LE(2);
    index += 1;
    for (let n = 0; n < count && index < total && entries.length < MAX_BOOT_ENTRIES; n += 1) {
      const entry = entryAt(index);
      index += 1;
      entries.push(bootEntry(entry, platform));
      // §3.0: extension entries (selection criteria) follow while bit 5 says so.
      let more = (entry.readUInt8(1) & EXTENSION_FOLLOWS) !== 0;
      while (more && index < total && entryAt(index).readUInt8(0) === EXTENSION) {
        more = (entryAt(index).readUInt8(1) & EXTENSION_FOLLOWS) !== 0;
        index += 1;
      }
    }
    if (indicator === HEADER_LAST) break;
  }
  if (entries.length >= MAX_BOOT_ENTRIES) problems.push(`El Torito boot catalog: only the first ${MAX_BOOT_ENTRIES} entries are read`);
  return { entries, problems };
}
