import path from 'node:path';
import { Low } from 'lowdb';
import { DurableJsonAdapter, type RecoveryReport } from './durable-json-adapter.js';
import { GroupCommit } from './group-commit.js';

/** The persisted form of a collection: rows plus the id counter (ids are never reused). */
export interface CollectionData {
  next_id: number;
  items: unknown[];
}

/** The shape of every store file. */
export interface StoreFileData {
  schema_version: number;
  collections: Record<string, CollectionData>;
  sections: Record<string, unknown>;
}

/** An ordered migration of one store file from `version - 1` to `version`. */
export interface Migration {
  version: number;
  description: string;
  up(data: StoreFileData): void;
}

export interface StoreFileOptions {
  dataDir: string;
  name: string;
  migrations: readonly Migration[];
  onRecovery?: (report: RecoveryReport) => void;
}

/**
 * One lowdb JSON file of the store, with durable group commits. Its data in
 * memory holds the file's sections and collections (the model the areas
 * read); the file on disk holds the schema version and the sections only:
 * each collection is persisted in its own journal (collection.ts), so a row
 * written never rewrites the file.
 */
export class StoreFile {
  readonly name: string;
  readonly path: string;
  private readonly db: Low<StoreFileData>;
  private readonly adapter: DurableJsonAdapter<StoreFileData>;
  private readonly committer: GroupCommit;
  private readonly migrations: readonly Migration[];

  constructor(options: StoreFileOptions) {
    this.name = options.name;
    this.path = path.join(options.dataDir, `${options.name}.json`);
    this.migrations = [...options.migrations].sort((a, b) => a.version - b.version);
    this.adapter = new DurableJsonAdapter<StoreFileData>(
      this.path,
      options.onRecovery ? { onRecovery: options.onRecovery } : {},
    );
    this.db = new Low<StoreFileData>(this.adapter, emptyFile(0));
    this.committer = new GroupCommit(() => this.adapter.write(this.persisted()));
  }

  get latestVersion(): number {
    return this.migrations.at(-1)?.version ?? 0;
  }

  get data(): StoreFileData {
    return this.db.data;
  }

  /**
   * Reads the file and runs its pending migrations in memory; returns whether
   * any ran. The caller commits (after moving collections still kept in the
   * file to their journals: the commit drops them from the file).
   */
  async open(): Promise<boolean> {
    await this.db.read();
    const data = this.db.data;
    if (!isStoreFileData(data)) {
      throw new Error(`store file ${this.path} does not have the store's shape (schema_version, collections, sections)`);
    }
    if (data.schema_version > this.latestVersion) {
      throw new Error(
        `store file ${this.path} has schema version ${data.schema_version}, newer than this build understands (${this.latestVersion}); refusing to start rather than lose data`,
      );
    }
    let migrated = false;
    for (const migration of this.migrations) {
      if (migration.version <= data.schema_version) continue;
      migration.up(data);
      data.schema_version = migration.version;
      migrated = true;
    }
    return migrated;
  }

  /** What goes to disk: everything but the collections. */
  private persisted(): StoreFileData {
    const data = this.db.data;
    return { schema_version: data.schema_version, collections: {}, sections: data.sections };
  }

  /** Resolves when every change made so far is on disk. */
  commit(): Promise<void> {
    return this.committer.commit();
  }

  async close(): Promise<void> {
    await this.committer.idle();
    await this.adapter.saveLastGood();
  }
}

function emptyFile(version: number): StoreFileData {
  return { schema_version: version, collections: {}, sections: {} };
}

function isStoreFileData(value: unknown): value is StoreFileData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.schema_version === 'number' &&
    typeof v.collections === 'object' && v.collections !== null &&
    typeof v.sections === 'object' && v.sections !== null
  );
}
