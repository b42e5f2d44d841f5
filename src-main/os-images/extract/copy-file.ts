import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { TreeError, type ByteExtent, type ReadOnlyTree } from '../../core/read-only-tree.js';

/*
 * Copies one file of a tree to disk, streamed: from the file's extents in
 * its backing file (the ISO, read with start/end ranges, no buffering of
 * the whole file), or — for a tree without backing files — through
 * tree.read in chunks. The destination is created exclusively ('wx'): a
 * file that is already there (a duplicate name slipped through) is an
 * error, never an overwrite.
 */

/** Chunk size of reads through tree.read (trees without extents). */
const READ_CHUNK = 1024 * 1024;

async function extentsOf(tree: ReadOnlyTree, treePath: string): Promise<ByteExtent[] | null> {
  try {
    return await tree.extents(treePath);
  } catch (err) {
    if (err instanceof TreeError && err.code === 'UNSUPPORTED') return null;
    throw err;
  }
}

async function* fromExtents(extents: ByteExtent[], treePath: string, signal: AbortSignal, onBytes: (count: number) => void): AsyncGenerator<Buffer> {
  for (const extent of extents) {
    if (!Number.isSafeInteger(extent.offset) || !Number.isSafeInteger(extent.length) || extent.offset < 0 || extent.length < 0) {
      throw new TreeError('CORRUPT', treePath, `${treePath}: an extent with offset ${extent.offset} and length ${extent.length}`);
    }
    if (extent.length === 0) continue;
    let got = 0;
    const stream = createReadStream(extent.file, { start: extent.offset, end: extent.offset + extent.length - 1, signal, highWaterMark: 256 * 1024 });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      got += chunk.length;
      onBytes(chunk.length);
      yield chunk;
    }
    // A backing file shorter than the extent says (a truncated ISO) must not give a short file silently.
    if (got !== extent.length) throw new TreeError('CORRUPT', treePath, `${treePath}: its extent at byte ${extent.offset} of ${extent.file} ends after ${got} of ${extent.length} bytes`);
  }
}

async function* fromReads(tree: ReadOnlyTree, treePath: string, size: number, signal: AbortSignal, onBytes: (count: number) => void): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < size; ) {
    signal.throwIfAborted();
    const chunk = await tree.read(treePath, offset, Math.min(READ_CHUNK, size - offset));
    if (chunk.length === 0) throw new TreeError('CORRUPT', treePath, `${treePath}: ends after ${offset} of ${size} bytes`);
    offset += chunk.length;
    onBytes(chunk.length);
    yield chunk;
  }
}

/** Copies the tree file `treePath` (`size` bytes) to `destination`; `onBytes` hears every chunk written. */
export async function copyTreeFile(tree: ReadOnlyTree, treePath: string, size: number, destination: string, signal: AbortSignal, onBytes: (count: number) => void): Promise<void> {
  const extents = await extentsOf(tree, treePath);
  if (extents) {
    const total = extents.reduce((sum, extent) => sum + extent.length, 0);
    if (total !== size) throw new TreeError('CORRUPT', treePath, `${treePath}: its extents hold ${total} bytes, the file ${size}`);
  }
  const source = extents ? fromExtents(extents, treePath, signal, onBytes) : fromReads(tree, treePath, size, signal, onBytes);
  await pipeline(source, createWriteStream(destination, { flags: 'wx', mode: 0o644 }), { signal });
}
