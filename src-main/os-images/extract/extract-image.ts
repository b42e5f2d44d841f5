import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, symlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../core/errors.js';
import type { ExtractProgress, ExtractRequest, ImageExtractor } from '../image-ports.js';
import { TreeLookup } from '../detect/tree-lookup.js';
import { bootSelection } from './boot-selection.js';
import { copyTreeFile } from './copy-file.js';
import { planFull, planPaths, type Plan, type Skipped } from './extract-plan.js';

/*
 * Extraction (docs/os-detection.md, "Extraction"): copies an image's boot
 * files (mode boot) or its whole tree (full) byte for byte into `target`.
 *
 * A half extraction is never served: everything is written into a sibling
 * temporary directory (".<name>.extract-<random>") and renamed into place
 * at the end. With `overwrite`, the old directory is moved aside only
 * then, and removed after the new one is in place; without it, an existing
 * target is a CONFLICT before anything is written. An abort or an error
 * removes the temporary directory and leaves any old target untouched.
 */

export interface ExtractResult {
  files: number;
  bytes: number;
  /** Entries not written: unsafe names, duplicates, symlinks leading out of the image. */
  skipped: Skipped[];
}

/** Progress is reported at most this often (the final report always comes). */
export const PROGRESS_INTERVAL_MS = 500;

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

function sibling(target: string, purpose: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${purpose}-${randomBytes(6).toString('hex')}`);
}

/** A path on disk for a plan's relative path, checked to stay inside `root` (the plan's names are checked already; this is the belt to those braces). */
function onDisk(root: string, rel: string): string {
  const full = path.resolve(root, ...rel.split('/'));
  if (full !== root && !full.startsWith(`${root}${path.sep}`)) throw new AppError('VALIDATION_FAILED', `extraction: ${rel} would land outside ${root}`);
  return full;
}

class ProgressReporter {
  private lastAt = 0;
  readonly state: ExtractProgress;
  private readonly listener: (progress: ExtractProgress) => void;

  constructor(plan: Plan, listener: (progress: ExtractProgress) => void) {
    this.state = { files: 0, bytes: 0, total_files: plan.files.length, total_bytes: plan.totalBytes };
    this.listener = listener;
  }

  tick(final = false): void {
    const now = Date.now();
    if (!final && now - this.lastAt < PROGRESS_INTERVAL_MS) return;
    this.lastAt = now;
    this.listener({ ...this.state });
  }
}

async function writePlan(request: ExtractRequest, plan: Plan, root: string): Promise<void> {
  const { tree, signal } = request;
  const progress = new ProgressReporter(plan, request.onProgress);
  progress.tick(true);
  for (const dir of plan.dirs) await mkdir(onDisk(root, dir.rel), { recursive: true, mode: 0o755 });
  for (const file of plan.files) {
    signal.throwIfAborted();
    const destination = onDisk(root, file.rel);
    await copyTreeFile(tree, file.treePath, file.size, destination, signal, (count) => {
      progress.state.bytes += count;
      progress.tick();
    });
    const mtime = new Date(file.mtimeMs);
    if (!Number.isNaN(mtime.getTime())) await utimes(destination, mtime, mtime);
    progress.state.files += 1;
    progress.tick();
  }
  for (const link of plan.links) {
    signal.throwIfAborted();
    await symlink(link.target, onDisk(root, link.rel));
  }
  progress.tick(true);
}

/** Copies the boot files or the whole tree of an image into `target` (see the comment at the top). */
export async function extractImage(request: ExtractRequest): Promise<ExtractResult> {
  const { tree, target, signal } = request;
  if (!path.isAbsolute(target)) throw new AppError('VALIDATION_FAILED', `extraction target ${target} is not an absolute path`);
  const resolvedTarget = path.resolve(target);
  signal.throwIfAborted();
  if (!request.overwrite && (await exists(resolvedTarget))) {
    throw new AppError('CONFLICT', `${resolvedTarget} exists already: extract with overwrite to replace it`);
  }
  const plan = request.mode === 'full' ? await planFull(tree, signal) : await planPaths(tree, (await bootSelection(new TreeLookup(tree), request.detection)).paths, signal);
  await mkdir(path.dirname(resolvedTarget), { recursive: true });
  const staging = sibling(resolvedTarget, 'extract');
  try {
    await mkdir(staging, { mode: 0o755 });
    await writePlan(request, plan, staging);
    signal.throwIfAborted();
    await publish(staging, resolvedTarget, request.overwrite);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  return { files: plan.files.length, bytes: plan.totalBytes, skipped: plan.skipped };
}

/** Moves the finished staging directory to `target`, replacing an old one only now (and only with overwrite). */
async function publish(staging: string, target: string, overwrite: boolean): Promise<void> {
  if (!(await exists(target))) {
    await rename(staging, target);
    return;
  }
  if (!overwrite) throw new AppError('CONFLICT', `${target} appeared while extracting: extract with overwrite to replace it`);
  const old = sibling(target, 'old');
  await rename(target, old);
  try {
    await rename(staging, target);
  } catch (err) {
    // Put the old extraction back so the boot files being served do not vanish.
    await rename(old, target);
    throw err;
  }
  await rm(old, { recursive: true, force: true });
}

/** The same function typed as the area's port. */
export const imageExtractor: ImageExtractor = extractImage;
