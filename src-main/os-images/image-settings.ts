import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import type { ImageSettings } from './os-images-contract.js';

/** A drop-folder file whose image was deleted (its file kept): not added again while it stays the same size. */
interface IgnoredFile {
  path: string;
  size: number;
}

interface StoredImageSettings extends ImageSettings {
  ignored: IgnoredFile[];
}

const DEFAULTS: StoredImageSettings = { drop_folder: null, auto_mount: false, ignored: [] };
/** Ignored drop-folder files kept at most (oldest forgotten first). */
const MAX_IGNORED = 1000;

/**
 * The `os_images` settings section (config.json, written whole and synced
 * like every section): the drop folder, auto-mount, and the drop-folder
 * files whose images were deleted without their file.
 */
export class ImageSettingsStore {
  private readonly section: Section<StoredImageSettings>;
  private readonly listeners = new Set<(next: ImageSettings, previous: ImageSettings) => void>();

  constructor(store: Store) {
    this.section = store.section<StoredImageSettings>('os_images', DEFAULTS);
  }

  get(): ImageSettings {
    const { drop_folder, auto_mount } = this.section.get();
    return { drop_folder, auto_mount };
  }

  /** Stores the value (the drop folder already checked against the served-root policy) and tells the listeners. */
  async put(next: ImageSettings): Promise<ImageSettings> {
    const previous = this.get();
    await this.section.set({ ...this.section.get(), drop_folder: next.drop_folder, auto_mount: next.auto_mount });
    const stored = this.get();
    for (const listener of this.listeners) listener(stored, previous);
    return stored;
  }

  onChange(listener: (next: ImageSettings, previous: ImageSettings) => void): void {
    this.listeners.add(listener);
  }

  isIgnored(file: string, size: number): boolean {
    return this.section.get().ignored.some((entry) => entry.path === file && entry.size === size);
  }

  async ignore(file: string, size: number): Promise<void> {
    const current = this.section.get();
    const ignored = [...current.ignored.filter((entry) => entry.path !== file), { path: file, size }].slice(-MAX_IGNORED);
    await this.section.set({ ...current, ignored });
  }
}
