import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUploadId, PartialUploads } from '../../../src-main/os-images/partial-uploads.js';
import { tempDir } from '../../helpers/test-core.js';

let dir: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  dir = await tempDir('bootwright-partials-');
});
afterAll(async () => dir.remove());

describe('partial uploads', () => {
  it('lists resumable uploads with their received bytes, cancels one, claims one request at a time', async () => {
    const uploads = new PartialUploads({ imagesDir: dir.dir });
    const id = newUploadId();
    expect(id).toMatch(/^[a-f0-9]{32}$/);
    await uploads.writeMeta({ upload_id: id, file_name: 'a.iso', name: null, size: 10, sha256: null, overwrite: false, created_at: new Date().toISOString() });
    await writeFile(uploads.partPath(id), 'abcd');
    expect(await uploads.list()).toEqual([expect.objectContaining({ upload_id: id, file_name: 'a.iso', received: 4, size: 10 })]);
    const signal = uploads.claim(id);
    expect(() => uploads.claim(id)).toThrow(/another request/);
    const cancelled = await uploads.cancel(id);
    expect(cancelled.received).toBe(4);
    expect(signal.aborted).toBe(true);
    expect(await uploads.list()).toEqual([]);
    expect(await uploads.received(id)).toBe(0);
    uploads.release(id);
    await expect(uploads.cancel(id)).rejects.toThrow(/not found|does not exist|partial upload/i);
  });

  it('sweeps stale partials and partial files nobody writes, keeps fresh and active ones', async () => {
    let now = Date.now();
    const uploads = new PartialUploads({ imagesDir: dir.dir, maxAgeMs: 60_000, now: () => now });
    const stale = newUploadId();
    const fresh = newUploadId();
    const orphan = newUploadId();
    const active = newUploadId();
    for (const id of [stale, fresh]) {
      await uploads.writeMeta({ upload_id: id, file_name: 'a.iso', name: null, size: null, sha256: null, overwrite: false, created_at: new Date().toISOString() });
      await writeFile(uploads.partPath(id), 'x');
    }
    await writeFile(uploads.partPath(orphan), 'x');
    await writeFile(uploads.partPath(active), 'x');
    uploads.claim(active);
    const old = new Date(now - 120_000);
    await utimes(uploads.partPath(stale), old, old);
    await utimes(path.join(uploads.dir, `${stale}.json`), old, old);
    const removed = await uploads.sweep();
    expect(removed.sort()).toEqual([stale, orphan].sort());
    expect((await uploads.list()).map((upload) => upload.upload_id)).toEqual([fresh]);
    expect(await uploads.received(active)).toBe(1);
    now += 120_000;
    expect(await uploads.sweep()).toEqual([fresh]);
  });
});
