import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, type FieldError } from '../core/errors.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import { forbiddenReason, HOST_FLAVOR, isWithin, pathSyntaxProblem, systemDirs, type PathFlavor } from './served-root-policy.js';
import { MAX_ALLOWED_ROOTS, MAX_ROOT_PATH_LENGTH } from './served-roots-contract.js';

/**
 * Where served roots may lie. A served root is any directory Bootwright
 * hands out to the LAN without a login (the TFTP root, the HTTP boot root,
 * and later NFS exports, file roots, the ISO drop folder). Each must:
 *
 * - pass the fixed rules of served-root-policy.ts (never `/`, a system
 *   folder or the data directory), judged on its real path;
 * - lie inside an allowed root: the built-in `<data-dir>/boot` and
 *   `<data-dir>/images`, the `--allowed-root` options, and the roots an admin
 *   stored with PUT /settings/served-roots.
 *
 * Areas call `check` / `require` before storing a root and again before
 * serving it, so a root stored by an older version is refused, not served.
 */

export type AllowedRootSource = 'built-in' | 'config' | 'setting';

export interface AllowedRootView {
  path: string;
  source: AllowedRootSource;
  /** Null when the directory is usable; else why it is ignored (missing, or a forbidden folder). */
  problem: string | null;
}

export type RootCheck = { ok: true; real: string } | { ok: false; problem: string };

interface StoredServedRoots {
  allowed_roots: string[];
}

/** The served folders Bootwright owns inside its data directory, allowed without asking. */
export function builtInRoots(dataDir: string): string[] {
  return [path.join(dataDir, 'boot'), path.join(dataDir, 'images')];
}

export type AllowedRootsListener = (next: readonly string[], previous: readonly string[]) => void | Promise<void>;

export class ServedRoots {
  readonly dataDir: string;
  private readonly configRoots: readonly string[];
  private readonly section: Section<StoredServedRoots>;
  private readonly flavor: PathFlavor;
  private readonly system: readonly string[];
  private readonly listeners = new Set<AllowedRootsListener>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(deps: { store: Store; dataDir: string; configRoots?: readonly string[]; systemDirs?: readonly string[] }) {
    this.dataDir = path.resolve(deps.dataDir);
    this.configRoots = (deps.configRoots ?? []).map((root) => path.resolve(root));
    this.section = deps.store.section<StoredServedRoots>('served_roots', { allowed_roots: [] }, 'config');
    this.flavor = HOST_FLAVOR;
    this.system = deps.systemDirs ?? systemDirs();
  }

  /** The roots an admin stored (real paths). */
  stored(): string[] {
    return [...this.section.get().allowed_roots];
  }

  /** Every allowed root with where it comes from and whether it is usable right now. */
  async describe(): Promise<AllowedRootView[]> {
    const views: AllowedRootView[] = [];
    for (const [source, roots] of this.sources()) {
      for (const root of roots) {
        const verdict = await this.allowedRootCheck(root);
        views.push({ path: root, source, problem: verdict.ok ? null : verdict.problem });
      }
    }
    return views;
  }

  /**
   * Whether `candidate` may be served: an absolute path of an existing
   * directory whose real path passes the fixed rules and lies inside a
   * usable allowed root. On success, `real` is the path to serve.
   */
  async check(candidate: string): Promise<RootCheck> {
    const syntax = pathSyntaxProblem(candidate, this.flavor);
    if (syntax) return { ok: false, problem: syntax };
    const found = await realDirectory(candidate);
    if (!found.ok) return found;
    const forbidden = forbiddenReason(found.real, await this.rulesInput());
    if (forbidden) return { ok: false, problem: describeResolved(candidate, found.real, forbidden) };
    const allowed: string[] = [];
    for (const [, roots] of this.sources()) {
      for (const root of roots) {
        const verdict = await this.allowedRootCheck(root);
        if (verdict.ok) allowed.push(verdict.real);
      }
    }
    if (!allowed.some((root) => isWithin(root, found.real, this.flavor))) {
      return {
        ok: false,
        problem: describeResolved(
          candidate,
          found.real,
          `${found.real} is outside the allowed roots (${allowed.join(', ') || 'none usable'}); an admin can allow more with PUT /settings/served-roots or --allowed-root`,
        ),
      };
    }
    return { ok: true, real: found.real };
  }

