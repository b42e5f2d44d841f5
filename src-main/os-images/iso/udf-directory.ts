import { TreeError, type TreeNodeType } from '../../core/read-only-tree.js';
import { usableName } from './directory-record.js';
import type { DirectoryExtent, IsoEntry } from './iso-directory.js';
import { corrupt, slice, u16le, u32le, u8, ucs2be } from './iso-fields.js';
import { MAX_DIRECTORY_BYTES, MAX_DIRECTORY_ENTRIES, MAX_FILE_EXTENTS, MAX_RR_TARGET, SECTOR_BYTES } from './iso-limits.js';
import { checkTag, longAdOffset, TAG, type UdfVolume } from './udf-volume.js';

/*
 * UDF files and directories (ECMA-167 part 4): a File Entry (4/14.9) or
 * Extended File Entry (4/14.17) says a file's type, permissions, size,
 * modification time and where its bytes are (short/long allocation
 * descriptors 4/14.14, or embedded in the entry itself); a directory's bytes
 * are File Identifier Descriptors (4/14.4), one per entry, naming the entry's
 * ICB. Names are OSTA CS0 d-strings (UDF 2.1.1: 8-bit or UCS-2 BE).
 * Allocation extent continuations and unrecorded (sparse) extents are not
 * read: such a file is listed but answers UNSUPPORTED.
 */

const FILE_TYPES: Record<number, TreeNodeType> = { 4: 'directory', 5: 'file', 12: 'symlink' };
const AD_SHORT = 0;
const AD_LONG = 1;
const AD_EMBEDDED = 3;
const FID_DIRECTORY = 0x02;
const FID_DELETED = 0x04;
const FID_PARENT = 0x08;

interface UdfFile {
  type: TreeNodeType | null;
  size: number;
  mtimeMs: number | null;
  mode: number;
  extents: DirectoryExtent[];
  unreadable?: string;
}

/** ECMA-167 1/7.3 timestamp: type and time zone, year, month, day, hour, minute, second, centiseconds. */
function timestamp(buf: Buffer, at: number): number | null {
  const typeAndZone = u16le(buf, at, 'timestamp');
  const year = u16le(buf, at + 2, 'timestamp year');
  const [month, day, hour, minute, second, centis] = [4, 5, 6, 7, 8, 9].map((offset) => u8(buf, at + offset, 'timestamp')) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  let zone = typeAndZone & 0x0fff;
  if (zone & 0x0800) zone -= 0x1000;
  const offsetMinutes = typeAndZone >> 12 === 1 && zone !== -2047 ? zone : 0;
  return Date.UTC(year, month - 1, day, hour, minute, second, centis * 10) - offsetMinutes * 60_000;
}

/** ECMA-167 4/14.9.5 permissions (5 bits each for other, group, owner: execute, write, read, …) as POSIX bits. */
function posixMode(permissions: number): number {
  let mode = 0;
  for (const [shift, posixShift] of [[10, 6], [5, 3], [0, 0]] as const) {
    const bits = (permissions >> shift) & 0x1f;
    mode |= ((bits & 0x04 ? 4 : 0) | (bits & 0x02 ? 2 : 0) | (bits & 0x01 ? 1 : 0)) << posixShift;
  }
  return mode;
}

/** A d-string / file identifier in OSTA CS0 (UDF 2.1.1): compression id 8 (one byte per character) or 16 (UCS-2 BE). */
export function cs0(bytes: Buffer): string | null {
  if (bytes.length === 0) return '';
  const id = bytes.readUInt8(0);
  if (id === 8) return bytes.toString('latin1', 1);
  if (id === 16) return ucs2be(bytes.subarray(1));
  return null;
}

async function readEntry(volume: UdfVolume, offset: number, treePath: string): Promise<UdfFile> {
  const entry = await volume.source.read(offset, SECTOR_BYTES, 'UDF file entry', treePath);
  const tag = checkTag(entry, [TAG.fileEntry, TAG.extendedFileEntry], null, `${treePath || '/'}: UDF file entry`);
  const extended = tag === TAG.extendedFileEntry;
  const fileType = u8(entry, 27, 'ICB file type');
  const flags = u16le(entry, 34, 'ICB flags');
  const sizeLow = u32le(entry, 56, 'information length');
  const sizeHigh = u32le(entry, 60, 'information length');
  const size = sizeHigh * 2 ** 32 + sizeLow;
  if (!Number.isSafeInteger(size)) throw corrupt(`${treePath}: UDF file size out of range`, treePath);
  const eaLength = u32le(entry, extended ? 208 : 168, 'extended attributes length');
  const adLength = u32le(entry, extended ? 212 : 172, 'allocation descriptors length');
  const adStart = (extended ? 216 : 176) + eaLength;
  if (adStart + adLength > entry.length) throw corrupt(`${treePath}: UDF allocation descriptors run past the file entry`, treePath);
  const file: UdfFile = {
    type: FILE_TYPES[fileType] ?? null,
    size,
    mtimeMs: timestamp(entry, extended ? 92 : 84),
    mode: posixMode(u32le(entry, 44, 'permissions')),
    extents: [],
  };
  const adType = flags & 0x07;
  if (adType === AD_EMBEDDED) {
    if (size > adLength) throw corrupt(`${treePath}: embedded UDF data shorter than the file`, treePath);
    if (size > 0) file.extents.push({ offset: offset + adStart, length: size });
    return file;
  }
  if (adType !== AD_SHORT && adType !== AD_LONG) {
    file.unreadable = `UDF allocation descriptors of type ${adType} are not supported`;
    return file;
  }
  const adSize = adType === AD_SHORT ? 8 : 16;
  let remaining = size;
  for (let at = adStart; at + adSize <= adStart + adLength && remaining > 0; at += adSize) {
    const lengthField = u32le(entry, at, 'allocation descriptor');
    const length = lengthField & 0x3fffffff;
    const extentType = lengthField >>> 30;
    if (length === 0) break;
    if (extentType !== 0) {
      file.unreadable = extentType === 3 ? 'UDF allocation extent continuations are not supported' : 'the UDF file has unrecorded (sparse) extents, which are not supported';
      return file;
    }
    const start =
      adType === AD_SHORT
        ? (volume.partitionStarts[0] ?? 0) + u32le(entry, at + 4, 'short_ad position')
        : longAdOffset(volume, entry, at, 'long_ad') / volume.blockSize;
    const used = Math.min(length, remaining);
    file.extents.push({ offset: start * volume.blockSize, length: used });
    remaining -= used;
    if (file.extents.length > MAX_FILE_EXTENTS) throw corrupt(`${treePath}: a UDF file with more than ${MAX_FILE_EXTENTS} extents`, treePath);
  }
  if (remaining > 0) throw corrupt(`${treePath}: UDF allocation descriptors cover less than the file's ${size} bytes`, treePath);
  return file;
}

