import { AppError } from '../../core/errors.js';
import { TreeError } from '../../core/read-only-tree.js';
import type { OpenedImage } from '../image-ports.js';
import type { IsoInfo } from '../os-images-contract.js';
import { decodeDirectoryRecord } from './directory-record.js';
import { readBootCatalog } from './el-torito.js';
import { readDirectory, type IsoEntry, type TreeLayout } from './iso-directory.js';
import { ROOT_NODE_ID, SECTOR_BYTES } from './iso-limits.js';
import { IsoSource } from './iso-source.js';
import { IsoTree, type DirectoryReader } from './iso-tree.js';
import { readUdfDirectory, udfRootExtent } from './udf-directory.js';
import { readUdfVolume, type UdfVolume } from './udf-volume.js';
import { rockRidgeAttributes, RRIP_IDENTIFIERS, RRIP_SIGNATURES, type RockRidgeAttributes } from './rock-ridge.js';
import { extensionIdentifier, sharingProtocolSkip, suspEntries } from './susp.js';
import { NotAnIsoError, readDescriptorSet, type VolumeDescriptor } from './volume-descriptors.js';

interface RockRidgeProbe {
  skip: number;
  root: RockRidgeAttributes;
}

/**
 * Rock Ridge is in use when the root's "." record starts with SP (SUSP 1.12
 * §5.3) and either an ER names RRIP or Rock Ridge entries follow (RRIP 1.09
 * images have no ER).
 */
async function probeRockRidge(source: IsoSource, primary: VolumeDescriptor): Promise<RockRidgeProbe | null> {
  const offset = (primary.root.extentBlock + primary.root.xarBlocks) * primary.blockSize;
  const length = Math.min(SECTOR_BYTES, primary.root.dataLength);
  if (length === 0 || !source.contains(offset, length)) return null;
  const head = await source.read(offset, length, 'root directory');
  const self = decodeDirectoryRecord(head, 0);
  if (!self) return null;
  const context = { source, blockSize: primary.blockSize, treePath: '' };
  const entries = await suspEntries(self.systemUse, 0, context);
  const skip = sharingProtocolSkip(entries[0]);
  if (skip === null) return null;
  const named = entries.some((entry) => RRIP_IDENTIFIERS.has(extensionIdentifier(entry) ?? ''));
  if (!named && !entries.some((entry) => RRIP_SIGNATURES.has(entry.signature))) return null;
  return { skip, root: rockRidgeAttributes(entries) };
}

interface Inspection {
  info: IsoInfo;
  source: IsoSource;
  root: IsoEntry;
  readDirectory: DirectoryReader;
  kind: 'iso9660' | 'udf';
}

/** The UDF side of a bridge image, when it can be read (its root directory included). */
async function probeUdf(source: IsoSource, fallbackMtimeMs: number): Promise<{ volume: UdfVolume; root: IsoEntry }> {
  const volume = await readUdfVolume(source);
  const extent = udfRootExtent(volume);
  // Reading the root now turns an unreadable UDF side into a fallback, not a broken tree.
  await readUdfDirectory(volume, extent, '', fallbackMtimeMs);
  const root: IsoEntry = { name: '', type: 'directory', size: 0, mtimeMs: fallbackMtimeMs, mode: 0o555, id: ROOT_NODE_ID, extents: [], directory: extent };
  return { volume, root };
}

