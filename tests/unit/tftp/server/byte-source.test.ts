import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSource } from '../../../../src-main/tftp/server/byte-source.js';
import { ChunkCache } from '../../../../src-main/tftp/server/chunk-cache.js';

let dir: string;
const content = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7) & 0xff));
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bw-bytesource-'));
  await writeFile(path.join(dir, 'f.bin'), content);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function source(cache: ChunkCache): Promise<FileSource> {
  const handle = await open(path.join(dir, 'f.bin'), 'r');
  return new FileSource(handle, await handle.stat(), cache);
}

async function read(src: FileSource, offset: number, length: number): Promise<Buffer> {
  return Buffer.from(await src.read(offset, length));
}

describe('file chunks for TFTP', () => {
  it('reads any range, including blocks that straddle chunk boundaries and the end of the file', async () => {
    const src = await source(new ChunkCache({ maxBytes: 1 << 20, chunkSize: 1000 }));
    for (const [offset, length] of [[0, 512], [512, 512], [990, 30], [1999, 2], [9990, 512], [9999, 1], [10_000, 512], [3000, 2500]] as const) {
      expect((await read(src, offset, length)).equals(content.subarray(offset, offset + length)), `${offset}+${length}`).toBe(true);
    }
    await src.close();
  });

  it('answers synchronously once a chunk is cached, and reads each chunk once for concurrent readers', async () => {
    const cache = new ChunkCache({ maxBytes: 1 << 20, chunkSize: 4096 });
    const readers = await Promise.all(Array.from({ length: 20 }, () => source(cache)));
    const first = await Promise.all(readers.map((src) => read(src, 100, 50)));
    for (const bytes of first) expect(bytes.equals(content.subarray(100, 150))).toBe(true);
    const sync = readers[0]!.read(200, 50);
    expect(Buffer.isBuffer(sync)).toBe(true);
    expect(cache.size).toBeLessThanOrEqual(3 * 4096);
    await Promise.all(readers.map((src) => src.close()));
  });

  it('keeps the cache within its byte budget, evicting the least recently used chunk', async () => {
    const cache = new ChunkCache({ maxBytes: 2500, chunkSize: 1000 });
    const src = await source(cache);
    for (let offset = 0; offset < 10_000; offset += 512) await read(src, offset, 512);
    expect(cache.size).toBeLessThanOrEqual(2500);
    await src.close();
  });

  it('reports a file that shrank under it as a read error', async () => {
    const file = path.join(dir, 'shrinks.bin');
    await writeFile(file, content);
    const handle = await open(file, 'r');
    const stats = await handle.stat();
    await writeFile(file, Buffer.alloc(10));
    const src = new FileSource(handle, stats, new ChunkCache({ maxBytes: 1 << 20, chunkSize: 4096 }));
    await expect(Promise.resolve(src.read(5000, 512))).rejects.toThrow('shrank');
    await src.close();
  });
});

describe('file chunks of stretches of a backing file (a file inside an ISO)', () => {
  const stretches = [
    { offset: 6000, length: 1500 },
    { offset: 100, length: 2300 },
    { offset: 9000, length: 1000 },
  ];
  const expected = Buffer.concat(stretches.map((stretch) => content.subarray(stretch.offset, stretch.offset + stretch.length)));

  async function stretchSource(cache: ChunkCache, parts = stretches): Promise<FileSource> {
    const handle = await open(path.join(dir, 'f.bin'), 'r');
    return new FileSource(handle, await handle.stat(), cache, parts);
  }

  it('reads the stretches in order, with chunks that start inside a stretch and span two', async () => {
    const src = await stretchSource(new ChunkCache({ maxBytes: 1 << 20, chunkSize: 1000 }));
    expect(src.size).toBe(expected.length);
    for (const [offset, length] of [[0, 512], [1400, 200], [1499, 2], [3700, 200], [4799, 1], [4800, 10], [0, 4800]] as const) {
      expect((await read(src, offset, length)).equals(expected.subarray(offset, offset + length)), `${offset}+${length}`).toBe(true);
    }
    await src.close();
  });

  it('never shares cached chunks between two files of one backing file', async () => {
    const cache = new ChunkCache({ maxBytes: 1 << 20, chunkSize: 1000 });
    const first = await stretchSource(cache, [{ offset: 0, length: 3000 }]);
    const second = await stretchSource(cache, [{ offset: 4000, length: 3000 }]);
    expect((await read(first, 0, 1000)).equals(content.subarray(0, 1000))).toBe(true);
    expect((await read(second, 0, 1000)).equals(content.subarray(4000, 5000))).toBe(true);
    await Promise.all([first.close(), second.close()]);
  });
});
