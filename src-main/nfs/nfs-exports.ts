import { errorMessage } from '../core/errors.js';
import { FolderTree } from '../core/folder-tree.js';
import type { Logger } from '../core/logger.js';
import type { ReadOnlyTree } from '../core/read-only-tree.js';
import type { EventInput } from '../events/event-types.js';
import type { OsImage } from '../os-images/os-images-contract.js';
import type { ServedRoots } from '../settings/served-roots.js';
import { ClientSubnets } from './client-subnets.js';
import { IMAGE_EXPORT_PREFIX, type NfsServedExport } from './nfs-contract.js';
import { IMAGE_EXPORT_ID_BASE, normaliseExportPath, type StoredNfsExport, type StoredNfsSettings } from './nfs-settings.js';
import type { ExportTable, ServedExport } from './export-table.js';

/*
 * The export table the MOUNT and NFS programs read (export-table.ts):
 * the stored exports whose source can be served now, plus the automatic
 * exports of mounted OS images at /iso/<slug>. It is rebuilt on every change
 * that can alter it (settings, allowed roots, images mounted or unmounted,
 * served interfaces) and swapped whole, so the programs always see one
 * consistent table and running clients keep going without a restart. Trees
 * the new table still serves (same export, same source) are carried over, so
 * their open descriptors and caches survive; the others are closed.
 */

/** What the table reads from the os-images area. */
export interface ExportImages {
  get(id: number): OsImage | undefined;
  list(): OsImage[];
  /** A newly opened tree of the image's content; the caller closes it. */
  openTree(id: number): Promise<ReadOnlyTree>;
}

export interface NfsExportsDeps {
  settings: { get(): StoredNfsSettings };
  roots: Pick<ServedRoots, 'check'>;
  images: ExportImages;
  /** The subnets of the served interfaces: the image exports' clients while image_clients is null. */
  servedSubnets: () => string[];
  events: { emit(input: EventInput): unknown };
  log: Pick<Logger, 'info' | 'warn'>;
  /** Opens a checked folder (default FolderTree.open). */
  openFolder?: (real: string) => Promise<ReadOnlyTree>;
}

/** One row of the table: served (tree set) or not (problem set). */
interface Entry {
  view: NfsServedExport;
  /** What the tree reads: the export is carried over only when this stays the same. */
  sourceKey: string;
  served: ServedExport | null;
}

class Served implements ServedExport {
  constructor(
    readonly id: number,
    readonly path: string,
    readonly tree: ReadOnlyTree,
    readonly source: string,
    readonly clients: readonly string[],
    private readonly subnets: ClientSubnets,
  ) {}

  allows(address: string): boolean {
    return this.subnets.allows(address);
  }
}

const NO_IMAGE_CLIENTS =
  'no client may mount it: image_clients is not set and no served interface has a subnet; set image_clients (e.g. ["192.168.50.0/24"]) or choose the interfaces to serve';

export class NfsExports implements ExportTable {
  private entries: Entry[] = [];
  private byIdMap = new Map<number, ServedExport>();
  private byPathMap = new Map<string, ServedExport>();
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private readonly openFolder: (real: string) => Promise<ReadOnlyTree>;
  private readonly rebuiltListeners = new Set<() => void>();

  constructor(private readonly deps: NfsExportsDeps) {
    this.openFolder = deps.openFolder ?? ((real) => FolderTree.open(real));
  }

  list(): readonly ServedExport[] {
    return [...this.byIdMap.values()];
  }

  byPath(path: string): ServedExport | undefined {
    return this.byPathMap.get(normaliseExportPath(path));
  }

  byId(id: number): ServedExport | undefined {
    return this.byIdMap.get(id);
  }

  /** Every export, served or not, with why not (GET /services/nfs/status). */
  views(): NfsServedExport[] {
    return this.entries.map((entry) => ({ ...entry.view, clients: [...entry.view.clients] }));
  }

  /** Why a stored export is not served now (null when it is, or when the table has not judged it yet). */
  problemOf(id: number): string | null {
    return this.entries.find((entry) => entry.view.id === id)?.view.problem ?? null;
  }

