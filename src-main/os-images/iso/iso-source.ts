import { open, type FileHandle } from 'node:fs/promises';
import { TreeError } from '../../core/read-only-tree.js';

/**
 * The ISO file, read with positioned reads only (never whole): every read is
 * checked against the file's size first, so an offset or length taken from
 * the image cannot read past the end, allocate beyond what the file holds or
 * wrap around. `bytesRead` counts what was read (tests check that detection
 * reads metadata only).
 */
export class IsoSource {
  bytesRead = 0;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  static async open(file: string): Promise<IsoSource> {
    const handle = await open(file, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new TreeError('UNSUPPORTED', '', `${file} is not a regular file`);
      return new IsoSource(file, handle, stat.size);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Whether [offset, offset + length) lies inside the file. */
  contains(offset: number, length: number): boolean {
    return Number.isSafeInteger(offset) && Number.isSafeInteger(length) && offset >= 0 && length >= 0 && offset + length <= this.size;
  }

  /** Exactly `length` bytes at `offset`; TreeError CORRUPT (naming `what`) when they are not all in the file. */
  async read(offset: number, length: number, what: string, treePath = ''): Promise<Buffer> {
    if (!this.contains(offset, length)) {
      throw new TreeError('CORRUPT', treePath, `${what} (${length} bytes at ${offset}) lies outside the ${this.size}-byte file`);
    }
    const buffer = Buffer.alloc(length);
    await this.readInto(buffer, 0, offset, length, what, treePath);
    return buffer;
  }

  /** Fills buffer[at, at + length) from the file at `offset` (the caller checked the range). */
  async readInto(buffer: Buffer, at: number, offset: number, length: number, what: string, treePath = ''): Promise<void> {
    if (this.closed) throw new TreeError('UNSUPPORTED', treePath, 'the ISO image is closed');
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(buffer, at + done, length - done, offset + done);
      // The file shrank under us (truncated while open).
      if (bytesRead === 0) throw new TreeError('CORRUPT', treePath, `${what}: the file ends at ${offset + done} (expected ${length} bytes at ${offset})`);
      done += bytesRead;
      this.bytesRead += bytesRead;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
