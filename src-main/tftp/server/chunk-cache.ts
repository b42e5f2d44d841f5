/**
 * A byte-bounded LRU of file chunks shared by all transfers of one server,
 * so two hundred clients fetching the same ipxe.efi read it from disk once.
 * Keys name the file's identity (device, inode, size, mtime) and the chunk,
 * so a replaced or rewritten file is never served from stale chunks.
 */
export class ChunkCache {
  readonly chunkSize: number;
  private readonly maxBytes: number;
  private readonly chunks = new Map<string, Buffer>();
  private readonly loading = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(options: { maxBytes: number; chunkSize: number }) {
    this.maxBytes = options.maxBytes;
    this.chunkSize = options.chunkSize;
  }

  /** The cached chunk, marked most recently used; undefined when absent. */
  get(key: string): Buffer | undefined {
    const chunk = this.chunks.get(key);
    if (chunk) {
      this.chunks.delete(key);
      this.chunks.set(key, chunk);
    }
    return chunk;
  }

  /** The chunk, loading it once however many callers ask at the same time. */
  load(key: string, loader: () => Promise<Buffer>): Promise<Buffer> {
    const cached = this.get(key);
    if (cached) return Promise.resolve(cached);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const started = loader().then(
      (chunk) => {
        this.loading.delete(key);
        this.put(key, chunk);
        return chunk;
      },
      (err: unknown) => {
        this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, started);
    return started;
  }

  get size(): number {
    return this.bytes;
  }

  clear(): void {
    this.chunks.clear();
    this.bytes = 0;
  }

  private put(key: string, chunk: Buffer): void {
    if (chunk.length > this.maxBytes) return;
    this.chunks.set(key, chunk);
    this.bytes += chunk.length;
    for (const [oldest, old] of this.chunks) {
      if (this.bytes <= this.maxBytes) break;
      this.chunks.delete(oldest);
      this.bytes -= old.length;
    }
  }
}