  /**
   * Rebuilds the table from the settings, the allowed roots and the mounted
   * images. Calls made while one runs are folded into one more run after it,
   * so the last state always wins and no two rebuilds interleave.
   */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = (async () => {
      do {
        this.again = false;
        await this.rebuild().catch((error: unknown) => this.deps.log.warn(`NFS exports were not rebuilt: ${errorMessage(error)}`));
      } while (this.again && !this.closed);
    })().finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  /** Called after every swap of the table (the server drops what it cached of the old trees); returns the unsubscribe. */
  onRebuilt(listener: () => void): () => void {
    this.rebuiltListeners.add(listener);
    return () => this.rebuiltListeners.delete(listener);
  }

  /** Closes every tree; the table serves nothing afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
    const trees = this.entries.flatMap((entry) => (entry.served ? [entry.served.tree] : []));
    this.entries = [];
    this.byIdMap = new Map();
    this.byPathMap = new Map();
    await Promise.all(trees.map((tree) => tree.close().catch(() => undefined)));
  }

  private async rebuild(): Promise<void> {
    if (this.closed) return;
    const settings = this.deps.settings.get();
    const previous = new Map(this.entries.map((entry) => [entry.view.id, entry]));
    const carried = new Set<ReadOnlyTree>();
    const next: Entry[] = [];
    const reuse = (id: number, sourceKey: string): ReadOnlyTree | null => {
      const old = previous.get(id);
      if (!old?.served || old.sourceKey !== sourceKey) return null;
      carried.add(old.served.tree);
      return old.served.tree;
    };
    for (const stored of settings.exports) next.push(await this.storedEntry(stored, reuse));
    if (settings.export_mounted_images) {
      const clients = settings.image_clients ?? this.deps.servedSubnets();
      const taken = new Set(next.map((entry) => entry.view.path));
      for (const image of this.deps.images.list()) {
        if (image.mounted === null) continue;
        next.push(await this.imageEntry(image, clients, taken, reuse));
      }
    }
    if (this.closed) {
      await closeAll(next.flatMap((entry) => (entry.served && !carried.has(entry.served.tree) ? [entry.served.tree] : [])));
      return;
    }
    const before = signature(this.entries);
    const dropped = this.entries.flatMap((entry) => (entry.served && !carried.has(entry.served.tree) ? [entry.served.tree] : []));
    this.entries = next;
    this.byIdMap = new Map(next.flatMap((entry) => (entry.served ? [[entry.served.id, entry.served] as const] : [])));
    this.byPathMap = new Map(next.flatMap((entry) => (entry.served ? [[entry.served.path, entry.served] as const] : [])));
    for (const listener of this.rebuiltListeners) listener();
    // Closed after the swap: no lookup hands out a tree that is closing.
    await closeAll(dropped);
    const after = signature(next);
    if (after !== before) {
      const served = next.filter((entry) => entry.served).map((entry) => entry.view.path);
      const problems = next.filter((entry) => entry.view.problem !== null).map((entry) => `${entry.view.path}: ${entry.view.problem}`);
      this.deps.log.info(`NFS exports: ${served.join(', ') || 'none'}${problems.length ? `; not served: ${problems.join('; ')}` : ''}`);
      this.deps.events.emit({
        kind: 'nfs.exports.changed',
        message: `NFS exports changed: ${served.length} served${problems.length ? `, ${problems.length} not served` : ''}`,
        detail: { served, not_served: problems },
      });
    }
  }

  private async storedEntry(stored: StoredNfsExport, reuse: (id: number, key: string) => ReadOnlyTree | null): Promise<Entry> {
    const base = { id: stored.id, path: stored.path, automatic: false, clients: [...stored.clients] };
    const source = stored.folder !== null ? `folder ${stored.folder}` : `image ${stored.image_id ?? '?'}${this.imageLabel(stored.image_id)}`;
    const notServed = (problem: string): Entry => ({ view: { ...base, source, problem }, sourceKey: '', served: null });
    if (!stored.enabled) return notServed('disabled');
    let subnets: ClientSubnets;
    try {
      subnets = new ClientSubnets(stored.clients);
    } catch (error) {
      return notServed(`its clients do not parse: ${errorMessage(error)}`);
    }
    if (stored.folder !== null) {
      // Checked again before every (re)open: an allowed root removed since, or the folder swapped for a symlink, stops it.
      const verdict = await this.deps.roots.check(stored.folder);
      if (!verdict.ok) return notServed(verdict.problem);
      const sourceKey = `folder:${verdict.real}`;
      const tree = reuse(stored.id, sourceKey) ?? (await this.open(() => this.openFolder(verdict.real)));
      if (typeof tree === 'string') return notServed(`folder ${stored.folder} cannot be opened: ${tree}`);
      return { view: { ...base, source, problem: null }, sourceKey, served: new Served(stored.id, stored.path, tree, source, base.clients, subnets) };
    }
    const imageId = stored.image_id;
    const image = imageId === null ? undefined : this.deps.images.get(imageId);
    if (imageId === null || !image) return notServed(`OS image ${imageId ?? '?'} does not exist any more`);
    return this.imageServed(image, stored.id, stored.path, base.clients, subnets, source, false, reuse);
  }

  private async imageEntry(image: OsImage, clients: readonly string[], taken: Set<string>, reuse: (id: number, key: string) => ReadOnlyTree | null): Promise<Entry> {
    const id = IMAGE_EXPORT_ID_BASE + image.id;
    const path = `${IMAGE_EXPORT_PREFIX}/${image.slug}`;
    const source = `image ${image.id} (${image.file_name})`;
    const base = { id, path, source, automatic: true, clients: [...clients] };
    // Settings validation keeps stored exports out of /iso while this is on; a path taken anyway is not served twice.
    if (taken.has(path)) return { view: { ...base, problem: `${path} is already a stored export's path` }, sourceKey: '', served: null };
    let subnets: ClientSubnets;
    try {
      subnets = new ClientSubnets(clients);
    } catch (error) {
      return { view: { ...base, problem: `image_clients do not parse: ${errorMessage(error)}` }, sourceKey: '', served: null };
    }
    if (subnets.empty) return { view: { ...base, problem: NO_IMAGE_CLIENTS }, sourceKey: '', served: null };
    return this.imageServed(image, id, path, base.clients, subnets, source, true, reuse);
  }

  private async imageServed(
    image: OsImage,
    id: number,
    path: string,
    clients: readonly string[],
    subnets: ClientSubnets,
    source: string,
    automatic: boolean,
    reuse: (id: number, key: string) => ReadOnlyTree | null,
  ): Promise<Entry> {
    const view = { id, path, source, automatic, clients: [...clients] };
    if (image.state === 'error') return { view: { ...view, problem: `OS image ${image.name} is unreadable` }, sourceKey: '', served: null };
    const sourceKey = `image:${image.id}:${image.path}`;
    const tree = reuse(id, sourceKey) ?? (await this.open(() => this.deps.images.openTree(image.id)));
    if (typeof tree === 'string') return { view: { ...view, problem: `OS image ${image.name} cannot be opened: ${tree}` }, sourceKey: '', served: null };
    return { view: { ...view, problem: null }, sourceKey, served: new Served(id, path, tree, source, view.clients, subnets) };
  }

  private imageLabel(id: number | null): string {
    const image = id === null ? undefined : this.deps.images.get(id);
    return image ? ` (${image.file_name})` : '';
  }

  /** The opened tree, or the reason it could not be opened. */
  private async open(opener: () => Promise<ReadOnlyTree>): Promise<ReadOnlyTree | string> {
    try {
      return await opener();
    } catch (error) {
      return errorMessage(error);
    }
  }
}

/** What a table serves and why the rest is not: a change of either is an nfs.exports.changed event. */
function signature(entries: readonly Entry[]): string {
  return JSON.stringify(entries.map((entry) => [entry.view.id, entry.view.path, entry.view.source, entry.view.clients, entry.served !== null, entry.view.problem]));
}

async function closeAll(trees: readonly ReadOnlyTree[]): Promise<void> {
  await Promise.all(trees.map((tree) => tree.close().catch(() => undefined)));
}
