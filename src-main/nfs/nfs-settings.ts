import { randomBytes } from 'node:crypto';
import { AppError, validationError, type FieldError } from '../core/errors.js';
import type { ServedRoots } from '../settings/served-roots.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import { clientSubnetProblems } from './client-subnets.js';
import {
  EXPORT_PATH_PATTERN,
  IMAGE_EXPORT_PREFIX,
  MAX_EXPORT_PATH_LENGTH,
  NFS_SETTING_LIMITS,
  PORTMAPPER_MODES,
  type NfsExportInput,
  type NfsSettingsUpdate,
  type PortmapperMode,
} from './nfs-contract.js';

/** One stored export (the API adds `problem`, which is not stored: it is judged when served). */
export interface StoredNfsExport {
  id: number;
  path: string;
  /** The folder's real path as checked when it was stored; null for an image export. */
  folder: string | null;
  image_id: number | null;
  clients: string[];
  enabled: boolean;
  comment: string;
}

/** The store section `nfs` (config file). */
export interface StoredNfsSettings {
  nfs_port: number;
  mount_port: number;
  portmapper: PortmapperMode;
  udp: boolean;
  export_mounted_images: boolean;
  /** Subnets allowed to mount the automatic image exports; null: the subnets of the served interfaces (followed as they change). */
  image_clients: string[] | null;
  exports: StoredNfsExport[];
  /** The next id a new export gets; ids are never reused, so a deleted export's file handles go stale instead of naming another export. */
  next_export_id: number;
  /** 32 random bytes, base64: the HMAC key of file handles (docs/nfs.md). Generated once; '' until then. */
  handle_key: string;
}

/** A change of the stored settings: the API's update without `enabled` (the service's auto-start flag). */
export type NfsSettingsPatch = Omit<NfsSettingsUpdate, 'enabled'>;

/** Automatic exports of mounted images use ids from here up (1_000_000 + image id), so they never meet a stored export's id. */
export const IMAGE_EXPORT_ID_BASE = 1_000_000;
export const HANDLE_KEY_BYTES = 32;

export const NFS_DEFAULTS: StoredNfsSettings = {
  nfs_port: 2049,
  mount_port: 20048,
  portmapper: 'auto',
  udp: true,
  export_mounted_images: true,
  image_clients: null,
  exports: [],
  next_export_id: 1,
  handle_key: '',
};

/** The portmapper's well-known port (RFC 1833): NFS and MOUNT cannot take it unless the portmapper is off. */
const PORTMAPPER_PORT = 111;

export interface NfsUpdateOptions {
  /** How fields are named in errors (default `body`). */
  fieldPrefix?: string;
  /** Whether the caller may change exports and ports (the admin role; the route decides). */
  mayChangeExports?: boolean;
}

/** What an update changed, so the caller knows what to apply: the server (ports, UDP, portmapper: restart) or the export table (swap, no restart). */
export interface NfsUpdateResult {
  value: StoredNfsSettings;
  /** Ports, UDP or the portmapper mode: the running server restarts. */
  serverChanged: boolean;
  /** Exports, image_clients or export_mounted_images: the export table is rebuilt; clients keep their connections. */
  exportsChanged: boolean;
  /** The ids of exports the update removed (their handles go stale). */
  removedIds: number[];
  /** The ids given to new exports, in the order of the request. */
  addedIds: number[];
}

/** Image lookups the validation needs (the os-images facade's `get`). */
export interface ImageLookup {
  get(id: number): { id: number; name: string } | undefined;
}

const PATH_RE = new RegExp(EXPORT_PATH_PATTERN);

