import { TreeError, type TreeNodeType } from '../../core/read-only-tree.js';
import { decodeDirectoryRecord, directoryRecords, isSelfOrParent, recordName, usableName, type DirectoryRecord, type NameEncoding, type PlacedRecord } from './directory-record.js';
import { corrupt } from './iso-fields.js';
import { MAX_DIRECTORY_BYTES, MAX_DIRECTORY_ENTRIES, MAX_FILE_EXTENTS, RR_INODE_ID_BASE, SECTOR_BYTES } from './iso-limits.js';
import type { IsoSource } from './iso-source.js';
import { rockRidgeAttributes, S_IFDIR, S_IFLNK, S_IFMT, S_IFREG, type RockRidgeAttributes } from './rock-ridge.js';
import { suspEntries } from './susp.js';

/*
 * One directory of the chosen tree (ECMA-119 §6.8: the extent holds "." and
 * ".." then one record per file section) read into entries: multi-extent
 * records joined (§6.5.1: the same identifier, bit 7 on all but the last),
 * names from Rock Ridge, Joliet or ISO 9660, Rock Ridge relocation applied
 * (a CL placeholder becomes the directory it points to, an RE directory is
 * not listed where it was moved to).
 */

/** How names and attributes are read in this tree. */
export interface TreeLayout {
  source: IsoSource;
  blockSize: number;
  encoding: NameEncoding;
  /** Rock Ridge in use (SP found in the root's "." record). */
  rockRidge: boolean;
  /** SP's LEN_SKP. */
  suspSkip: number;
  /** Time for nodes that record none (the volume's creation time, else 0). */
  fallbackMtimeMs: number;
}

export interface DirectoryExtent {
  /** Absolute byte offset of the directory's extent. */
  offset: number;
  length: number;
}

export interface IsoEntry {
  name: string;
  type: TreeNodeType;
  size: number;
  mtimeMs: number;
  mode: number;
  id: bigint;
  target?: string;
  /** A file's sections in order (absolute byte offsets in the ISO). */
  extents: DirectoryExtent[];
  /** A directory's extent. */
  directory?: DirectoryExtent;
  /** Why the file's bytes cannot be read (interleaved, zisofs), or undefined. */
  unreadable?: string;
}

const DEFAULT_FILE_MODE = 0o444;
const DEFAULT_DIRECTORY_MODE = 0o555;

function dataOffset(record: DirectoryRecord, blockSize: number): number {
  return (record.extentBlock + record.xarBlocks) * blockSize;
}

async function attributesOf(record: DirectoryRecord, layout: TreeLayout, treePath: string): Promise<RockRidgeAttributes | null> {
  if (!layout.rockRidge) return null;
  const entries = await suspEntries(record.systemUse, layout.suspSkip, { source: layout.source, blockSize: layout.blockSize, treePath });
  return rockRidgeAttributes(entries);
}

/** Reads a directory's extent (bounded in size, inside the file). */
export async function readDirectoryExtent(layout: TreeLayout, extent: DirectoryExtent, treePath: string): Promise<Buffer> {
  if (extent.length > MAX_DIRECTORY_BYTES) {
    throw new TreeError('UNSUPPORTED', treePath, `${treePath || '/'}: directory of ${extent.length} bytes is larger than the ${MAX_DIRECTORY_BYTES}-byte limit`);
  }
  return layout.source.read(extent.offset, extent.length, 'directory extent', treePath);
}

/** The "." record at the start of a directory extent (Rock Ridge keeps a relocated directory's attributes there). */
async function selfRecord(layout: TreeLayout, offset: number, treePath: string): Promise<DirectoryRecord> {
  const head = await layout.source.read(offset, Math.min(SECTOR_BYTES, Math.max(0, layout.source.size - offset)), 'relocated directory', treePath);
  const record = head.length > 0 ? decodeDirectoryRecord(head, 0) : null;
  if (!record || !isSelfOrParent(record.identifier) || !record.isDirectory) throw corrupt(`${treePath}: the relocated directory at byte ${offset} has no "." record`, treePath);
  return record;
}

function nodeId(attributes: RockRidgeAttributes | null, position: number): bigint {
  if (attributes?.inode) return RR_INODE_ID_BASE + BigInt(attributes.inode);
  return BigInt(position);
}

function typeOf(record: DirectoryRecord, attributes: RockRidgeAttributes | null): TreeNodeType | null {
  if (record.isDirectory) return 'directory';
  if (attributes?.childLink != null) return 'directory';
  const fileType = attributes?.mode != null ? attributes.mode & S_IFMT : null;
  if (attributes?.target != null || fileType === S_IFLNK) return 'symlink';
  // Devices, FIFOs and sockets are not served: left out of the listing.
  if (fileType !== null && fileType !== 0 && fileType !== S_IFREG && fileType !== S_IFDIR) return null;
  return 'file';
}

