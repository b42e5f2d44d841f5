import { decodeDirectoryRecord, type DirectoryRecord } from './directory-record.js';
import { corrupt, decDateTime, slice, textField, u16le, u32le, u8, ucs2be } from './iso-fields.js';
import { DESCRIPTOR_START_SECTOR, MAX_DESCRIPTORS, SECTOR_BYTES } from './iso-limits.js';
import type { IsoSource } from './iso-source.js';

/*
 * The volume descriptor set (ECMA-119 §8) from logical sector 16, and the
 * ECMA-167 Volume Recognition Sequence (2/8.3) that UDF images record among
 * or after it. Each descriptor is 2048 bytes: type (1), standard identifier
 * "CD001" (5), version (1), then type-specific fields.
 */

export const DESCRIPTOR_TYPES = { bootRecord: 0, primary: 1, supplementary: 2, partition: 3, terminator: 255 } as const;
const ISO_IDENTIFIER = 'CD001';
/** ECMA-167 2/9.1-9.3: the extended area's start and end, and the NSR descriptor naming UDF (ECMA-167 3rd edition: NSR03). */
const VRS_IDENTIFIERS = new Set(['BEA01', 'TEA01', 'NSR02', 'NSR03', 'BOOT2', 'CDW02']);
/** Joliet escape sequences for UCS-2 levels 1-3 (Joliet specification, §4). */
const JOLIET_ESCAPES = ['%/@', '%/C', '%/E'];
/** El Torito 1.0 §2.0: the boot system identifier of a boot record. */
const EL_TORITO_ID = 'EL TORITO SPECIFICATION';

export interface VolumeDescriptor {
  /** Where it was found (absolute byte), for messages. */
  position: number;
  volumeId: string;
  publisher: string;
  application: string;
  createdAt: number | null;
  /** Volume space size (§8.4.8) in logical blocks. */
  volumeBlocks: number;
  /** Logical block size (§8.4.12): 2048 in practice, 512..2048 allowed. */
  blockSize: number;
  root: DirectoryRecord;
  /** Absolute byte position of the root directory record (inside the descriptor). */
  rootPosition: number;
}

export interface DescriptorSet {
  primary: VolumeDescriptor;
  /** The Joliet supplementary descriptor, when one is recorded. */
  joliet: VolumeDescriptor | null;
  /** The El Torito boot catalog's sector (El Torito 1.0 §2.0, absolute, 2048-byte sectors), null without a boot record. */
  bootCatalogSector: number | null;
  /** ECMA-167 NSR02/NSR03 found: the image is a UDF bridge. */
  udf: boolean;
  /** What was recorded but not used, in words. */
  notes: string[];
}

/** Why a file is not an ISO image: it becomes VALIDATION_FAILED for the caller. */
export class NotAnIsoError extends Error {
  override name = 'NotAnIsoError';
}

function decodeVolume(sector: Buffer, position: number, joliet: boolean): VolumeDescriptor {
  const text = (offset: number, length: number, what: string): string =>
    joliet ? jolietText(slice(sector, offset, length, what)) : textField(sector, offset, length, what);
  const blockSize = u16le(sector, 128, 'logical block size');
  // §6.1.2 / §8.4.12: a power of two; larger than the 2048-byte sector it cannot be.
  if (blockSize < 512 || blockSize > SECTOR_BYTES || (blockSize & (blockSize - 1)) !== 0) {
    throw corrupt(`volume descriptor at byte ${position}: logical block size ${blockSize} is not 512, 1024 or 2048`);
  }
  const root = decodeDirectoryRecord(slice(sector, 156, 34, 'root directory record'), 0);
  if (!root || !root.isDirectory) throw corrupt(`volume descriptor at byte ${position}: the root directory record is not a directory`);
  return {
    position,
    volumeId: text(40, 32, 'volume identifier'),
    publisher: text(318, 128, 'publisher identifier'),
    application: text(574, 128, 'application identifier'),
    createdAt: decDateTime(sector, 813, 'volume creation date'),
    volumeBlocks: u32le(sector, 80, 'volume space size'),
    blockSize,
    root,
    rootPosition: position + 156,
  };
}

function jolietText(bytes: Buffer): string {
  // eslint-disable-next-line no-control-regex
  return ucs2be(bytes).replace(/[\u0000-\u001f]/g, ' ').trim();
}

