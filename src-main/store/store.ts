import { promises as fs } from 'node:fs';
import { Collection, type Row } from './collection.js';
import type { RecoveryReport } from './durable-json-adapter.js';
import { STORE_FILE_NAMES, STORE_MIGRATIONS, type StoreFileName } from './migrations.js';
import { Section } from './section.js';
import { StoreFile, type Migration } from './store-file.js';

export interface StoreOptions {
  dataDir: string;
  /** Called for every file that was unreadable at open and was moved aside. */
  onRecovery?: (report: RecoveryReport) => void;
  /** Overrides the built-in migrations (tests). */
  migrations?: Partial<Record<StoreFileName, readonly Migration[]>>;
}

/** The embedded JSON store: a few durable lowdb files in the data directory. */
export class Store {
  readonly dataDir: string;
  private readonly files: Map<StoreFileName, StoreFile>;
  private readonly collections = new Map<string, Collection<Row>>();
  private readonly sections = new Map<string, Section<object>>();

  private constructor(dataDir: string, files: Map<StoreFileName, StoreFile>) {
    this.dataDir = dataDir;
    this.files = files;
  }

  static async open(options: StoreOptions): Promise<Store> {
    await fs.mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    const files = new Map<StoreFileName, StoreFile>();
    for (const name of STORE_FILE_NAMES) {
      const file = new StoreFile({
        dataDir: options.dataDir,
        name,
        migrations: options.migrations?.[name] ?? STORE_MIGRATIONS[name],
        ...(options.onRecovery ? { onRecovery: options.onRecovery } : {}),
      });
      await file.open();
      files.set(name, file);
    }
    return new Store(options.dataDir, files);
  }

  file(name: StoreFileName): StoreFile {
    const file = this.files.get(name);
    if (!file) throw new Error(`unknown store file ${name}`);
    return file;
  }

  /** The collection `name` in `file` (config by default); one instance per name. */
  collection<T extends Row>(name: string, file: StoreFileName = 'config'): Collection<T> {
    const key = `${file}/${name}`;
    let collection = this.collections.get(key);
    if (!collection) {
      collection = new Collection<Row>(this.file(file), name);
      this.collections.set(key, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /** The settings section `name` in `file` (config by default). */
  section<T extends object>(name: string, defaults: T, file: StoreFileName = 'config'): Section<T> {
    const key = `${file}/${name}`;
    let section = this.sections.get(key);
    if (!section) {
      section = new Section<object>(this.file(file), name, defaults);
      this.sections.set(key, section);
    }
    return section as Section<T>;
  }

  async close(): Promise<void> {
    for (const file of this.files.values()) await file.close();
  }
}