/** Groups a multi-extent file's records (§6.5.1): the run ends at the record without bit 7. */
function* fileSections(records: Iterable<PlacedRecord>): Generator<PlacedRecord[]> {
  let run: PlacedRecord[] = [];
  for (const placed of records) {
    if (isSelfOrParent(placed.record.identifier)) continue;
    if (run.length > 0 && !run[0]?.record.identifier.equals(placed.record.identifier)) {
      // A run whose last record still says "more follow": the image ends it early; keep what it has.
      yield run;
      run = [];
    }
    run.push(placed);
    if (run.length > MAX_FILE_EXTENTS) throw corrupt(`a file with more than ${MAX_FILE_EXTENTS} extents`);
    if (!placed.record.multiExtent || placed.record.isDirectory) {
      yield run;
      run = [];
    }
  }
  if (run.length > 0) yield run;
}

async function entryOf(run: PlacedRecord[], layout: TreeLayout, dirPath: string): Promise<IsoEntry | null> {
  const [first] = run;
  if (!first) return null;
  const { record, position } = first;
  // Associated files (§9.1.6 bit 2: Apple resource forks) are not files of the tree.
  if (record.flags & 0x04) return null;
  const isoName = recordName(record.identifier, layout.encoding);
  const entryPath = dirPath ? `${dirPath}/${isoName}` : isoName;
  let attributes = await attributesOf(record, layout, entryPath);
  if (attributes?.relocated) return null;
  const name = attributes?.name ?? isoName;
  if (!usableName(name)) return null;
  const type = typeOf(record, attributes);
  if (!type) return null;
  const entry: IsoEntry = {
    name,
    type,
    size: 0,
    mtimeMs: attributes?.modifiedAt ?? record.recordedAt ?? layout.fallbackMtimeMs,
    mode: 0,
    id: nodeId(attributes, position),
    extents: [],
  };
  if (type === 'directory') {
    let dirRecord = record;
    if (attributes?.childLink != null) {
      // RRIP §4.1.5.1: the placeholder stands for the directory at CL; its attributes are in that directory's "." record.
      const offset = attributes.childLink * layout.blockSize;
      dirRecord = await selfRecord(layout, offset, entryPath);
      const moved = await attributesOf(dirRecord, layout, entryPath);
      if (moved) attributes = { ...moved, name: attributes.name, inode: moved.inode ?? attributes.inode };
      entry.mtimeMs = attributes?.modifiedAt ?? dirRecord.recordedAt ?? entry.mtimeMs;
    }
    entry.directory = { offset: dataOffset(dirRecord, layout.blockSize), length: dirRecord.dataLength };
    entry.mode = attributes?.mode != null ? attributes.mode & 0o7777 : DEFAULT_DIRECTORY_MODE;
    return entry;
  }
  if (type === 'symlink') {
    entry.target = attributes?.target ?? '';
    entry.mode = attributes?.mode != null ? attributes.mode & 0o7777 : 0o777;
    return entry;
  }
  entry.mode = attributes?.mode != null ? attributes.mode & 0o7777 : DEFAULT_FILE_MODE;
  for (const section of run) {
    if (section.record.interleaved) entry.unreadable = 'the file is recorded interleaved (ECMA-119 §6.4.3), which is not supported';
    if (section.record.dataLength === 0) continue;
    entry.extents.push({ offset: dataOffset(section.record, layout.blockSize), length: section.record.dataLength });
    entry.size += section.record.dataLength;
  }
  if (attributes?.unreadable) entry.unreadable = attributes.unreadable;
  return entry;
}

/** The entries of the directory at `extent` ('.' and '..' left out), in recorded order. */
export async function readDirectory(layout: TreeLayout, extent: DirectoryExtent, dirPath: string): Promise<IsoEntry[]> {
  const buffer = await readDirectoryExtent(layout, extent, dirPath);
  const entries: IsoEntry[] = [];
  try {
    for (const run of fileSections(directoryRecords(buffer, extent.offset))) {
      const entry = await entryOf(run, layout, dirPath);
      if (!entry) continue;
      entries.push(entry);
      if (entries.length > MAX_DIRECTORY_ENTRIES) {
        throw new TreeError('UNSUPPORTED', dirPath, `${dirPath || '/'}: more than ${MAX_DIRECTORY_ENTRIES} entries`);
      }
    }
  } catch (err) {
    if (err instanceof TreeError && err.treePath === '') throw new TreeError(err.code, dirPath, `${dirPath || '/'}: ${err.message}`);
    throw err;
  }
  return entries;
}
