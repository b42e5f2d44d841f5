import type { Stats } from 'node:fs';
import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../boot-files/path-confinement.js';
import { AppError } from '../core/errors.js';
import type { FileType } from './files-contract.js';
import { refuse } from './file-paths.js';

/*
 * The real-path half of the path rules: walking a normalised relative path
 * down from a root's real path one segment at a time, so a symlinked
 * directory is followed only while it stays inside the root, and nothing is
 * created outside it (with `create`, each missing directory is made and
 * checked before the next segment).
 */

export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

export function fileTypeOf(info: Stats): FileType {
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'directory';
  if (info.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** Whether `info` is a device file, socket or FIFO: never read, written or deleted. */
export function isSpecial(info: Stats): boolean {
  return fileTypeOf(info) === 'other';
}

export interface WalkOptions {
  /** The root's real path. */
  rootReal: string;
  /** For messages: `boot`, `images`… */
  rootId: string;
  /** The request field the path came from (named in refusals). */
  field: string;
  /** Make missing directories (upload with parents=true). */
  create?: boolean;
  /** Added to the NOT_FOUND message of a missing directory (e.g. how to have it created). */
  missingHint?: string;
}

/**
 * The real path of the directory `relative` names inside the root. Refused
 * (400) when a segment leads outside the root, is not a directory or is a
 * special file; NOT_FOUND when one is missing (unless `create`).
 */
export async function walkDirectory(relative: string, options: WalkOptions): Promise<string> {
  const { rootReal, rootId, field } = options;
  let current = rootReal;
  const done: string[] = [];
  for (const segment of relative.split('/').filter((part) => part !== '')) {
    done.push(segment);
    const shown = done.join('/');
    const next = path.join(current, segment);
    let info = await lstat(next).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return null;
      throw fsError(shown, error, field);
    });
    if (!info) {
      if (!options.create) throw new AppError('NOT_FOUND', `${rootId}:${shown} does not exist${options.missingHint ? `; ${options.missingHint}` : ''}`);
      await mkdir(next).catch((error: unknown) => {
        if (errnoOf(error) !== 'EEXIST') throw fsError(shown, error, field);
      });
      info = await lstat(next);
    }
    if (isSpecial(info)) throw refuse(field, `${shown} is a device file, socket or FIFO`);
    let real: string;
    try {
      real = await realpath(next);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') throw refuse(field, `${shown} is a symlink that leads nowhere`);
      throw fsError(shown, error, field);
    }
    if (!isInside(rootReal, real)) throw refuse(field, `${shown} leads outside the ${rootId} root`);
    const target = await stat(real);
    if (!target.isDirectory()) throw refuse(field, `${shown} is ${target.isFile() ? 'a file' : 'a device file, socket or FIFO'}, not a directory`);
    current = real;
  }
  return current;
}

/** The lstat of `absolute`, or null when nothing is there. */
export async function lstatOrNull(absolute: string, shown: string, field: string): Promise<Stats | null> {
  return lstat(absolute).catch((error: unknown) => {
    if (errnoOf(error) === 'ENOENT') return null;
    throw fsError(shown, error, field);
  });
}

/** A file system error as an API error: refusals the client caused are 400s naming the field, the rest stay errors with context. */
export function fsError(shown: string, error: unknown, field: string): Error {
  const code = errnoOf(error);
  switch (code) {
    case 'ELOOP':
      return refuse(field, `${shown}: too many levels of symlinks`);
    case 'ENAMETOOLONG':
      return refuse(field, `${shown}: a name is too long`);
    case 'ENOTDIR':
      return refuse(field, `${shown}: a parent is not a directory`);
    case 'EACCES':
    case 'EPERM':
      return new AppError('FORBIDDEN', `${shown}: this server's user may not access it (${code})`);
    case 'ENOSPC':
    case 'EDQUOT':
      return new AppError('PAYLOAD_TOO_LARGE', `${shown}: the file system is full (${code})`);
    default:
      return new Error(`${shown}: ${code ?? String(error)}`, { cause: error });
  }
}
