import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { AppError, type FieldError } from '../core/errors.js';
import type { ServedRoots } from '../settings/served-roots.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import { MAX_WINDOWSIZE, TFTP_SETTING_LIMITS, type TftpSettingsUpdate } from './tftp-contract.js';

export { TFTP_SETTING_LIMITS } from './tftp-contract.js';

/** The TFTP server's stored settings; `root` null means the boot root (<data-dir>/boot). */
export interface StoredTftpSettings {
  port: number;
  root: string | null;
  max_blksize: number;
  max_windowsize: number;
  timeout: number;
  retries: number;
}

/** A change of the stored settings: the API's update without `enabled` (the service's auto-start flag). */
export type TftpSettingsPatch = Omit<TftpSettingsUpdate, 'enabled'>;

export const TFTP_DEFAULTS: StoredTftpSettings = {
  port: 69,
  root: null,
  // 1468 = 1500-byte Ethernet MTU - 20 (IP) - 8 (UDP) - 4 (TFTP): larger blocks fragment on a normal LAN.
  max_blksize: 1468,
  max_windowsize: MAX_WINDOWSIZE,
  timeout: 2,
  retries: 5,
};

export interface TftpUpdateOptions {
  /** How fields are named in errors (default `body`). */
  fieldPrefix?: string;
  /**
   * Whether the caller may change `root` (the admin role; the route decides).
   * A patch that sends the current root again is not a change.
   */
  mayChangeRoot?: boolean;
}

/** A root change a patch asks for, in the terms the API shows (the boot root's path for null). */
export interface TftpRootChange {
  from: string;
  to: string | null;
}

/** The settings section (config file, section "tftp") with the boot root as the default root. */
export class TftpSettings {
  readonly bootRoot: string;
  private readonly section: Section<StoredTftpSettings>;
  private readonly roots: ServedRoots;
  /** Serialises updates so a root check and the write it allows are not interleaved with another update. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(store: Store, bootRoot: string, roots: ServedRoots) {
    this.bootRoot = bootRoot;
    this.roots = roots;
    this.section = store.section<StoredTftpSettings>('tftp', TFTP_DEFAULTS, 'config');
  }

  get(): StoredTftpSettings {
    return this.section.get();
  }

  /** The directory TFTP is configured to serve (not yet checked: see checkedRoot). */
  root(): string {
    return this.get().root ?? this.bootRoot;
  }

  /**
   * The root to serve: the real path of the configured root after the
   * served-root policy accepted it. Throws with the reason otherwise (a root
   * stored by an older version, an allowed root an admin removed since, a
   * folder swapped for a symlink), so the service fails instead of serving it.
   */
  async checkedRoot(): Promise<string> {
    const root = this.root();
    const verdict = await this.roots.check(root);
    if (!verdict.ok) {
      throw new Error(`TFTP root ${root} is refused: ${verdict.problem}; an admin must set another root (PUT /services/tftp {"root": ...}, null for the boot root)`);
    }
    return verdict.real;
  }

  /** The root change `root` (a patch's field) would make, or null when it names the current root (or is absent). */
  rootChange(root: string | null | undefined): TftpRootChange | null {
    if (root === undefined) return null;
    const from = this.root();
    const to = root === null ? this.bootRoot : root;
    // Compared lexically: a different spelling of the same folder counts as a change (the admin decides).
    if (!to.includes('\0') && path.isAbsolute(to) && path.resolve(to) === path.resolve(from)) return null;
    return { from, to: root };
  }

  /**
   * Validates `patch` merged over the current settings (ranges; a new root
   * must pass the served-root policy) and stores it; nothing changes on a bad
   * field. A root change without `mayChangeRoot` is FORBIDDEN. Returns
   * whether anything changed.
   */
  update(patch: TftpSettingsPatch, options: TftpUpdateOptions = {}): Promise<{ changed: boolean; value: StoredTftpSettings }> {
    const run = this.queue.catch(() => undefined).then(() => this.apply(patch, options));
    this.queue = run;
    return run;
  }

  private async apply(patch: TftpSettingsPatch, options: TftpUpdateOptions): Promise<{ changed: boolean; value: StoredTftpSettings }> {
    const fieldPrefix = options.fieldPrefix ?? 'body';
    const current = this.get();
    const rootChange = this.rootChange(patch.root);
    if (rootChange && options.mayChangeRoot === false) {
      const message = 'changing the TFTP root needs the admin role (it decides which files the whole LAN can read)';
      throw new AppError('FORBIDDEN', `${fieldPrefix}.root: ${message}`, { details: [{ field: `${fieldPrefix}.root`, message }] });
    }
    // An unchanged root keeps its stored form; a root the policy no longer accepts is refused when the service starts.
    const next: StoredTftpSettings = { ...current, ...patch, root: current.root };
    const errors: FieldError[] = [];
    for (const [key, limits] of Object.entries(TFTP_SETTING_LIMITS) as [keyof typeof TFTP_SETTING_LIMITS, { min: number; max: number }][]) {
      const value = next[key];
      if (!Number.isInteger(value) || value < limits.min || value > limits.max) {
        errors.push({ field: `${fieldPrefix}.${key}`, message: `must be an integer from ${limits.min} to ${limits.max}` });
      }
    }
    if (rootChange) {
      if (rootChange.to === null) {
        next.root = null;
      } else {
        const verdict = await this.roots.check(rootChange.to);
        if (!verdict.ok) errors.push({ field: `${fieldPrefix}.root`, message: verdict.problem });
        // Stored as the real path (what was checked is what is served); the boot root itself is stored as null.
        else next.root = verdict.real === (await realpath(this.bootRoot).catch(() => null)) ? null : verdict.real;
      }
    }
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', `${errors[0]!.field}: ${errors[0]!.message}`, { details: errors });
    const changed = JSON.stringify(next) !== JSON.stringify(current);
    if (changed) await this.section.set(next);
    return { changed, value: this.get() };
  }
}
