import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src-main/core/errors.js';
import { receiveFile, requireFreeSpace } from '../../../../src-main/core/upload/receive-file.js';
import { tempDir } from '../../../helpers/test-core.js';

let dir: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  dir = await tempDir('bootwright-receive-');
});
afterAll(async () => dir.remove());

const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const exists = async (file: string) => stat(file).then(() => true, () => false);
let n = 0;
function paths() {
  n += 1;
  return { finalPath: path.join(dir.dir, `f${n}.iso`), partialPath: path.join(dir.dir, '.uploads', `p${n}.part`) };
}
const DATA = Buffer.from('0123456789'.repeat(1000));

/** A body that sends `bytes` and then breaks like a cut connection. */
function brokenBody(bytes: Buffer): Readable {
  return Readable.from(
    (async function* () {
      yield bytes;
      // Long enough for the chunk to reach the file (a real cut connection loses only what was in flight).
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('aborted');
    })(),
  );
}

describe('receiveFile', () => {
  it('streams to the partial file, hashes, and publishes whole', async () => {
    const p = paths();
    const progress: number[] = [];
    const got = await receiveFile({ source: Readable.from([DATA.subarray(0, 5000), DATA.subarray(5000)]), ...p, overwrite: false, maxBytes: 1e6, expectedSize: DATA.length, onProgress: (received) => progress.push(received) });
    expect(got).toEqual({ path: p.finalPath, size: DATA.length, sha256: sha(DATA) });
    expect(await readFile(p.finalPath)).toEqual(DATA);
    expect(await exists(p.partialPath)).toBe(false);
    expect(progress.at(-1)).toBe(DATA.length);
  });

  it('refuses to overwrite without overwrite=true, and replaces with it', async () => {
    const p = paths();
    await writeFile(p.finalPath, 'old');
    await expect(receiveFile({ source: Readable.from([DATA]), ...p, overwrite: false, maxBytes: 1e6 })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await readFile(p.finalPath, 'utf8')).toBe('old');
    await receiveFile({ source: Readable.from([DATA]), ...p, overwrite: true, maxBytes: 1e6 });
    expect(await readFile(p.finalPath)).toEqual(DATA);
  });

  it('removes the partial file on a hash mismatch, a size limit and a refused verify', async () => {
    const p = paths();
    await expect(receiveFile({ source: Readable.from([DATA]), ...p, overwrite: false, maxBytes: 1e6, expectedSha256: sha('other'), keepPartialOnFailure: true })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await exists(p.partialPath)).toBe(false);
    await expect(receiveFile({ source: Readable.from([DATA]), ...p, overwrite: false, maxBytes: 100, keepPartialOnFailure: true })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await exists(p.partialPath)).toBe(false);
    // More bytes than the declared size: refused, not a short body to resume.
    await expect(receiveFile({ source: Readable.from([DATA]), ...p, overwrite: false, maxBytes: 1e6, expectedSize: 10, keepPartialOnFailure: true })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await exists(p.partialPath)).toBe(false);
    const verify = async () => {
      throw new AppError('VALIDATION_FAILED', 'not an ISO');
    };
    await expect(receiveFile({ source: Readable.from([DATA]), ...p, overwrite: false, maxBytes: 1e6, verify, keepPartialOnFailure: true })).rejects.toThrow('not an ISO');
    expect(await exists(p.partialPath)).toBe(false);
    expect(await exists(p.finalPath)).toBe(false);
  });

  it('verify sees the complete partial file before it is published', async () => {
    const p = paths();
    let seen: { size: number; sha256: string; bytes: Buffer } | null = null;
    await receiveFile({
      source: Readable.from([DATA]),
      ...p,
      overwrite: false,
      maxBytes: 1e6,
      verify: async (partial, received) => {
        expect(await exists(p.finalPath)).toBe(false);
        seen = { ...received, bytes: await readFile(partial) };
      },
    });
    expect(seen).toEqual({ size: DATA.length, sha256: sha(DATA), bytes: DATA });
  });

  it('keeps the partial file of a broken or short body to resume, and the resumed file hashes whole', async () => {
    const p = paths();
    await expect(receiveFile({ source: brokenBody(DATA.subarray(0, 3000)), ...p, overwrite: false, maxBytes: 1e6, keepPartialOnFailure: true })).rejects.toThrow();
    expect((await stat(p.partialPath)).size).toBe(3000);
    // A wrong offset names the right one.
    await expect(receiveFile({ source: Readable.from([DATA.subarray(2000)]), ...p, overwrite: false, maxBytes: 1e6, resumeFrom: 2000, keepPartialOnFailure: true })).rejects.toThrow(/resume from offset 3000/);
    expect((await stat(p.partialPath)).size).toBe(3000);
    // A body that ends short of the declared size is resumable too.
    await expect(receiveFile({ source: Readable.from([DATA.subarray(3000, 6000)]), ...p, overwrite: false, maxBytes: 1e6, resumeFrom: 3000, expectedSize: DATA.length, keepPartialOnFailure: true })).rejects.toThrow(/resume from offset 6000/);
    expect((await stat(p.partialPath)).size).toBe(6000);
    const got = await receiveFile({ source: Readable.from([DATA.subarray(6000)]), ...p, overwrite: false, maxBytes: 1e6, resumeFrom: 6000, expectedSize: DATA.length, expectedSha256: sha(DATA), keepPartialOnFailure: true });
    expect(got.sha256).toBe(sha(DATA));
    expect(await readFile(p.finalPath)).toEqual(DATA);
  });

  it('removes the partial file of a broken body when not resumable', async () => {
    const p = paths();
    await expect(receiveFile({ source: brokenBody(DATA.subarray(0, 3000)), ...p, overwrite: false, maxBytes: 1e6 })).rejects.toThrow();
    expect(await exists(p.partialPath)).toBe(false);
  });

  it('refuses a size the disk cannot hold before writing a byte', async () => {
    const p = paths();
    await expect(requireFreeSpace(dir.dir, Number.MAX_SAFE_INTEGER)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await expect(receiveFile({ source: Readable.from([DATA]), ...p, overwrite: false, maxBytes: Number.MAX_SAFE_INTEGER, expectedSize: 2 ** 52 })).rejects.toThrow(/not enough free space/);
    expect(await exists(p.partialPath)).toBe(false);
  });
});