/** Whether `path` is `prefix` or below it ('/iso' holds '/iso/x', not '/isolinux'). */
export function isUnderPath(prefix: string, path: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** A mount path as compared: without a trailing slash ('/' stays '/'). */
export function normaliseExportPath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * The NFS settings and exports (config file, section "nfs"). Updates are
 * validated whole (nothing changes on a bad field) and serialised, so a
 * folder check and the write it allows are not interleaved with another update.
 */
export class NfsSettings {
  private readonly section: Section<StoredNfsSettings>;
  private readonly roots: Pick<ServedRoots, 'check'>;
  private readonly images: ImageLookup;
  private readonly listeners = new Set<(result: NfsUpdateResult) => void | Promise<void>>();
  private queue: Promise<unknown> = Promise.resolve();
  private pendingKey: Buffer | null = null;

  constructor(deps: { store: Store; roots: Pick<ServedRoots, 'check'>; images: ImageLookup }) {
    this.section = deps.store.section<StoredNfsSettings>('nfs', NFS_DEFAULTS, 'config');
    this.roots = deps.roots;
    this.images = deps.images;
  }

  get(): StoredNfsSettings {
    return this.section.get();
  }

  /**
   * The handle key (32 bytes). Made and stored on first use when the section
   * has none (ensureHandleKey does that at start, so the store has it before
   * any handle goes out).
   */
  handleKey(): Buffer {
    const key = this.storedKey();
    if (key) return key;
    // Only reached when ensureHandleKey did not run; the write is queued like an update, and the key kept
    // so every handle made before it lands uses the same one.
    this.pendingKey ??= randomBytes(HANDLE_KEY_BYTES);
    // A failed write (disk full) is retried by the next call; the key in memory keeps handles consistent meanwhile.
    this.storeKey(this.pendingKey).catch(() => undefined);
    return this.pendingKey;
  }

  /** Generates and stores the handle key unless a valid one is stored (the area calls it before anything serves). */
  async ensureHandleKey(): Promise<Buffer> {
    const key = this.storedKey();
    if (key) return key;
    this.pendingKey ??= randomBytes(HANDLE_KEY_BYTES);
    await this.storeKey(this.pendingKey);
    return this.storedKey() ?? this.pendingKey;
  }

  private storedKey(): Buffer | null {
    const stored = this.get().handle_key;
    if (stored === '') return null;
    const key = Buffer.from(stored, 'base64');
    return key.length === HANDLE_KEY_BYTES ? key : null;
  }

  /** Called after each update that changed something (the area swaps the export table, the routes restart the server). */
  onChange(listener: (result: NfsUpdateResult) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether `patch` changes exports or ports (what needs the admin role). */
  needsAdmin(patch: NfsSettingsPatch): boolean {
    const current = this.get();
    if (patch.nfs_port !== undefined && patch.nfs_port !== current.nfs_port) return true;
    if (patch.mount_port !== undefined && patch.mount_port !== current.mount_port) return true;
    if (patch.exports === undefined) return false;
    if (patch.exports.length !== current.exports.length) return true;
    return patch.exports.some((input, index) => {
      const stored = current.exports[index];
      return stored === undefined || input.id !== stored.id || JSON.stringify(mergeExport(stored.id, input, stored)) !== JSON.stringify(stored);
    });
  }

  /**
   * Validates `patch` merged over the current settings and stores it. Throws
   * VALIDATION_FAILED naming every bad field (`body.exports.2.folder`), and
   * FORBIDDEN when it changes exports or ports without `mayChangeExports`.
   */
  update(patch: NfsSettingsPatch, options: NfsUpdateOptions = {}): Promise<NfsUpdateResult> {
    const run = this.queue.catch(() => undefined).then(() => this.apply(patch, options));
    this.queue = run;
    return run;
  }

  /**
   * Validates `patch` merged over the current settings as `update` would,
   * and stores nothing (the kit checks every part before its first write).
   */
  async check(patch: NfsSettingsPatch, options: NfsUpdateOptions = {}): Promise<void> {
    await this.plan(patch, options);
  }

  private async apply(patch: NfsSettingsPatch, options: NfsUpdateOptions): Promise<NfsUpdateResult> {
    const { current, result } = await this.plan(patch, options);
    const { value: next } = result;
    if (JSON.stringify(next) !== JSON.stringify(current)) {
      result.value = await this.section.set(next);
      for (const listener of this.listeners) await listener(result);
    }
    return result;
  }

  /** The settings `patch` makes, validated; throws FORBIDDEN or VALIDATION_FAILED, stores nothing. */
  private async plan(patch: NfsSettingsPatch, options: NfsUpdateOptions): Promise<{ current: StoredNfsSettings; result: NfsUpdateResult }> {
    const prefix = options.fieldPrefix ?? 'body';
    if (options.mayChangeExports === false && this.needsAdmin(patch)) {
      const message = 'changing NFS exports or ports needs the admin role (an export hands a folder to the LAN without a login)';
      throw new AppError('FORBIDDEN', message, { details: [{ field: `${prefix}.exports`, message }] });
    }
    const current = this.get();
    const errors: FieldError[] = [];
    const next: StoredNfsSettings = {
      ...current,
      ...(patch.nfs_port !== undefined ? { nfs_port: patch.nfs_port } : {}),
      ...(patch.mount_port !== undefined ? { mount_port: patch.mount_port } : {}),
      ...(patch.portmapper !== undefined ? { portmapper: patch.portmapper } : {}),
      ...(patch.udp !== undefined ? { udp: patch.udp } : {}),
      ...(patch.export_mounted_images !== undefined ? { export_mounted_images: patch.export_mounted_images } : {}),
      ...(patch.image_clients !== undefined ? { image_clients: patch.image_clients === null ? null : patch.image_clients.map((entry) => entry.trim()) } : {}),
    };
    this.checkServer(next, prefix, errors);
    if (patch.image_clients !== undefined && patch.image_clients !== null) {
      for (const problem of clientSubnetProblems(patch.image_clients)) errors.push({ field: `${prefix}.image_clients.${problem.index}`, message: problem.message });
    }
    const removedIds: number[] = [];
    const addedIds: number[] = [];
    if (patch.exports !== undefined) {
      const built = await this.buildExports(patch.exports, current, prefix, errors);
      next.exports = built.exports;
      next.next_export_id = built.nextId;
      addedIds.push(...built.added);
      const kept = new Set(built.exports.map((entry) => entry.id));
      removedIds.push(...current.exports.filter((entry) => !kept.has(entry.id)).map((entry) => entry.id));
    }
    // Turning export_mounted_images on claims /iso: no stored export may sit there (checked whether or not exports were sent).
    if (next.export_mounted_images) {
      for (const [index, entry] of next.exports.entries()) {
        if (isUnderPath(IMAGE_EXPORT_PREFIX, entry.path) && !errors.some((error) => error.field === `${prefix}.exports.${index}.path`)) {
          errors.push({
            field: patch.exports !== undefined ? `${prefix}.exports.${index}.path` : `${prefix}.export_mounted_images`,
            message: `${entry.path} is under ${IMAGE_EXPORT_PREFIX}, where mounted images are exported while export_mounted_images is on; choose another path`,
          });
        }
      }
    }
    if (errors.length > 0) throw validationError(errors);
    return { current, result: { value: next, ...changeOf(current, next), removedIds, addedIds } };
  }

  /**
   * Puts back the settings a snapshot holds, export ids included (the kit's
   * undo of an import it could not finish). Ids are never reused, so an
   * export that comes back with its id is the one its clients' handles
   * name. Not validated again: the snapshot was valid when taken, and an
   * undo must not fail on a folder that changed since (the export table
   * shows it as that export's problem). The handle key stays.
   */
  restore(snapshot: Omit<StoredNfsSettings, 'handle_key'>): Promise<NfsUpdateResult> {
    const run = this.queue.catch(() => undefined).then(async () => {
      const current = this.get();
      const next: StoredNfsSettings = { ...structuredClone(snapshot), next_export_id: Math.max(snapshot.next_export_id, current.next_export_id), handle_key: current.handle_key };
      const before = new Set(current.exports.map((entry) => entry.id));
      const after = new Set(next.exports.map((entry) => entry.id));
      const result: NfsUpdateResult = {
        value: next,
        ...changeOf(current, next),
        removedIds: [...before].filter((id) => !after.has(id)),
        addedIds: [...after].filter((id) => !before.has(id)),
      };
      if (JSON.stringify(next) !== JSON.stringify(current)) {
        result.value = await this.section.set(next);
        for (const listener of this.listeners) await listener(result);
      }
      return result;
    });
    this.queue = run;
    return run;
  }

  private checkServer(next: StoredNfsSettings, prefix: string, errors: FieldError[]): void {
    const { min, max } = NFS_SETTING_LIMITS.port;
    for (const key of ['nfs_port', 'mount_port'] as const) {
      const value = next[key];
      if (!Number.isInteger(value) || value < min || value > max) errors.push({ field: `${prefix}.${key}`, message: `must be an integer from ${min} to ${max}` });
      else if (value === PORTMAPPER_PORT && next.portmapper !== 'off') errors.push({ field: `${prefix}.${key}`, message: `port ${PORTMAPPER_PORT} belongs to the portmapper; choose another port or set portmapper off` });
    }
    // MOUNT is served on nfs_port as well; the same number twice would bind one port twice.
    if (next.mount_port === next.nfs_port) errors.push({ field: `${prefix}.mount_port`, message: `must differ from nfs_port (${next.nfs_port}); MOUNT is served on nfs_port too` });
    if (!PORTMAPPER_MODES.includes(next.portmapper)) errors.push({ field: `${prefix}.portmapper`, message: `must be one of ${PORTMAPPER_MODES.join(', ')}` });
  }

  /** The stored list a request's exports become: ids kept or assigned, folders checked (new or changed ones), paths unique. */
  private async buildExports(
    inputs: readonly NfsExportInput[],
    current: StoredNfsSettings,
    prefix: string,
    errors: FieldError[],
  ): Promise<{ exports: StoredNfsExport[]; nextId: number; added: number[] }> {
    const byId = new Map(current.exports.map((entry) => [entry.id, entry]));
    const seenIds = new Set<number>();
    const seenPaths = new Map<string, number>();
    const exports: StoredNfsExport[] = [];
    const added: number[] = [];
    let nextId = current.next_export_id;
    for (const [index, input] of inputs.entries()) {
      const field = `${prefix}.exports.${index}`;
      let stored: StoredNfsExport | undefined;
      let id: number;
      if (input.id !== undefined) {
        stored = byId.get(input.id);
        if (!stored) errors.push({ field: `${field}.id`, message: `no export has id ${input.id} (leave id out for a new export; ids are never reused)` });
        else if (seenIds.has(input.id)) errors.push({ field: `${field}.id`, message: `export id ${input.id} is listed twice` });
        id = input.id;
      } else {
        id = nextId;
        nextId += 1;
        added.push(id);
        if (id >= IMAGE_EXPORT_ID_BASE) errors.push({ field, message: `export ids are used up below ${IMAGE_EXPORT_ID_BASE}` });
      }
      seenIds.add(id);
      const entry = mergeExport(id, input, stored);
      // Path: the schema checked the pattern; checked again here for callers that skip the schema (IPC, tests).
      if (!PATH_RE.test(entry.path) || entry.path.length > MAX_EXPORT_PATH_LENGTH || entry.path === '/') {
        errors.push({ field: `${field}.path`, message: 'must be an absolute mount path like /live (letters, digits, ".", "_", "-"; not /)' });
      } else if (seenPaths.has(entry.path)) {
        errors.push({ field: `${field}.path`, message: `${entry.path} is already the path of exports.${seenPaths.get(entry.path)}` });
      } else {
        seenPaths.set(entry.path, index);
      }
      // The source: exactly one of folder and image_id.
      if ((entry.folder === null) === (entry.image_id === null)) {
        errors.push({ field: entry.folder === null ? `${field}.folder` : `${field}.image_id`, message: 'give exactly one of folder and image_id' });
      } else if (entry.folder !== null) {
        // An unchanged folder keeps its stored form: a folder the policy no longer accepts is shown as the export's problem, not a 400 on every later edit.
        if (stored?.folder !== entry.folder) {
          const verdict = await this.roots.check(entry.folder);
          if (!verdict.ok) errors.push({ field: `${field}.folder`, message: verdict.problem });
          else entry.folder = verdict.real;
        }
      } else if (entry.image_id !== null && stored?.image_id !== entry.image_id && !this.images.get(entry.image_id)) {
        errors.push({ field: `${field}.image_id`, message: `no OS image has id ${entry.image_id}` });
      }
      for (const problem of clientSubnetProblems(entry.clients)) errors.push({ field: `${field}.clients.${problem.index}`, message: problem.message });
      if (entry.clients.length === 0) errors.push({ field: `${field}.clients`, message: 'name at least one subnet (0.0.0.0/0 allows every IPv4 client)' });
      exports.push(entry);
    }
    return { exports, nextId, added };
  }

  private storeKey(key: Buffer): Promise<unknown> {
    const run = this.queue.catch(() => undefined).then(async () => {
      const current = this.get();
      if (this.storedKey()) return;
      await this.section.set({ ...current, handle_key: key.toString('base64') });
    });
    this.queue = run;
    return run;
  }
}

/** What a change from `current` to `next` needs applied: a server restart, an export table swap. */
function changeOf(current: StoredNfsSettings, next: StoredNfsSettings): Pick<NfsUpdateResult, 'serverChanged' | 'exportsChanged'> {
  return {
    serverChanged: (['nfs_port', 'mount_port', 'portmapper', 'udp'] as const).some((key) => next[key] !== current[key]),
    exportsChanged:
      JSON.stringify(next.exports) !== JSON.stringify(current.exports) ||
      JSON.stringify(next.image_clients) !== JSON.stringify(current.image_clients) ||
      next.export_mounted_images !== current.export_mounted_images,
  };
}

/** A request's export over the stored one it replaces (fields not sent keep their stored value; new exports get defaults). */
function mergeExport(id: number, input: NfsExportInput, stored: StoredNfsExport | undefined): StoredNfsExport {
  const folder = input.folder !== undefined ? input.folder : input.image_id !== undefined && input.image_id !== null ? null : (stored?.folder ?? null);
  const imageId = input.image_id !== undefined ? input.image_id : input.folder !== undefined && input.folder !== null ? null : (stored?.image_id ?? null);
  return {
    id,
    path: normaliseExportPath(input.path),
    folder,
    image_id: imageId,
    clients: input.clients.map((entry) => entry.trim()),
    enabled: input.enabled ?? stored?.enabled ?? true,
    comment: input.comment ?? stored?.comment ?? '',
  };
}
