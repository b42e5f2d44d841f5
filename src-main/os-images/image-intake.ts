import { unreadableImage } from './unreadable-image.js';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errorMessage, isAppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { receiveFile } from '../core/upload/receive-file.js';
import type { EventLog } from '../events/event-log.js';
import { checkImagePath, type RootChecker } from './import-path.js';
import { isImageFileName, slugFromFileName } from './image-names.js';
import type { ImageSettingsStore } from './image-settings.js';
import { FILE_MISSING, OsImageService, type InspectedImage } from './os-image-service.js';
import { MAX_IMAGE_BYTES, type ImportBody, type OsImage } from './os-images-contract.js';
import { newUploadId, type PartialUploads } from './partial-uploads.js';

/*
 * Images that come from files already on this machine: POST
 * /os-images/import (link: used where it is, hashed in the background; copy:
 * copied into the images folder through the same receiving path as uploads)
 * and files that appear in the drop folder (linked, source drop_folder).
 */

export interface ImageIntakeDeps {
  images: OsImageService;
  uploads: PartialUploads;
  roots: RootChecker;
  settings: ImageSettingsStore;
  events: EventLog;
  log: Logger;
}

export class ImageIntake {
  private readonly deps: ImageIntakeDeps;
  /** Drop-folder files the reader refused, by path and size: not retried (nor reported again) until they change. */
  private readonly refused = new Map<string, number>();

  constructor(deps: ImageIntakeDeps) {
    this.deps = deps;
  }

  /** Reads the file and refuses (400, the reader's reason naming `field`) what is not an image. */
  private async inspect(file: string, fileName: string, field: string): Promise<InspectedImage> {
    try {
      return await this.deps.images.inspect(file, fileName);
    } catch (error) {
      if (isAppError(error) && error.code === 'VALIDATION_FAILED') {
        throw unreadableImage(error, fileName, field);
      }
      throw OsImageService.asRefusal(error, field);
    }
  }

  async importFile(body: ImportBody): Promise<OsImage> {
    const checked = await checkImagePath(body.path, this.deps.roots);
    const existing = this.deps.images.byPath(checked.real);
    if (existing) throw new AppError('CONFLICT', `${checked.real} is already image ${existing.id} (${existing.name})`, { details: [{ field: 'body.path', message: `already image ${existing.id}` }] });
    const fileName = path.basename(checked.real);
    if ((body.mode ?? 'link') === 'link') {
      const inspected = await this.inspect(checked.real, fileName, 'body.path');
      return this.deps.images.add({ path: checked.real, file_name: fileName, size: checked.size, sha256: null, source: 'import', owned: false, name: body.name, inspected });
    }
    return this.copy(checked.real, fileName, checked.size, body.name);
  }

  /** Copies into the images folder (free space checked, hashed on the way, published whole), then adds the copy as an owned image. */
  private async copy(source: string, fileName: string, size: number, name: string | undefined): Promise<OsImage> {
    const targetName = isImageFileName(fileName) ? fileName : `${slugFromFileName(fileName)}${path.extname(fileName).toLowerCase()}`;
    const finalPath = path.join(this.deps.images.imagesDir, targetName);
    const taken = this.deps.images.byPath(finalPath);
    if (taken) throw new AppError('CONFLICT', `${targetName} is already image ${taken.id} in the images folder`, { details: [{ field: 'body.path', message: `${targetName} exists` }] });
    const id = newUploadId();
    const signal = this.deps.uploads.claim(id);
    let inspected: InspectedImage | null = null;
    try {
      const received = await receiveFile({
        source: createReadStream(source),
        finalPath,
        partialPath: this.deps.uploads.partPath(id),
        overwrite: false,
        maxBytes: MAX_IMAGE_BYTES,
        expectedSize: size,
        signal,
        verify: async (partial) => {
          inspected = await this.inspect(partial, targetName, 'body.path');
        },
        onProgress: (bytes, total) => {
          this.deps.events.emit({
            kind: 'os_image.copy.progress',
            message: `copying ${fileName}: ${bytes} of ${total ?? '?'} bytes`,
            detail: { copy_id: id, file_name: targetName, source, bytes, total, percent: total ? Math.floor((bytes / total) * 100) : null },
          });
        },
      });
      if (!inspected) throw new AppError('INTERNAL', `the copy of ${fileName} was not inspected`);
      return await this.deps.images.add({ path: finalPath, file_name: targetName, size: received.size, sha256: received.sha256, source: 'import', owned: true, name, inspected });
    } finally {
      this.deps.uploads.release(id);
    }
  }

  /** A drop-folder file whose size settled: added as a linked image (or read again when its image had lost it). */
  async adoptDropped(file: string, size: number): Promise<void> {
    let real: string;
    try {
      real = (await checkImagePath(file, this.deps.roots, 'drop_folder')).real;
    } catch (error) {
      this.refuseOnce(file, size, errorMessage(error));
      return;
    }
    const existing = this.deps.images.byPath(real);
    if (existing) {
      if (existing.state === 'error' && existing.error === FILE_MISSING) await this.deps.images.reprocess(existing.id).catch(() => undefined);
      return;
    }
    if (this.deps.settings.isIgnored(real, size) || this.refused.get(real) === size) return;
    let inspected: InspectedImage;
    try {
      inspected = await this.inspect(real, path.basename(real), 'drop_folder');
    } catch (error) {
      this.refuseOnce(real, size, errorMessage(error));
      return;
    }
    this.refused.delete(real);
    const current = await stat(real).catch(() => null);
    if (!current) return;
    await this.deps.images.add({ path: real, file_name: path.basename(real), size: current.size, sha256: null, source: 'drop_folder', owned: false, inspected });
  }

  /** A drop-folder file went away: its image (if any) turns to error "file missing" (kept: profiles may name it, and it comes back with the file). */
  async droppedGone(file: string): Promise<void> {
    this.refused.delete(file);
    const row = this.deps.images.byPath(file);
    if (row) await this.deps.images.fileMissing(row.id);
  }

  private refuseOnce(file: string, size: number, reason: string): void {
    if (this.refused.get(file) === size) return;
    this.refused.set(file, size);
    const message = `drop folder: ${path.basename(file)} is not added: ${reason}`;
    this.deps.log.warn(message);
    this.deps.events.emit({ kind: 'os_image.failed', level: 'warn', message, detail: { operation: 'drop_folder', path: file, error: reason } });
  }
}
