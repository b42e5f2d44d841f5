import type { FileHandle } from 'node:fs/promises';
import { mapStretches, stretchesSize, type FileStretch } from '../../boot-files/virtual-files.js';
import type { ChunkCache } from './chunk-cache.js';

/**
 * The bytes a transfer sends: `read` answers synchronously when the bytes
 * are at hand (the hot path: no promise per block) and with a promise when
 * they must come from disk first.
 */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Buffer | Promise<Buffer>;
  close(): Promise<void>;
}

/** Bytes already in memory: virtual files and netascii conversions. */
export class MemorySource implements ByteSource {
  private readonly content: Buffer;

  constructor(content: Buffer) {
    this.content = content;
  }

  get size(): number {
    return this.content.length;
  }

  read(offset: number, length: number): Buffer {
    return this.content.subarray(offset, offset + length);
  }

  async close(): Promise<void> {
    // Nothing to release.
  }
}

/**
 * A file read in chunks through the shared cache, one chunk ahead of the
 * reader so the next window never waits for the disk. The open handle keeps
 * the file readable even if it is renamed or replaced mid-transfer. With
 * `stretches` the source is those bytes of the file in order (a file inside
 * a mounted ISO): chunks are numbered in the served bytes and read from
 * where they lie, and the cache keys name the stretches, so two files of
 * one ISO never share a chunk.
 */
export class FileSource implements ByteSource {
  readonly size: number;
  private readonly handle: FileHandle;
  private readonly cache: ChunkCache;
  private readonly identity: string;
  /** The chunk the reader is in: most reads hit it without a cache lookup. */
  private currentIndex = -1;
  private currentChunk: Buffer | null = null;

  /** Where the served bytes lie in the file (the whole file when none were given). */
  private readonly stretches: readonly FileStretch[];

  constructor(handle: FileHandle, stats: { dev: number; ino: number; size: number; mtimeMs: number }, cache: ChunkCache, stretches: readonly FileStretch[] | null = null) {
    this.handle = handle;
    this.stretches = stretches ?? [{ offset: 0, length: stats.size }];
    this.size = stretches ? stretchesSize(stretches) : stats.size;
    this.cache = cache;
    const file = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    this.identity = stretches ? `${file}@${stretches.map((stretch) => `${stretch.offset}+${stretch.length}`).join(',')}` : file;
  }

  read(offset: number, length: number): Buffer | Promise<Buffer> {
    const end = Math.min(offset + length, this.size);
    if (end <= offset) return Buffer.alloc(0);
    const chunkSize = this.cache.chunkSize;
    const first = Math.floor(offset / chunkSize);
    const last = Math.floor((end - 1) / chunkSize);
    const start = first * chunkSize;
    if (first === last) {
      const chunk = first === this.currentIndex ? this.currentChunk : this.enter(first);
      if (chunk) return chunk.subarray(offset - start, end - start);
      return this.loadChunk(first).then((loaded) => {
        this.currentIndex = first;
        this.currentChunk = loaded;
        return loaded.subarray(offset - start, end - start);
      });
    }
    this.prefetch(last + 1);
    // A block across a chunk boundary: rare (once per chunk per transfer); copy the parts.
    const indexes = Array.from({ length: last - first + 1 }, (_, i) => first + i);
    return Promise.all(indexes.map((index) => this.loadChunk(index))).then((chunks) =>
      Buffer.concat(chunks.map((chunk, i) => {
        const chunkStart = (first + i) * chunkSize;
        return chunk.subarray(Math.max(0, offset - chunkStart), Math.min(chunk.length, end - chunkStart));
      })),
    );
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** Moves the reader into chunk `index` (when cached) and starts reading the next one ahead. */
  private enter(index: number): Buffer | undefined {
    this.prefetch(index + 1);
    const chunk = this.cache.get(this.key(index));
    if (chunk) {
      this.currentIndex = index;
      this.currentChunk = chunk;
    }
    return chunk;
  }

  private key(index: number): string {
    return `${this.identity}:${index}`;
  }

  private prefetch(index: number): void {
    if (index * this.cache.chunkSize >= this.size) return;
    if (this.cache.get(this.key(index))) return;
    // A failed read-ahead is retried by the read that needs the chunk, which reports the error.
    this.loadChunk(index).catch(() => undefined);
  }

  private loadChunk(index: number): Promise<Buffer> {
    return this.cache.load(this.key(index), async () => {
      const position = index * this.cache.chunkSize;
      const length = Math.min(this.cache.chunkSize, this.size - position);
      const buffer = Buffer.allocUnsafe(length);
      let filled = 0;
      for (const piece of mapStretches(this.stretches, position, length)) {
        let done = 0;
        while (done < piece.length) {
          const { bytesRead } = await this.handle.read(buffer, filled, piece.length - done, piece.offset + done);
          if (bytesRead === 0) throw new Error('file shrank while being sent');
          filled += bytesRead;
          done += bytesRead;
        }
      }
      if (filled < length) throw new Error('file shrank while being sent');
      return buffer;
    });
  }
}
