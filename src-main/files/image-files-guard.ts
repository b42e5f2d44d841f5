import path from 'node:path';
import { AppError } from '../core/errors.js';
import type { OsImage } from '../os-images/os-images-contract.js';
import type { BeforeDelete } from './files-service.js';

/**
 * The file manager never deletes an OS image's file behind the images area's
 * back: deleting the ISO (or a folder holding it) would leave a mounted
 * image serving from a vanished file and a record pointing nowhere. The
 * answer names the images and the way that works (DELETE /os-images/{id}).
 */
export function imageFilesGuard(images: () => readonly OsImage[]): BeforeDelete {
  return async (_root, absolutePath) => {
    const inside = (file: string) => file === absolutePath || file.startsWith(absolutePath.endsWith(path.sep) ? absolutePath : absolutePath + path.sep);
    const users = images().filter((image) => inside(image.path));
    if (users.length === 0) return;
    throw new AppError(
      'CONFLICT',
      `${absolutePath} holds the file of OS image ${users.map((image) => `"${image.name}" (#${image.id})`).join(', ')}; delete the image with DELETE /os-images/{id} instead`,
      { details: users.map((image) => ({ field: 'query.path', message: `OS image #${image.id} ${image.name}: ${image.path}` })) },
    );
  };
}