async function inspect(source: IsoSource): Promise<Inspection> {
  const descriptors = await readDescriptorSet(source);
  const { primary, joliet } = descriptors;
  const limitations = [...descriptors.notes];
  const rockRidge = await probeRockRidge(source, primary).catch((err: unknown) => {
    limitations.push(`Rock Ridge could not be read (${err instanceof Error ? err.message : String(err)}): ISO 9660 names are used`);
    return null;
  });
  const volumeBytes = primary.volumeBlocks * primary.blockSize;
  if (volumeBytes > source.size) {
    limitations.push(`the file is truncated: ${source.size} of the volume's ${volumeBytes} bytes are present, so files beyond its end cannot be read`);
  }
  const fallbackMtimeMs = primary.createdAt ?? 0;
  // A UDF bridge without Rock Ridge (Windows media: their ISO 9660 side may hold only a README) is read through UDF.
  let udf: { volume: UdfVolume; root: IsoEntry } | null = null;
  if (descriptors.udf && !rockRidge) {
    try {
      udf = await probeUdf(source, fallbackMtimeMs);
      limitations.push('UDF-bridge image: files are read from its UDF side (ECMA-167, type 1 partitions); its ISO 9660/Joliet side is not used');
    } catch (err) {
      limitations.push(
        `UDF-bridge image: its UDF side could not be read (${err instanceof Error ? err.message : String(err)}), so only its ISO 9660 side is read and files recorded only in UDF are not visible`,
      );
    }
  } else if (descriptors.udf) {
    limitations.push('UDF-bridge image: only its ISO 9660 side is read (Rock Ridge names); UDF itself is not read, so files recorded only in UDF are not visible');
  }
  let elTorito: IsoInfo['el_torito'] = [];
  if (descriptors.bootCatalogSector !== null) {
    try {
      const catalog = await readBootCatalog(source, descriptors.bootCatalogSector);
      elTorito = catalog.entries;
      limitations.push(...catalog.problems);
    } catch (err) {
      limitations.push(`El Torito boot catalog not read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  // Names: Rock Ridge, else Joliet, else ISO 9660 (lower-cased, versions dropped).
  const tree = rockRidge ? primary : (joliet ?? primary);
  if (!rockRidge && !joliet && !udf) {
    limitations.push('plain ISO 9660 names (no Rock Ridge or Joliet): names are shown in lower case without version numbers; no symlinks or POSIX permissions');
  }
  const layout: TreeLayout = {
    source,
    blockSize: tree.blockSize,
    encoding: !rockRidge && joliet ? 'joliet' : 'iso9660',
    rockRidge: rockRidge !== null,
    suspSkip: rockRidge?.skip ?? 0,
    fallbackMtimeMs,
  };
  const rootAttributes = rockRidge?.root;
  const root: IsoEntry = {
    name: '',
    type: 'directory',
    size: 0,
    mtimeMs: rootAttributes?.modifiedAt ?? tree.root.recordedAt ?? fallbackMtimeMs,
    mode: rootAttributes?.mode != null ? rootAttributes.mode & 0o7777 : 0o555,
    id: ROOT_NODE_ID,
    extents: [],
    directory: { offset: (tree.root.extentBlock + tree.root.xarBlocks) * tree.blockSize, length: tree.root.dataLength },
  };
  const info: IsoInfo = {
    volume_id: primary.volumeId,
    publisher: primary.publisher,
    application: primary.application,
    created_at: primary.createdAt === null ? null : new Date(primary.createdAt).toISOString(),
    volume_bytes: volumeBytes,
    joliet: joliet !== null,
    rock_ridge: rockRidge !== null,
    udf: descriptors.udf,
    el_torito: elTorito,
    limitations,
  };
  if (udf) {
    const { volume } = udf;
    return { info, source, root: udf.root, kind: 'udf', readDirectory: (directory, dirPath) => readUdfDirectory(volume, directory, dirPath, fallbackMtimeMs) };
  }
  return { info, source, root, kind: 'iso9660', readDirectory: (directory, dirPath) => readDirectory(layout, directory, dirPath) };
}

function unreadable(file: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const reason =
    err instanceof NotAnIsoError || err instanceof TreeError
      ? err.message
      : (err as NodeJS.ErrnoException | undefined)?.code
        ? `cannot be read (${(err as NodeJS.ErrnoException).code})`
        : String(err);
  return new AppError('VALIDATION_FAILED', `${file} is not a readable ISO image: ${reason}`, {
    details: [{ field: 'file', message: reason }],
    cause: err,
  });
}

async function withSource<T>(file: string, use: (source: IsoSource) => Promise<T>, keepOpen: boolean): Promise<T> {
  let source: IsoSource;
  try {
    source = await IsoSource.open(file);
  } catch (err) {
    throw unreadable(file, err);
  }
  try {
    const result = await use(source);
    if (!keepOpen) await source.close();
    return result;
  } catch (err) {
    await source.close();
    throw unreadable(file, err);
  }
}

/**
 * What an ISO's descriptors say (volume, Joliet/Rock Ridge, El Torito, UDF)
 * without reading any file: a few sectors at the start, the root directory's
 * first sector and the boot catalog. AppError VALIDATION_FAILED when the file
 * is not a readable ISO.
 */
export function readIsoInfo(file: string): Promise<IsoInfo> {
  return withSource(file, readIsoInfoFrom, false);
}

/** readIsoInfo on an opened source (tests count the bytes it reads). */
export async function readIsoInfoFrom(source: IsoSource): Promise<IsoInfo> {
  return (await inspect(source)).info;
}

/** Opens an ISO image as a ReadOnlyTree (an ImageOpener). AppError VALIDATION_FAILED when it is not a readable ISO. */
export function openIso(file: string): Promise<OpenedImage> {
  return withSource(
    file,
    async (source) => {
      const { info, root, readDirectory: reader, kind } = await inspect(source);
      return new IsoTree(info, source, root, reader, kind);
    },
    true,
  );
}
