import { AppError, notFound, validationError, type FieldError } from '../../core/errors.js';
import { paginate, type ListPage, type ListQueryInput } from '../../core/http-kit/list-query.js';
import type { Logger } from '../../core/logger.js';
import type { EventLog } from '../../events/event-log.js';
import {
  CatalogEntrySchema,
  OverlayFieldsSchema,
  type CatalogArch,
  type CatalogEntry,
  type CatalogEntryView,
  type CatalogFile,
  type CatalogGroup,
  type Firmware,
  type NetbootArch,
  type OsFamily,
  type Overlay,
  type OverlayFields,
} from '../netboot-contract.js';
import { netbootFilePath, type CatalogReader, type ResolvedEntry, type ResolvedFile } from '../netboot-ports.js';
import { describeProblem, entryProblems, lastSegment, plainValues, schemaProblems } from './catalog-file.js';
import { expandPlain, type PlainValues } from './placeholders.js';
import { mergeOverlay, OVERLAY_FIELDS, overlayNotes, overlayView, type OverlayRow, type OverlayStore } from './overlays.js';

/** Filters of GET /netboot/catalog besides paging, q and sort. */
export interface CatalogListQuery extends ListQueryInput {
  group?: string;
  family?: OsFamily;
  /** Entries with at least one version for this architecture. */
  arch?: NetbootArch;
}

export const CATALOG_SORT_FIELDS = ['distro', 'name', 'family', 'group'] as const;

/** One entry as it is used: the shipped entry with its overlay applied (or not, when the overlay no longer fits). */
interface Effective {
  view: CatalogEntryView;
  /** Why a stored overlay is not applied, or what it names that is gone. */
  notes: string[];
}

/**
 * The netboot catalog (docs/netboot.md, "Catalog and overlays"): the shipped
 * entries, their overlays, and the resolution of an entry to one version and
 * architecture for the other parts (CatalogReader). Entries keep the file's
 * order within groups ordered by `order`: the catalog is curated.
 */
export class NetbootCatalog implements CatalogReader {
  private readonly shipped: CatalogFile;
  private readonly overlayRows: OverlayStore;
  private readonly events: EventLog;
  private readonly log: Logger;
  private readonly groupIds: ReadonlySet<string>;
  private effective = new Map<string, Effective>();

  constructor(deps: { catalog: CatalogFile; overlays: OverlayStore; events: EventLog; log: Logger }) {
    this.shipped = { ...deps.catalog, entries: sortByGroup(deps.catalog) };
    this.overlayRows = deps.overlays;
    this.events = deps.events;
    this.log = deps.log;
    this.groupIds = new Set(deps.catalog.groups.map((group) => group.id));
    this.refresh();
  }

  groups(): CatalogGroup[] {
    return [...this.shipped.groups].sort((a, b) => a.order - b.order);
  }

  /** Every entry, overlays applied. */
  entries(): CatalogEntryView[] {
    return [...this.effective.values()].map((effective) => effective.view);
  }

  /** Throws NOT_FOUND for an unknown distro. */
  entry(distro: string): CatalogEntryView {
    const effective = this.effective.get(distro);
    if (!effective) throw notFound('netboot catalog entry', distro);
    return effective.view;
  }

  list(query: CatalogListQuery): ListPage<CatalogEntryView> {
    const rows = this.entries().filter(
      (entry) =>
        (query.group === undefined || entry.group === query.group) &&
        (query.family === undefined || entry.family === query.family) &&
        (query.arch === undefined || entry.versions.some((version) => version.architectures.some((arch) => arch.arch === query.arch))),
    );
    return paginate(rows, query, { sortable: CATALOG_SORT_FIELDS, searchText: (entry) => [entry.distro, entry.name, entry.description] });
  }

