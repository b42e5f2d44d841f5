import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, notFound } from '../core/errors.js';
import type { PartialUpload } from './os-images-contract.js';

/*
 * Uploads on their way in (docs/os-images.md, "Resuming an upload"): each is
 * `<images>/.uploads/<upload_id>.part` (the bytes) beside `<upload_id>.json`
 * (what the client said: file name, size, hash). Only raw uploads get a
 * sidecar, and only they are resumable; a multipart upload or a copy import
 * runs on a `.part` without one, which the sweep removes when nobody writes it.
 * Nothing under `.uploads/` is ever listed as an image.
 */

export const UPLOADS_DIR_NAME = '.uploads';
/** A partial upload nobody added bytes to for this long is removed. */
export const PARTIAL_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const ID = /^[a-f0-9]{32}$/;

export interface UploadMeta {
  upload_id: string;
  file_name: string;
  name: string | null;
  size: number | null;
  sha256: string | null;
  overwrite: boolean;
  created_at: string;
}

export function newUploadId(): string {
  return randomBytes(16).toString('hex');
}

export class PartialUploads {
  readonly dir: string;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  /** Upload ids being written right now, with the way to stop them (cancel). */
  private readonly active = new Map<string, AbortController>();

  constructor(options: { imagesDir: string; maxAgeMs?: number; now?: () => number }) {
    this.dir = path.join(options.imagesDir, UPLOADS_DIR_NAME);
    this.maxAgeMs = options.maxAgeMs ?? PARTIAL_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
  }

  partPath(id: string): string {
    return path.join(this.dir, `${id}.part`);
  }

  private metaPath(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  /** Marks `id` as being written (INVALID_STATE when another request writes it); the signal aborts it on cancel. */
  claim(id: string): AbortSignal {
    if (this.active.has(id)) throw new AppError('INVALID_STATE', `upload ${id} is receiving bytes in another request; wait for it to end or cancel it`);
    const controller = new AbortController();
    this.active.set(id, controller);
    return controller.signal;
  }

  release(id: string): void {
    this.active.delete(id);
  }

  isActive(id: string): boolean {
    return this.active.has(id);
  }

  async meta(id: string): Promise<UploadMeta | null> {
    if (!ID.test(id)) return null;
    try {
      const parsed = JSON.parse(await readFile(this.metaPath(id), 'utf8')) as UploadMeta;
      return parsed.upload_id === id ? parsed : null;
    } catch {
      return null;
    }
  }

  /** Written whole (temporary file + rename): a crash leaves the old sidecar or the new one. */
  async writeMeta(meta: UploadMeta): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temporary = `${this.metaPath(meta.upload_id)}.tmp`;
    await writeFile(temporary, `${JSON.stringify(meta)}\n`);
    await rename(temporary, this.metaPath(meta.upload_id));
  }

  /** Bytes in the partial file (0 when there is none). */
  async received(id: string): Promise<number> {
    try {
      return (await stat(this.partPath(id))).size;
    } catch {
      return 0;
    }
  }

  /** The resumable uploads (those with a sidecar), oldest first. */
  async list(): Promise<PartialUpload[]> {
    const uploads: PartialUpload[] = [];
    for (const name of await this.names()) {
      if (!name.endsWith('.json')) continue;
      const meta = await this.meta(name.slice(0, -'.json'.length));
      if (!meta) continue;
      const part = await stat(this.partPath(meta.upload_id)).catch(() => null);
      uploads.push({
        upload_id: meta.upload_id,
        file_name: meta.file_name,
        received: part?.size ?? 0,
        size: meta.size,
        updated_at: new Date(part?.mtimeMs ?? Date.parse(meta.created_at)).toISOString(),
      });
    }
    return uploads.sort((a, b) => a.updated_at.localeCompare(b.updated_at));
  }

  /** Cancels an upload: stops a request still writing it and removes its files. NOT_FOUND when there is none. */
  async cancel(id: string): Promise<PartialUpload> {
    const listed = (await this.list()).find((upload) => upload.upload_id === id);
    if (!listed) throw notFound('partial upload', id);
    this.active.get(id)?.abort(new AppError('GONE', `upload ${id} was cancelled`));
    await this.remove(id);
    return listed;
  }

  async remove(id: string): Promise<void> {
    await unlink(this.partPath(id)).catch(() => undefined);
    await unlink(this.metaPath(id)).catch(() => undefined);
  }

  /**
   * Removes what no one will finish: resumable uploads without new bytes for
   * the maximum age, and partial files without a sidecar that no request is
   * writing (a multipart upload or copy cut by a crash). Returns the ids removed.
   */
  async sweep(): Promise<string[]> {
    const removed: string[] = [];
    const names = await this.names();
    const ids = new Set(names.map((name) => name.replace(/\.(part|json|json\.tmp)$/, '')).filter((id) => ID.test(id)));
    for (const id of ids) {
      if (this.active.has(id)) continue;
      const hasMeta = names.includes(`${id}.json`);
      const part = await stat(this.partPath(id)).catch(() => null);
      const meta = hasMeta ? await stat(this.metaPath(id)).catch(() => null) : null;
      const last = Math.max(part?.mtimeMs ?? 0, meta?.mtimeMs ?? 0);
      if (!hasMeta || this.now() - last > this.maxAgeMs) {
        await this.remove(id);
        await unlink(`${this.metaPath(id)}.tmp`).catch(() => undefined);
        removed.push(id);
      }
    }
    return removed;
  }

  private async names(): Promise<string[]> {
    try {
      return await readdir(this.dir);
    } catch {
      return [];
    }
  }
}
