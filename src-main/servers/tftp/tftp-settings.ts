import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, type FieldError } from '../../core/errors.js';
import type { Section } from '../../store/section.js';
import type { Store } from '../../store/store.js';
import { MAX_BLKSIZE, MAX_TIMEOUT_S, MAX_WINDOWSIZE, MIN_TIMEOUT_S } from './tftp-constants.js';

/** The TFTP server's stored settings; `root` null means the boot root (<data-dir>/boot). */
export interface StoredTftpSettings {
  port: number;
  root: string | null;
  max_blksize: number;
  max_windowsize: number;
  timeout: number;
  retries: number;
}

export type TftpSettingsPatch = Partial<Omit<StoredTftpSettings, 'root'>> & { root?: string | null };

export const TFTP_SETTING_LIMITS = {
  port: { min: 1, max: 65535 },
  /** A cap below RFC 1350's 512 would be meaningless: clients that ask for nothing get 512 anyway. */
  max_blksize: { min: 512, max: MAX_BLKSIZE },
  max_windowsize: { min: 1, max: MAX_WINDOWSIZE },
  timeout: { min: MIN_TIMEOUT_S, max: MAX_TIMEOUT_S },
  retries: { min: 1, max: 20 },
} as const;

export const TFTP_DEFAULTS: StoredTftpSettings = {
  port: 69,
  root: null,
  // 1468 = 1500-byte Ethernet MTU - 20 (IP) - 8 (UDP) - 4 (TFTP): larger blocks fragment on a normal LAN.
  max_blksize: 1468,
  max_windowsize: MAX_WINDOWSIZE,
  timeout: 2,
  retries: 5,
};

/** The settings section (config file, section "tftp") with the boot root as the default root. */
export class TftpSettings {
  readonly bootRoot: string;
  private readonly section: Section<StoredTftpSettings>;

  constructor(store: Store, bootRoot: string) {
    this.bootRoot = bootRoot;
    this.section = store.section<StoredTftpSettings>('tftp', TFTP_DEFAULTS, 'config');
  }

  get(): StoredTftpSettings {
    return this.section.get();
  }

  /** The directory TFTP serves. */
  root(): string {
    return this.get().root ?? this.bootRoot;
  }

  /**
   * Validates `patch` merged over the current settings (ranges, an existing
   * absolute root directory) and stores it; nothing changes on a bad field.
   * Returns whether anything changed.
   */
  async update(patch: TftpSettingsPatch, fieldPrefix = 'body'): Promise<{ changed: boolean; value: StoredTftpSettings }> {
    const current = this.get();
    const next: StoredTftpSettings = { ...current, ...patch };
    const errors: FieldError[] = [];
    for (const [key, limits] of Object.entries(TFTP_SETTING_LIMITS) as [keyof typeof TFTP_SETTING_LIMITS, { min: number; max: number }][]) {
      const value = next[key];
      if (!Number.isInteger(value) || value < limits.min || value > limits.max) {
        errors.push({ field: `${fieldPrefix}.${key}`, message: `must be an integer from ${limits.min} to ${limits.max}` });
      }
    }
    if (next.root !== null) {
      const problem = await rootProblem(next.root);
      if (problem) errors.push({ field: `${fieldPrefix}.root`, message: problem });
      else next.root = path.resolve(next.root) === path.resolve(this.bootRoot) ? null : path.resolve(next.root);
    }
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', `${errors[0]!.field}: ${errors[0]!.message}`, { details: errors });
    const changed = JSON.stringify(next) !== JSON.stringify(current);
    if (changed) await this.section.set(next);
    return { changed, value: this.get() };
  }
}

async function rootProblem(root: string): Promise<string | null> {
  if (root.length === 0 || !path.isAbsolute(root)) return 'must be an absolute directory path (or null for the boot root)';
  if (root.includes('\0')) return 'must not contain NUL';
  const info = await stat(root).catch(() => null);
  if (!info) return `directory ${root} does not exist`;
  if (!info.isDirectory()) return `${root} is not a directory`;
  return null;
}