async function readData(volume: UdfVolume, file: UdfFile, limit: number, treePath: string): Promise<Buffer> {
  if (file.unreadable) throw new TreeError('UNSUPPORTED', treePath, `${treePath || '/'}: ${file.unreadable}`);
  if (file.size > limit) throw new TreeError('UNSUPPORTED', treePath, `${treePath || '/'}: ${file.size} bytes is more than the ${limit}-byte limit`);
  const parts: Buffer[] = [];
  for (const extent of file.extents) parts.push(await volume.source.read(extent.offset, extent.length, 'UDF data', treePath));
  return Buffer.concat(parts);
}

/** ECMA-167 4/14.16 path components as a symlink target. */
function symlinkTarget(data: Buffer): string {
  const parts: string[] = [];
  let absolute = false;
  let at = 0;
  while (at + 4 <= data.length) {
    const type = data.readUInt8(at);
    const length = data.readUInt8(at + 1);
    if (at + 4 + length > data.length) break;
    const name = cs0(data.subarray(at + 4, at + 4 + length)) ?? '';
    at += 4 + length;
    if (type === 1 || type === 2) {
      absolute = true;
      parts.length = 0;
    } else if (type === 3) parts.push('..');
    else if (type === 4) parts.push('.');
    else if (type === 5) parts.push(name);
  }
  return ((absolute ? '/' : '') + parts.join('/')).slice(0, MAX_RR_TARGET);
}

/** The File Entry at `offset` as the root directory's extent key. */
export function udfRootExtent(volume: UdfVolume): DirectoryExtent {
  return { offset: volume.rootEntryOffset, length: 0 };
}

/** The entries of the UDF directory whose File Entry is at `directory.offset`. */
export async function readUdfDirectory(volume: UdfVolume, directory: DirectoryExtent, dirPath: string, fallbackMtimeMs: number): Promise<IsoEntry[]> {
  const self = await readEntry(volume, directory.offset, dirPath);
  if (self.type !== 'directory') throw corrupt(`${dirPath || '/'}: the UDF entry is not a directory`, dirPath);
  const data = await readData(volume, self, MAX_DIRECTORY_BYTES, dirPath);
  const entries: IsoEntry[] = [];
  let at = 0;
  while (at + 38 <= data.length) {
    checkTag(data.subarray(at), [TAG.fileIdentifier], null, `${dirPath || '/'}: UDF file identifier`);
    const characteristics = u8(data, at + 18, 'file characteristics');
    const nameLength = u8(data, at + 19, 'file identifier length');
    const implementationLength = u16le(data, at + 36, 'implementation use length');
    const recordLength = Math.ceil((38 + implementationLength + nameLength) / 4) * 4;
    const name = cs0(slice(data, at + 38 + implementationLength, nameLength, 'file identifier'));
    const icbOffset = longAdOffset(volume, data, at + 20, 'file ICB');
    at += recordLength;
    if (characteristics & (FID_PARENT | FID_DELETED)) continue;
    if (name === null || !usableName(name)) continue;
    const entryPath = dirPath ? `${dirPath}/${name}` : name;
    const file = await readEntry(volume, icbOffset, entryPath);
    const type = characteristics & FID_DIRECTORY ? 'directory' : file.type;
    if (!type) continue; // devices, FIFOs, sockets…
    const entry: IsoEntry = {
      name,
      type,
      size: type === 'file' ? file.size : 0,
      mtimeMs: file.mtimeMs ?? fallbackMtimeMs,
      mode: file.mode,
      id: BigInt(icbOffset),
      extents: type === 'file' ? file.extents : [],
    };
    if (file.unreadable) entry.unreadable = file.unreadable;
    if (type === 'directory') entry.directory = { offset: icbOffset, length: 0 };
    if (type === 'symlink') entry.target = symlinkTarget(await readData(volume, file, MAX_RR_TARGET, entryPath));
    entries.push(entry);
    if (entries.length > MAX_DIRECTORY_ENTRIES) throw new TreeError('UNSUPPORTED', dirPath, `${dirPath || '/'}: more than ${MAX_DIRECTORY_ENTRIES} entries`);
  }
  return entries;
}
