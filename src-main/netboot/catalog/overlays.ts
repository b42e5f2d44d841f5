import type { Collection, Row } from '../../store/collection.js';
import type { Store } from '../../store/store.js';
import type { CatalogEntry, CatalogVersion, Overlay, OverlayFields } from '../netboot-contract.js';

/*
 * Overlays (docs/netboot.md, "Catalog and overlays"): per-distro changes of
 * shipped entries, stored apart from the catalog (collection
 * netboot_overlays) and holding only the fields they change, so a newer
 * catalog keeps them. The merge is a pure function; the catalog checks the
 * merged entry with the loader's own rules.
 */

/** One stored overlay: the changed fields, nothing shipped. */
export interface OverlayRow extends Row {
  distro: string;
  fields: OverlayFields;
  updated_by: string;
}

/** The names of the overlay fields, in the contract's order (events and the docs list them). */
export const OVERLAY_FIELDS = ['mirror', 'cmdline', 'extra_initrds', 'versions', 'hidden_versions', 'answer'] as const satisfies readonly (keyof OverlayFields)[];

/**
 * The entry with its overlay applied:
 * - `mirror`, `cmdline`, `answer` replace the shipped value;
 * - `hidden_versions` hide shipped versions;
 * - `versions` replace the shipped version with the same label or are added
 *   (one marked default takes the default from the shipped ones);
 * - `extra_initrds` are appended to every architecture's initrds, of shipped
 *   and added versions alike.
 */
export function mergeOverlay(entry: CatalogEntry, fields: OverlayFields): CatalogEntry {
  const hidden = new Set(fields.hidden_versions ?? []);
  let versions: CatalogVersion[] = entry.versions.filter((version) => !hidden.has(version.version));
  const added = fields.versions ?? [];
  if (added.some((version) => version.default === true)) versions = versions.map(withoutDefault);
  for (const version of added) {
    const index = versions.findIndex((shipped) => shipped.version === version.version);
    if (index >= 0) versions[index] = version;
    else versions.push(version);
  }
  const extra = fields.extra_initrds ?? [];
  if (extra.length > 0) {
    versions = versions.map((version) => ({
      ...version,
      architectures: version.architectures.map((arch) => ({ ...arch, initrds: [...arch.initrds, ...extra] })),
    }));
  }
  return {
    ...entry,
    ...(fields.mirror !== undefined ? { mirror: fields.mirror } : {}),
    ...(fields.cmdline !== undefined ? { cmdline: fields.cmdline } : {}),
    ...(fields.answer !== undefined ? { answer: fields.answer } : {}),
    versions,
  };
}

function withoutDefault(version: CatalogVersion): CatalogVersion {
  const { default: _default, ...rest } = version;
  return rest;
}

/**
 * What an overlay refers to that the shipped entry no longer has (after a
 * catalog update): the overlay stays valid, these are reported with it.
 */
export function overlayNotes(entry: CatalogEntry | undefined, fields: OverlayFields): string[] {
  if (!entry) return ['the shipped catalog has no such distro any more: the overlay applies to nothing'];
  const shipped = new Set(entry.versions.map((version) => version.version));
  return (fields.hidden_versions ?? [])
    .filter((label) => !shipped.has(label))
    .map((label) => `hidden_versions: version ${label} is no longer in the shipped catalog`);
}

/** The stored overlays (collection netboot_overlays), keyed by distro. */
export class OverlayStore {
  private readonly rows: Collection<OverlayRow>;

  constructor(store: Store) {
    this.rows = store.collection<OverlayRow>('netboot_overlays');
  }

  all(): readonly OverlayRow[] {
    return this.rows.all();
  }

  get(distro: string): OverlayRow | undefined {
    return this.rows.find((row) => row.distro === distro);
  }

  /** Replaces the distro's overlay with `fields` (creates it when absent); resolves once durable. */
  async put(distro: string, fields: OverlayFields, user: string, now: Date = new Date()): Promise<{ row: OverlayRow; created: boolean }> {
    const current = this.get(distro);
    if (current) {
      const row = await this.rows.update(current.id, { fields, updated_by: user }, now);
      if (row) return { row, created: false };
    }
    return { row: await this.rows.insert({ distro, fields, updated_by: user }, now), created: true };
  }

  /** Removes the distro's overlay; returns it, or undefined when there was none. */
  async remove(distro: string): Promise<OverlayRow | undefined> {
    const current = this.get(distro);
    return current ? this.rows.remove(current.id) : undefined;
  }
}

/** The API's view of a stored overlay, with what it refers to that is gone. */
export function overlayView(row: OverlayRow, notes: readonly string[]): Overlay {
  return { distro: row.distro, ...row.fields, updated_at: row.updated_at, updated_by: row.updated_by, warnings: [...notes] };
}