function isJoliet(sector: Buffer): boolean {
  // §8.5.6 escape sequences (32 bytes at 88); Joliet puts its sequence first.
  const escapes = slice(sector, 88, 32, 'escape sequences').toString('latin1');
  return JOLIET_ESCAPES.some((sequence) => escapes.startsWith(sequence));
}

/**
 * Reads the descriptor set. NotAnIsoError when the file has no ISO 9660
 * volume at all (no "CD001" at sector 16, no primary descriptor, UDF only);
 * TreeError CORRUPT when a descriptor is there but impossible.
 */
export async function readDescriptorSet(source: IsoSource): Promise<DescriptorSet> {
  let primary: VolumeDescriptor | null = null;
  let joliet: VolumeDescriptor | null = null;
  let bootCatalogSector: number | null = null;
  let udf = false;
  let terminated = false;
  const notes: string[] = [];
  const first = DESCRIPTOR_START_SECTOR * SECTOR_BYTES;
  if (source.size < first + SECTOR_BYTES) throw new NotAnIsoError(`the file (${source.size} bytes) is too small for an ISO 9660 volume`);

  for (let index = 0; index < MAX_DESCRIPTORS; index += 1) {
    const position = first + index * SECTOR_BYTES;
    if (!source.contains(position, SECTOR_BYTES)) break;
    const sector = await source.read(position, SECTOR_BYTES, 'volume descriptor');
    const type = u8(sector, 0, 'descriptor type');
    const identifier = sector.toString('latin1', 1, 6);
    const version = u8(sector, 6, 'descriptor version');
    if (identifier !== ISO_IDENTIFIER) {
      if (VRS_IDENTIFIERS.has(identifier)) {
        if (identifier === 'NSR02' || identifier === 'NSR03') udf = true;
        if (identifier === 'TEA01') break;
        continue;
      }
      if (index === 0) throw new NotAnIsoError(`no ISO 9660 volume descriptor at sector ${DESCRIPTOR_START_SECTOR} (found ${JSON.stringify(identifier)})`);
      // The recognition sequence ends at the first sector that is none of its descriptors (ECMA-167 2/8.3.1).
      break;
    }
    if (terminated) continue; // ISO descriptors after the terminator: ignored (§8.3).
    switch (type) {
      case DESCRIPTOR_TYPES.primary:
        if (version !== 1) throw corrupt(`primary volume descriptor at byte ${position}: version ${version} (expected 1)`);
        // §6.7.1.1: the first primary descriptor is the one; later ones are copies.
        primary ??= decodeVolume(sector, position, false);
        break;
      case DESCRIPTOR_TYPES.supplementary:
        // Version 2 is ISO 9660:1999's enhanced descriptor (names in ASCII, not used here).
        if (version === 1 && isJoliet(sector) && !joliet) {
          try {
            joliet = decodeVolume(sector, position, true);
          } catch (err) {
            notes.push(`the Joliet volume descriptor is unusable (${err instanceof Error ? err.message : String(err)}): Joliet names are not read`);
          }
        } else if (version === 2) {
          notes.push('an ISO 9660:1999 enhanced volume descriptor is recorded but not read');
        }
        break;
      case DESCRIPTOR_TYPES.bootRecord:
        if (textField(sector, 7, 32, 'boot system identifier') === EL_TORITO_ID && bootCatalogSector === null) {
          bootCatalogSector = u32le(sector, 71, 'boot catalog pointer');
        }
        break;
      case DESCRIPTOR_TYPES.terminator:
        terminated = true;
        break;
      default:
        // Volume partition descriptors (type 3) and unknown types: nothing to read.
        break;
    }
  }
  if (!primary) {
    if (udf) throw new NotAnIsoError('a UDF-only image (no ISO 9660 primary volume descriptor): reading UDF is not supported');
    throw new NotAnIsoError('no primary volume descriptor');
  }
  if (!terminated) notes.push('the volume descriptor set has no terminator');
  if (joliet && joliet.blockSize !== primary.blockSize) {
    notes.push('the Joliet descriptor names a different block size: Joliet names are not read');
    joliet = null;
  }
  return { primary, joliet, bootCatalogSector, udf, notes };
}
