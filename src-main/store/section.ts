import type { StoreFile } from './store-file.js';

/**
 * A named settings object in a store file. Reading merges the stored value
 * over the defaults, so a setting added by a later version has its default
 * without a migration.
 */
export class Section<T extends object> {
  readonly name: string;
  private readonly file: StoreFile;
  private readonly defaults: T;

  constructor(file: StoreFile, name: string, defaults: T) {
    this.file = file;
    this.name = name;
    this.defaults = defaults;
  }

  get(): T {
    const stored = this.file.data.sections[this.name];
    return { ...structuredClone(this.defaults), ...(isObject(stored) ? (stored as Partial<T>) : {}) };
  }

  /** Replaces the stored value; resolves when durable. */
  async set(value: T): Promise<T> {
    this.file.data.sections[this.name] = structuredClone(value);
    await this.file.commit();
    return this.get();
  }

  getDefaults(): T {
    return structuredClone(this.defaults);
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