  resolve(distro: string, version?: string, arch?: NetbootArch): ResolvedEntry {
    const entry = this.entry(distro);
    const labels = entry.versions.map((item) => item.version).join(', ');
    const chosen = version === undefined ? (entry.versions.find((item) => item.default === true) ?? entry.versions[0]) : entry.versions.find((item) => item.version === version);
    if (!chosen) throw new AppError('NOT_FOUND', `netboot catalog entry ${distro} has no version ${version ?? '(none)'} (versions: ${labels})`);
    const arches = chosen.architectures;
    const shippedArch = arch === undefined ? (arches.find((item) => item.arch === 'x86_64') ?? arches[0]) : arches.find((item) => item.arch === arch);
    if (!shippedArch) {
      throw new AppError('NOT_FOUND', `netboot catalog entry ${distro} ${chosen.version} has no ${arch ?? 'architecture'} (architectures: ${arches.map((item) => item.arch).join(', ')})`);
    }
    const values = plainValues(entry, chosen, shippedArch.arch);
    const mirror = chosen.mirror !== undefined ? chosen.mirror : entry.mirror;
    const resolvedArch = expandArch(shippedArch, values);
    const file = (role: ResolvedFile['role'], written: string): ResolvedFile => {
      const filePath = expandPlain(written, values);
      const name = lastSegment(filePath);
      return {
        role,
        path: filePath,
        name,
        served_path: netbootFilePath(distro, chosen.version, shippedArch.arch, name),
        url: mirror === null ? null : `${mirror.replace(/\/+$/, '')}/${filePath}`,
        sha256: shippedArch.sha256?.[written] ?? shippedArch.sha256?.[filePath] ?? null,
      };
    };
    return {
      entry,
      version: chosen,
      arch: resolvedArch,
      mirror,
      files: [file('kernel', shippedArch.kernel), ...shippedArch.initrds.map((initrd) => file('initrd', initrd))],
      cmdline: expandPlain(entry.cmdline, values),
      answer: entry.answer === null ? null : { ...entry.answer, argument: expandPlain(entry.answer.argument, values) },
    };
  }

  supports(resolved: ResolvedEntry, firmware: Firmware): boolean {
    return resolved.arch.firmware.includes(firmware);
  }

  /** Every stored overlay, also those whose distro left the catalog (so they can be seen and deleted). */
  overlays(): Overlay[] {
    return this.overlayRows.all().map((row) => this.view(row));
  }

  /** Throws NOT_FOUND when the distro has no overlay. */
  overlay(distro: string): Overlay {
    const row = this.overlayRows.get(distro);
    if (!row) throw notFound('netboot overlay', distro);
    return this.view(row);
  }

  /**
   * Replaces the distro's overlay. 404 for a distro the catalog does not
   * have; 400 (nothing stored) when the fields or the merged entry are invalid.
   */
  async putOverlay(distro: string, fields: OverlayFields, user: string): Promise<Overlay> {
    const shipped = this.shippedEntry(distro);
    const problems = this.overlayProblems(shipped, fields);
    if (problems.length > 0) throw validationError(problems);
    const { row, created } = await this.overlayRows.put(distro, fields, user);
    this.refresh();
    const changed = OVERLAY_FIELDS.filter((field) => fields[field] !== undefined);
    this.events.emit({
      kind: 'netboot.overlay.changed',
      message: `Netboot overlay for ${distro} ${created ? 'created' : 'replaced'} by ${user} (${changed.join(', ')})`,
      detail: { distro, action: created ? 'created' : 'replaced', fields: changed, user },
    });
    return this.view(row);
  }

  /** Throws the AppError putOverlay would answer for these fields, storing nothing (the store checks imports first). */
  validateOverlay(distro: string, fields: OverlayFields): void {
    const problems = this.overlayProblems(this.shippedEntry(distro), fields);
    if (problems.length > 0) throw validationError(problems);
  }

  /** Deletes the distro's overlay (the shipped entry applies again); NOT_FOUND when there is none. */
  async deleteOverlay(distro: string, user: string): Promise<Overlay> {
    const row = await this.overlayRows.remove(distro);
    if (!row) throw notFound('netboot overlay', distro);
    this.refresh();
    this.events.emit({
      kind: 'netboot.overlay.changed',
      message: `Netboot overlay for ${distro} deleted by ${user}: the shipped entry applies again`,
      detail: { distro, action: 'deleted', fields: OVERLAY_FIELDS.filter((field) => row.fields[field] !== undefined), user },
    });
    return overlayView(row, []);
  }

