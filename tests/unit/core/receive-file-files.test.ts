import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { FREE_SPACE_RESERVE_BYTES, receiveFile, requireFreeSpace, type ReceiveFileOptions } from '../../../src-main/core/upload/receive-file.js';
import { fileSystemSpace } from '../../../src-main/metrics/disk-usage.js';
import { tempDir } from '../../helpers/test-core.js';

/*
 * receiveFile as the files area uses it (and the os-images upload reuses):
 * a partial file beside the target, published whole, removed on every failure.
 */

let work: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  work = await tempDir('bootwright-receive-');
});
afterEach(async () => {
  await work.remove();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function chunks(parts: Buffer[], onChunk?: (index: number) => Promise<void> | void): Readable {
  return Readable.from(
    (async function* () {
      for (const [index, part] of parts.entries()) {
        await onChunk?.(index);
        yield part;
      }
    })(),
  );
}

function options(overrides: Partial<ReceiveFileOptions> & Pick<ReceiveFileOptions, 'source'>): ReceiveFileOptions {
  return { finalPath: path.join(work.dir, 'file.bin'), partialPath: path.join(work.dir, '.partial'), overwrite: false, maxBytes: 1024 * 1024, ...overrides };
}

async function errorOf(promise: Promise<unknown>): Promise<AppError | Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Error,
  );
}

describe('receiveFile', () => {
  it('streams to the partial file, hashes on the way, publishes whole and leaves nothing else', async () => {
    const parts = [Buffer.alloc(70_000, 1), Buffer.alloc(33, 2), Buffer.alloc(65_536, 3)];
    const whole = Buffer.concat(parts);
    const progress: number[] = [];
    const received = await receiveFile(options({ source: chunks(parts), expectedSize: whole.length, onProgress: (bytes) => progress.push(bytes), progressIntervalMs: 0 }));
    expect(received).toEqual({ path: path.join(work.dir, 'file.bin'), size: whole.length, sha256: sha256(whole) });
    expect(await readFile(received.path)).toEqual(whole);
    expect(await readdir(work.dir)).toEqual(['file.bin']);
    expect(progress.at(-1)).toBe(whole.length);
  });

  it('refuses to replace an existing file without overwrite (CONFLICT), replaces it with overwrite', async () => {
    const finalPath = path.join(work.dir, 'file.bin');
    await writeFile(finalPath, 'old');
    const refused = await errorOf(receiveFile(options({ source: chunks([Buffer.from('new')]) })));
    expect(refused).toMatchObject({ code: 'CONFLICT' });
    expect(await readFile(finalPath, 'utf8')).toBe('old');
    await receiveFile(options({ source: chunks([Buffer.from('new')]), overwrite: true }));
    expect(await readFile(finalPath, 'utf8')).toBe('new');
    expect(await readdir(work.dir)).toEqual(['file.bin']);
  });

  it('does not clobber a file that appeared while the upload was streaming (no overwrite)', async () => {
    const finalPath = path.join(work.dir, 'file.bin');
    const source = chunks([Buffer.from('one'), Buffer.from('two')], async (index) => {
      if (index === 1) await writeFile(finalPath, 'someone else');
    });
    expect(await errorOf(receiveFile(options({ source })))).toMatchObject({ code: 'CONFLICT' });
    expect(await readFile(finalPath, 'utf8')).toBe('someone else');
    expect(await readdir(work.dir)).toEqual(['file.bin']);
  });

  it('stops at maxBytes (PAYLOAD_TOO_LARGE) and removes the partial file', async () => {
    const source = chunks([Buffer.alloc(600), Buffer.alloc(600)]);
    expect(await errorOf(receiveFile(options({ source, maxBytes: 1000 })))).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await readdir(work.dir)).toEqual([]);
  });

  it('refuses a declared size over maxBytes before reading', async () => {
    expect(await errorOf(receiveFile(options({ source: chunks([Buffer.alloc(1)]), expectedSize: 5000, maxBytes: 1000 })))).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await readdir(work.dir)).toEqual([]);
  });

  it('a body shorter than its declared size is a BAD_REQUEST; nothing is published', async () => {
    expect(await errorOf(receiveFile(options({ source: chunks([Buffer.alloc(10)]), expectedSize: 20 })))).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await readdir(work.dir)).toEqual([]);
  });

  it('a wrong SHA-256 is a VALIDATION_FAILED naming sha256; nothing is published', async () => {
    const error = await errorOf(receiveFile(options({ source: chunks([Buffer.from('abc')]), expectedSha256: 'ab'.repeat(32) })));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'sha256' }] });
    expect(await readdir(work.dir)).toEqual([]);
  });

  it('a body that breaks off removes the partial file, unless the caller keeps it to resume', async () => {
    const broken = () =>
      chunks([Buffer.from('first part;'), Buffer.alloc(0)], (index) => {
        if (index === 1) throw new Error('socket hang up');
      });
    expect((await errorOf(receiveFile(options({ source: broken() })))).message).toMatch(/hang up/);
    expect(await readdir(work.dir)).toEqual([]);

    await errorOf(receiveFile(options({ source: broken(), keepPartialOnFailure: true })));
    // Kept: what reached the disk before the break (bytes still buffered are lost; the size on disk says where to resume).
    const kept = await readFile(path.join(work.dir, '.partial'));
    const whole = Buffer.from('first part;second part');
    expect(whole.subarray(0, kept.length)).toEqual(kept);
    const resumed = await receiveFile(options({ source: chunks([whole.subarray(kept.length)]), resumeFrom: kept.length }));
    expect(await readFile(resumed.path)).toEqual(whole);
    expect(resumed.sha256).toBe(sha256(whole));
    await expect(receiveFile(options({ source: chunks([Buffer.from('x')]), resumeFrom: 3, overwrite: true }))).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await readdir(work.dir)).toEqual(['file.bin']);
  });

  it('an abort signal stops the upload and removes the partial file', async () => {
    const abort = new AbortController();
    const source = chunks([Buffer.from('a'), Buffer.from('b'), Buffer.from('c')], (index) => {
      if (index === 1) abort.abort();
    });
    await errorOf(receiveFile(options({ source, signal: abort.signal })));
    expect(await readdir(work.dir)).toEqual([]);
  });
});

describe('requireFreeSpace', () => {
  it('passes a small file and refuses one larger than the free space and the reserve (413 naming size)', async () => {
    await requireFreeSpace(work.dir, 1024);
    const space = await fileSystemSpace(work.dir);
    expect(space).not.toBeNull();
    const free = space?.free ?? 0;
    const error = await errorOf(requireFreeSpace(work.dir, free - FREE_SPACE_RESERVE_BYTES + 1024 * 1024));
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: [{ field: 'size' }] });
  });
});