  /** `check` for a request field: the real path, or a VALIDATION_FAILED naming `field`. */
  async require(candidate: string, field: string): Promise<string> {
    const verdict = await this.check(candidate);
    if (!verdict.ok) throw new AppError('VALIDATION_FAILED', `${field}: ${verdict.problem}`, { details: [{ field, message: verdict.problem }] });
    return verdict.real;
  }

  /**
   * Replaces the admin's allowed roots. Each must be an existing directory
   * that passes the fixed rules; they are stored as real paths. All or
   * nothing. Listeners (services whose root may have become disallowed) run
   * after the store.
   */
  setAllowed(roots: readonly string[], field = 'body.allowed_roots'): Promise<{ changed: boolean; previous: string[]; value: string[] }> {
    const run = this.queue.catch(() => undefined).then(() => this.applyAllowed(roots, field));
    this.queue = run;
    return run;
  }

  onChange(listener: AllowedRootsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async applyAllowed(roots: readonly string[], field: string): Promise<{ changed: boolean; previous: string[]; value: string[] }> {
    const errors: FieldError[] = [];
    const next: string[] = [];
    if (roots.length > MAX_ALLOWED_ROOTS) errors.push({ field, message: `at most ${MAX_ALLOWED_ROOTS} roots` });
    for (const [index, root] of roots.entries()) {
      const verdict = await this.allowedRootCheck(root);
      if (!verdict.ok) errors.push({ field: `${field}.${index}`, message: verdict.problem });
      else if (!next.includes(verdict.real)) next.push(verdict.real);
    }
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', `${errors[0]!.field}: ${errors[0]!.message}`, { details: errors });
    const previous = this.stored();
    const changed = JSON.stringify(previous) !== JSON.stringify(next);
    if (changed) {
      await this.section.set({ allowed_roots: next });
      for (const listener of this.listeners) await listener(next, previous);
    }
    return { changed, previous, value: this.stored() };
  }

  private sources(): [AllowedRootSource, readonly string[]][] {
    return [
      ['built-in', builtInRoots(this.dataDir)],
      ['config', this.configRoots],
      ['setting', this.stored()],
    ];
  }

  /** An allowed root itself: existing directory, fixed rules passed. */
  private async allowedRootCheck(root: string): Promise<RootCheck> {
    if (root.length > MAX_ROOT_PATH_LENGTH) return { ok: false, problem: `longer than ${MAX_ROOT_PATH_LENGTH} characters` };
    const syntax = pathSyntaxProblem(root, this.flavor);
    if (syntax) return { ok: false, problem: syntax };
    const found = await realDirectory(root);
    if (!found.ok) return found;
    const forbidden = forbiddenReason(found.real, await this.rulesInput());
    return forbidden ? { ok: false, problem: describeResolved(root, found.real, forbidden) } : found;
  }

  /** Real paths are read afresh on each check: a folder swapped for a symlink since the last one is seen. */
  private async rulesInput() {
    const real = async (dir: string) => realpath(dir).catch(() => path.resolve(dir));
    return {
      dataDir: await real(this.dataDir),
      ownRoots: await Promise.all(builtInRoots(this.dataDir).map(real)),
      systemDirs: this.system,
      flavor: this.flavor,
    };
  }
}

async function realDirectory(candidate: string): Promise<RootCheck> {
  let real: string;
  try {
    real = await realpath(candidate);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, problem: code === 'ENOENT' || code === 'ENOTDIR' ? `directory ${candidate} does not exist` : `${candidate} cannot be read (${code ?? String(err)})` };
  }
  const info = await stat(real).catch(() => null);
  if (!info?.isDirectory()) return { ok: false, problem: `${candidate} is not a directory` };
  return { ok: true, real };
}

/** Names the symlink when the real path differs, so "boot/iso is the filesystem root" is not a puzzle. */
function describeResolved(candidate: string, real: string, problem: string): string {
  return path.resolve(candidate) === real ? problem : `${candidate} resolves to ${real}: ${problem}`;
}
