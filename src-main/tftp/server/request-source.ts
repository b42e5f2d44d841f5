import { open, type FileHandle } from 'node:fs/promises';
import { normalizeBootPath, resolveInsideRoot } from '../../boot-files/path-confinement.js';
import { isDiskFile, mapStretches, stretchesFit, stretchesOf, stretchesSize, type FileStretch, type VirtualFile } from '../../boot-files/virtual-files.js';
import { FileSource, MemorySource, type ByteSource } from './byte-source.js';
import type { ChunkCache } from './chunk-cache.js';
import { toNetascii } from './netascii.js';
import { TFTP_ERROR, TFTP_ERRORS, type TftpErrorCode } from './tftp-constants.js';
import type { TftpClient } from './tftp-server.js';

/** Largest file sent in netascii mode (it is converted in memory). */
export const NETASCII_MAX_BYTES = 16 * 1024 * 1024;

/** A request answered with an ERROR packet before any data. */
export class RequestRefusal extends Error {
  readonly code: TftpErrorCode;
  constructor(code: TftpErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export interface SourceOptions {
  /** A real path (symlinks resolved): requests are refused if it stops resolving to itself. */
  root: string;
  netascii: boolean;
  cache: ChunkCache;
  resolveVirtual?: (path: string, client: TftpClient) => Promise<VirtualFile | null>;
}

export interface OpenedSource {
  source: ByteSource;
  /** The normalised path, as events report it. */
  path: string;
  virtual: boolean;
}

const accessViolation = () => new RequestRefusal(TFTP_ERROR.ACCESS_VIOLATION, TFTP_ERRORS[TFTP_ERROR.ACCESS_VIOLATION].message);
const notFound = () => new RequestRefusal(TFTP_ERROR.FILE_NOT_FOUND, TFTP_ERRORS[TFTP_ERROR.FILE_NOT_FOUND].message);

/**
 * What a read request gets: refused paths first (before any provider sees
 * them), then a virtual file, then a regular file under the root, opened once
 * and read through that handle. Netascii content is converted in memory.
 */
export async function openRequestSource(requested: string, client: TftpClient, options: SourceOptions): Promise<OpenedSource> {
  const normalized = normalizeBootPath(fromTftpRoot(requested));
  if (!normalized.ok) {
    throw normalized.reason === 'forbidden' ? accessViolation() : notFound();
  }
  const path = normalized.path;
  const generated = options.resolveVirtual ? await options.resolveVirtual(path, client) : null;
  if (generated && isDiskFile(generated)) {
    // A provider's file outside the root (the netboot cache): opened as is, held until the transfer ends.
    const release = generated.release;
    try {
      const opened = await openFileSource(generated.path, path, options, stretchesOf(generated));
      return { ...opened, source: release ? new ReleasingSource(opened.source, release) : opened.source, virtual: true };
    } catch (err) {
      release?.(0);
      throw err;
    }
  }
  if (generated) {
    return { source: new MemorySource(options.netascii ? toNetascii(generated.content) : generated.content), path, virtual: true };
  }
  // The service hands over the real root the served-root policy accepted, so it is pinned.
  const confined = await resolveInsideRoot(options.root, path, { pinned: true });
  if (!confined.ok) {
    throw confined.reason === 'forbidden' ? accessViolation() : notFound();
  }
  return openFileSource(confined.absolute, path, options);
}

/**
 * A TFTP client sees the root as its whole file system: a leading `/` names
 * the root, as in tftpd-hpa with --secure. GRUB asks this way (its prefix
 * `/grub` gives `/grub/grub.cfg`, and `(tftp,<server>)/path` sends `/path`);
 * what follows is checked as any other path (`..` stays refused).
 */
function fromTftpRoot(requested: string): string {
  return requested.replace(/^\/+/, '');
}

/**
 * A regular file opened once and read through that handle (netascii
 * converted in memory); with `stretches`, only those bytes of it (a file
 * inside a mounted ISO), which must lie inside the file opened.
 */
async function openFileSource(absolute: string, path: string, options: SourceOptions, stretches: FileStretch[] | null = null): Promise<OpenedSource> {
  const handle = await open(absolute, 'r').catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    throw code === 'EACCES' || code === 'EPERM' ? accessViolation() : notFound();
  });
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notFound();
    if (stretches && !stretchesFit(stretches, stats.size)) throw notFound();
    if (!options.netascii) return { source: new FileSource(handle, stats, options.cache, stretches), path, virtual: false };
    const size = stretches ? stretchesSize(stretches) : stats.size;
    if (size > NETASCII_MAX_BYTES) {
      throw new RequestRefusal(TFTP_ERROR.NOT_DEFINED, `netascii transfers are limited to ${NETASCII_MAX_BYTES} bytes; use octet mode`);
    }
    const content = toNetascii(stretches ? await readStretches(handle, stretches) : await handle.readFile());
    await handle.close();
    return { source: new MemorySource(content), path, virtual: false };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** The bytes of `stretches` of an open file, in order (small: netascii only). */
async function readStretches(handle: FileHandle, stretches: readonly FileStretch[]): Promise<Buffer> {
  const size = stretchesSize(stretches);
  const buffer = Buffer.alloc(size);
  let filled = 0;
  for (const piece of mapStretches(stretches, 0, size)) {
    const { bytesRead } = await handle.read(buffer, filled, piece.length, piece.offset);
    if (bytesRead < piece.length) throw notFound();
    filled += bytesRead;
  }
  return buffer;
}

/**
 * A source that tells its provider when the transfer is over, with the bytes
 * sent (the furthest byte read: blocks go out in order, retransmissions read
 * again below it).
 */
class ReleasingSource implements ByteSource {
  private furthest = 0;
  private released = false;

  constructor(
    private readonly inner: ByteSource,
    private readonly release: (bytesSent: number) => void,
  ) {}

  get size(): number {
    return this.inner.size;
  }

  read(offset: number, length: number): Buffer | Promise<Buffer> {
    this.furthest = Math.max(this.furthest, Math.min(offset + length, this.inner.size));
    return this.inner.read(offset, length);
  }

  async close(): Promise<void> {
    try {
      await this.inner.close();
    } finally {
      if (!this.released) {
        this.released = true;
        this.release(this.furthest);
      }
    }
  }
}
