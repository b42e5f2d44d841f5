import { corrupt, slice, u16le, u32le, u8 } from './iso-fields.js';
import { SECTOR_BYTES } from './iso-limits.js';
import type { IsoSource } from './iso-source.js';

/*
 * UDF (ECMA-167 3rd edition, OSTA UDF 1.02-2.01) volume structures: the
 * Anchor Volume Descriptor Pointer at sector 256 (ECMA-167 3/10.2), the
 * Volume Descriptor Sequence it names (Partition Descriptors 3/10.5, the
 * Logical Volume Descriptor 3/10.6 with its type 1 partition maps 3/10.7.2),
 * and the File Set Descriptor (4/14.1) naming the root directory's ICB.
 * Every descriptor starts with a 16-byte tag (3/7.2) whose checksum and
 * location are checked. Type 2 partition maps (UDF 2.50 metadata, virtual,
 * sparable partitions) are not read.
 */

export const TAG = {
  anchor: 2,
  partition: 5,
  logicalVolume: 6,
  terminating: 8,
  fileSet: 256,
  fileIdentifier: 257,
  allocationExtent: 258,
  fileEntry: 261,
  extendedFileEntry: 266,
} as const;

const ANCHOR_SECTOR = 256;
const MAX_VDS_SECTORS = 64;

/** ECMA-167 3/7.2: the tag's identifier after checking its checksum (and its location when `sector` is given). */
export function checkTag(buf: Buffer, expected: readonly number[], sector: number | null, what: string): number {
  const header = slice(buf, 0, 16, `${what} tag`);
  let sum = 0;
  for (let at = 0; at < 16; at += 1) if (at !== 4) sum = (sum + header.readUInt8(at)) & 0xff;
  if (sum !== header.readUInt8(4)) throw corrupt(`${what}: tag checksum mismatch`);
  const id = header.readUInt16LE(0);
  if (!expected.includes(id)) throw corrupt(`${what}: tag ${id} where ${expected.join('/')} was expected`);
  if (sector !== null && header.readUInt32LE(12) !== sector) throw corrupt(`${what}: tag location ${header.readUInt32LE(12)} is not its sector ${sector}`);
  return id;
}

export interface UdfVolume {
  source: IsoSource;
  blockSize: number;
  /** Partition start sectors by partition reference number (the LVD's map order). */
  partitionStarts: number[];
  /** The root directory's File Entry: absolute byte position. */
  rootEntryOffset: number;
}

/** A long_ad (ECMA-167 4/14.14.2) as an absolute byte offset. */
export function longAdOffset(volume: Pick<UdfVolume, 'blockSize' | 'partitionStarts'>, buf: Buffer, at: number, what: string): number {
  const block = u32le(buf, at + 4, `${what} block`);
  const reference = u16le(buf, at + 8, `${what} partition`);
  const start = volume.partitionStarts[reference];
  if (start === undefined) throw corrupt(`${what}: partition reference ${reference} is not mapped`);
  return (start + block) * volume.blockSize;
}

/** Reads the UDF volume's structures up to the root directory; TreeError CORRUPT/UNSUPPORTED when they cannot be used. */
export async function readUdfVolume(source: IsoSource): Promise<UdfVolume> {
  const anchor = await source.read(ANCHOR_SECTOR * SECTOR_BYTES, SECTOR_BYTES, 'UDF anchor');
  checkTag(anchor, [TAG.anchor], ANCHOR_SECTOR, 'UDF anchor volume descriptor pointer');
  const vdsLength = u32le(anchor, 16, 'main VDS length');
  const vdsStart = u32le(anchor, 20, 'main VDS location');
  const partitions = new Map<number, number>();
  let logicalVolume: Buffer | null = null;
  const sectors = Math.min(MAX_VDS_SECTORS, Math.ceil(vdsLength / SECTOR_BYTES));
  for (let index = 0; index < sectors; index += 1) {
    const sector = vdsStart + index;
    const descriptor = await source.read(sector * SECTOR_BYTES, SECTOR_BYTES, 'UDF volume descriptor');
    const id = u16le(descriptor, 0, 'descriptor tag');
    if (id === TAG.terminating || id === 0) break;
    if (id !== TAG.partition && id !== TAG.logicalVolume) continue;
    checkTag(descriptor, [id], sector, 'UDF volume descriptor');
    if (id === TAG.partition) {
      const number = u16le(descriptor, 22, 'partition number');
      if (!partitions.has(number)) partitions.set(number, u32le(descriptor, 188, 'partition start'));
    } else {
      logicalVolume ??= descriptor;
    }
  }
  if (!logicalVolume) throw corrupt('UDF: no logical volume descriptor');
  const blockSize = u32le(logicalVolume, 212, 'logical block size');
  if (blockSize !== SECTOR_BYTES) throw corrupt(`UDF: logical block size ${blockSize} (2048 expected)`);
  const mapCount = u32le(logicalVolume, 268, 'partition map count');
  const partitionStarts: number[] = [];
  let at = 440;
  for (let index = 0; index < Math.min(mapCount, 8); index += 1) {
    const type = u8(logicalVolume, at, 'partition map type');
    const length = u8(logicalVolume, at + 1, 'partition map length');
    if (type !== 1 || length !== 6) {
      throw corrupt(`UDF: partition map ${index} is of type ${type} (only type 1 maps are read; UDF 2.50 metadata partitions are not supported)`);
    }
    const start = partitions.get(u16le(logicalVolume, at + 4, 'partition map number'));
    if (start === undefined) throw corrupt(`UDF: partition map ${index} names a partition without a descriptor`);
    partitionStarts.push(start);
    at += length;
  }
  const volume = { source, blockSize, partitionStarts };
  const fileSetOffset = longAdOffset(volume, logicalVolume, 248, 'file set descriptor');
  const fileSet = await source.read(fileSetOffset, SECTOR_BYTES, 'UDF file set descriptor');
  checkTag(fileSet, [TAG.fileSet], null, 'UDF file set descriptor');
  return { ...volume, rootEntryOffset: longAdOffset(volume, fileSet, 400, 'root directory ICB') };
}
