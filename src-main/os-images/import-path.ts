import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../core/errors.js';
import type { RootCheck } from '../settings/served-roots.js';
import { hasImageExtension } from './image-names.js';

/*
 * The one check of a path that names an image file on this machine (POST
 * /os-images/import and files found in the drop folder): an absolute path,
 * no '..', no NUL, an .iso/.img name, a regular file whose real path (all
 * symlinks resolved) still has an image name and lies in a directory inside
 * the allowed roots (the served-root policy). A symlink leading out of the
 * roots, a device file or a FIFO is refused, whatever it is called.
 */

export interface RootChecker {
  check(candidate: string): Promise<RootCheck>;
}

function refuse(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field}: ${message}`, { details: [{ field, message }] });
}

/** The problem with the path's text alone (before touching the disk), or null. */
export function importPathSyntaxProblem(input: string): string | null {
  if (input.includes('\0')) return 'the path contains a NUL character';
  // eslint-disable-next-line no-control-regex
  if (/[\u0001-\u001f\u007f]/.test(input)) return 'the path contains control characters';
  if (!path.isAbsolute(input)) return `"${input}" is not an absolute path`;
  if (input.split(/[\\/]/).includes('..')) return `"${input}" contains a ".." segment`;
  if (!hasImageExtension(input)) return `"${path.basename(input)}" is not an image file: the name must end in .iso or .img`;
  return null;
}

export interface CheckedImagePath {
  /** The real path (symlinks resolved): what is stored and opened. */
  real: string;
  size: number;
  mtimeMs: number;
}

/** Checks `input` as an image file to adopt; the real path, or VALIDATION_FAILED naming `field`. */
export async function checkImagePath(input: string, roots: RootChecker, field = 'body.path'): Promise<CheckedImagePath> {
  const syntax = importPathSyntaxProblem(input);
  if (syntax) throw refuse(field, syntax);
  let real: string;
  try {
    await lstat(input);
    real = await realpath(input);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw refuse(field, code === 'ENOENT' ? `${input} does not exist` : `${input} cannot be read (${code ?? 'error'})`);
  }
  const info = await stat(real);
  if (!info.isFile()) throw refuse(field, `${input} is not a regular file (${real})`);
  if (!hasImageExtension(real)) throw refuse(field, `${input} leads to ${real}, which is not an .iso or .img file`);
  const verdict = await roots.check(path.dirname(real));
  if (!verdict.ok) throw refuse(field, `${input}: ${verdict.problem}`);
  return { real: path.join(verdict.real, path.basename(real)), size: info.size, mtimeMs: info.mtimeMs };
}