  private shippedEntry(distro: string): CatalogEntry {
    const entry = this.shipped.entries.find((item) => item.distro === distro);
    if (!entry) throw notFound('netboot catalog entry', distro);
    return entry;
  }

  /** The problems of an overlay about to be stored: empty, hiding unknown versions, or a merged entry the catalog would refuse. */
  private overlayProblems(shipped: CatalogEntry, fields: OverlayFields): FieldError[] {
    const schema = schemaProblems(OverlayFieldsSchema, fields, 'body.');
    if (schema.length > 0) return schema;
    if (Object.values(fields).every((value) => value === undefined)) {
      return [{ field: 'body', message: `an empty overlay changes nothing; DELETE /netboot/overlays/${shipped.distro} restores the shipped entry` }];
    }
    const shippedLabels = shipped.versions.map((version) => version.version);
    const unknown: FieldError[] = (fields.hidden_versions ?? []).flatMap((label, index) =>
      shippedLabels.includes(label) ? [] : [{ field: `body.hidden_versions[${index}]`, message: `${shipped.distro} has no shipped version ${label} (versions: ${shippedLabels.join(', ')})` }],
    );
    return [...unknown, ...this.mergedProblems(shipped, fields)];
  }

  /** The merged entry must pass what the shipped file must pass. */
  private mergedProblems(shipped: CatalogEntry, fields: OverlayFields): FieldError[] {
    // A stored overlay is re-checked at every start: the contract may have changed since it was written.
    const own = schemaProblems(OverlayFieldsSchema, fields, 'overlay.');
    if (own.length > 0) return own;
    const merged = mergeOverlay(shipped, fields);
    const label = `${shipped.distro} with the overlay`;
    const schema = schemaProblems(CatalogEntrySchema, merged, `${label}.`);
    return schema.length > 0 ? schema : entryProblems(merged, label, this.groupIds);
  }

  private view(row: OverlayRow): Overlay {
    const effective = this.effective.get(row.distro);
    const entry = this.shipped.entries.find((item) => item.distro === row.distro);
    return overlayView(row, effective?.notes ?? overlayNotes(entry, row.fields));
  }

  /** Recomputes the entries as used; a stored overlay that no longer fits its entry (after a catalog update) is reported and skipped. */
  private refresh(): void {
    const next = new Map<string, Effective>();
    for (const entry of this.shipped.entries) {
      const row = this.overlayRows.get(entry.distro);
      if (!row) {
        next.set(entry.distro, { view: { ...entry, overlay: false }, notes: [] });
        continue;
      }
      const notes = overlayNotes(entry, row.fields);
      const problems = this.mergedProblems(entry, row.fields);
      if (problems.length === 0) {
        next.set(entry.distro, { view: { ...mergeOverlay(entry, row.fields), overlay: true }, notes });
        continue;
      }
      const reason = `the overlay no longer applies to the shipped entry, which is used instead: ${problems.map(describeProblem).join('; ')}`;
      this.log.warn(`netboot overlay ${entry.distro}: ${reason}`);
      next.set(entry.distro, { view: { ...entry, overlay: false }, notes: [...notes, reason] });
    }
    this.effective = next;
  }
}

function expandArch(arch: CatalogArch, values: PlainValues): CatalogArch {
  return {
    ...arch,
    kernel: expandPlain(arch.kernel, values),
    initrds: arch.initrds.map((initrd) => expandPlain(initrd, values)),
    ...(arch.checksums ? { checksums: { ...arch.checksums, file: expandPlain(arch.checksums.file, values) } } : {}),
  };
}

/** Entries grouped by their group's order, the file's order within a group. */
function sortByGroup(catalog: CatalogFile): CatalogEntry[] {
  const order = new Map(catalog.groups.map((group) => [group.id, group.order]));
  return catalog.entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => (order.get(a.entry.group) ?? 0) - (order.get(b.entry.group) ?? 0) || a.index - b.index)
    .map(({ entry }) => entry);
}
