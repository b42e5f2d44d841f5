import { AppError, errorMessage, validationError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import { SerialQueue } from '../profiles/index.js';
import type { Collection } from '../store/collection.js';
import { type ConflictAction, type StoreImportResult, type StoreItemType } from './community-store-contract.js';
import { planImport, type PlanStep } from './import-plan.js';
import type { ImportTarget, LocalRef, StoreBaselinePayload, TargetType, WriteNote } from './import-targets.js';
import { itemKey, parseItemRef, payloadSha256, referencesOf, type StoreItemFile } from './item-format.js';
import type { ImportRow, ImportStep, ProvenanceRow } from './store-records.js';

/*
 * Import (docs/store.md, "Import"): resolve an item and what it brings along,
 * plan what happens to every name it takes, check everything with the owning
 * areas' validators, then write in order (scripts before the baselines that
 * use them). The writes are all or nothing: a failure part-way undoes what
 * this import wrote, and the pending record in store_imports lets the next
 * start undo an import a crash interrupted.
 */

/** The source name of items that came in through POST /store/import-local. */
export const LOCAL_SOURCE = 'local';
const MAX_IMPORT_ITEMS = 256;

export interface ResolvedItem {
  key: string;
  source: string;
  item: StoreItemFile;
  sha256: string;
}

/** Finds a referenced item (`<type>/<id>`); the catalog, or a local file's items then the catalog. */
export type ItemResolver = (type: StoreItemType, id: string) => Promise<ResolvedItem>;

export interface ImportOptions {
  on_conflict?: ConflictAction;
  resolutions?: Readonly<Record<string, 'rename' | 'skip' | 'overwrite'>>;
  dry_run?: boolean;
}

export interface StoreImporterDeps {
  targets: Readonly<Record<TargetType, ImportTarget<unknown>>>;
  imports: Collection<ImportRow>;
  provenance: Collection<ProvenanceRow>;
  events: EventLog;
  log: Logger;
  now: () => Date;
}

interface Prepared {
  resolved: ResolvedItem;
  target: ImportTarget<unknown>;
  payload: unknown;
}

export class StoreImporter {
  private readonly deps: StoreImporterDeps;
  /** One import at a time: the plan's view of taken names holds until its writes are done. */
  private readonly queue = new SerialQueue();
  private readonly log: Logger;

  constructor(deps: StoreImporterDeps) {
    this.deps = deps;
    this.log = deps.log.scope('store');
  }

  /** Imports `root` and everything it requires (a bundle: its items); see the file comment. */
  run(root: ResolvedItem, resolve: ItemResolver, options: ImportOptions, user: string): Promise<StoreImportResult> {
    return this.queue.run(async () => {
      const ordered = await closure(root, resolve);
      const prepared = ordered.filter((entry) => entry.item.type !== 'bundle').map((resolved) => this.prepare(resolved));
      this.checkBaselineReferences(prepared);
      const plan = planImport(
        prepared.map(({ resolved, target, payload }) => {
          const name = target.nameOf(payload);
          return { key: resolved.key, type: target.type, name, canRename: target.canRename, existing: target.findByName(name) };
        }),
        { onConflict: options.on_conflict ?? 'ask', resolutions: options.resolutions ?? {}, isTaken: (type, name) => this.deps.targets[type].findByName(name) !== undefined },
      );
      if (plan.unrenamable.length > 0) {
        throw validationError(plan.unrenamable.map((key) => ({ field: `resolutions.${key}`, message: 'an overlay is named by its distro and cannot be renamed; choose skip or overwrite' })));
      }
      if (plan.conflicts.length > 0) {
        const names = plan.conflicts.map((conflict) => `${conflict.type} "${conflict.name}"`).join(', ');
        throw new AppError('CONFLICT', `the import would take names that exist already: ${names}; answer with on_conflict or resolutions (rename, skip, overwrite)`, {
          details: plan.conflicts.map((conflict) => ({ field: conflict.key, message: `${conflict.type} "${conflict.name}" exists (id ${conflict.existing_id})`, ...conflict })),
        });
      }
      const byKey = new Map(prepared.map((prep) => [prep.resolved.key, prep]));
      // Scripts kept as they are (skipped) are known by their local ids now; created, renamed and
      // overwritten ones get theirs (or their new content) only when written.
      const scripts = new Map<string, number>();
      plan.steps.forEach((step) => {
        const prep = byKey.get(step.key);
        if (prep && step.type === 'script' && step.existing && step.action === 'skipped') scripts.set(prep.resolved.item.id, step.existing.id);
      });
      // Everything is checked before anything is written; a baseline's steps on scripts this import
      // creates or overwrites are checked when it is written (a failure there undoes the import).
      for (const step of plan.steps) {
        const prep = byKey.get(step.key);
        if (!prep || step.action === 'skipped') continue;
        await prep.target.validate(prep.target.withName(prep.payload, step.name), step.action === 'overwritten' ? step.existing?.id : undefined, scripts);
      }
      if (options.dry_run === true) {
        return { dry_run: true, items: plan.steps.map((step) => ({ type: step.type, store_id: parseItemRef(step.key).id, action: step.action, local_id: step.action === 'overwritten' ? (step.existing?.id ?? null) : null, name: step.name })) };
      }
      return this.write(root, byKey, plan.steps, scripts, user);
    });
  }

  /** At start: undoes every import a crash left pending (docs/store.md, "All or nothing"). */
  async recover(): Promise<number> {
    const pending = this.deps.imports.filter((row) => row.status === 'pending');
    for (const row of pending) {
      const problems = await this.undo(row.steps, { author: 'system', comment: `store import ${row.key} interrupted: rolled back at start` });
      await this.deps.provenance.removeWhere((provenance) => provenance.import_id === row.id);
      await this.deps.imports.update(row.id, { status: 'rolled_back', error: `interrupted; rolled back at start${problems.length ? ` (${problems.join('; ')})` : ''}` });
      this.log.warn(`store import ${row.id} of ${row.key} was interrupted; its ${row.steps.length} write(s) were undone`);
      this.deps.events.emit({
        kind: 'store.import.rolled_back',
        level: 'warn',
        message: `A store import of ${row.key} by ${row.by} was interrupted and has been rolled back`,
        detail: { import_id: row.id, key: row.key, steps: row.steps.length, problems },
      });
    }
    return pending.length;
  }

  private prepare(resolved: ResolvedItem): Prepared {
    const type = resolved.item.type as TargetType;
    const target = this.deps.targets[type];
    return { resolved, target, payload: target.parse(resolved.item.payload, resolved.key) };
  }

  /** A baseline's steps name scripts by store id; each must be one of the scripts this import brings. */
  private checkBaselineReferences(prepared: readonly Prepared[]): void {
    const scriptIds = new Set(prepared.filter((prep) => prep.target.type === 'script').map((prep) => prep.resolved.item.id));
    for (const prep of prepared) {
      if (prep.target.type !== 'baseline') continue;
      const payload = prep.payload as StoreBaselinePayload;
      payload.scripts.forEach((step, index) => {
        if (!scriptIds.has(step.script)) {
          throw validationError([{ field: `${prep.resolved.key}.payload.scripts[${index}].script`, message: `script ${step.script} is not in the item's requires (script/${step.script})` }]);
        }
      });
    }
  }

  private async write(root: ResolvedItem, prepared: ReadonlyMap<string, Prepared>, plan: readonly PlanStep[], scripts: Map<string, number>, user: string): Promise<StoreImportResult> {
    const record = await this.deps.imports.insert({ status: 'pending', key: root.key, source: root.source, by: user, steps: [], error: null });
    const steps: ImportStep[] = [];
    const results: StoreImportResult['items'] = [];
    const written: { prep: Prepared; local: LocalRef }[] = [];
    try {
      for (const step of plan) {
        const prep = prepared.get(step.key);
        if (!prep) continue;
        const storeId = prep.resolved.item.id;
        if (step.action === 'skipped') {
          results.push({ type: step.type, store_id: storeId, action: 'skipped', local_id: null, name: step.name });
          continue;
        }
        const note: WriteNote = { author: user, comment: `imported from store ${prep.resolved.source} ${prep.resolved.key} ${prep.resolved.item.version}` };
        const existingId = step.action === 'overwritten' ? step.existing?.id : undefined;
        const entry: ImportStep = { key: step.key, type: step.type, action: step.action, name: step.name, local_id: existingId ?? null, before: existingId === undefined ? null : prep.target.snapshot(existingId), done: false };
        steps.push(entry);
        // Recorded (durably) before the write: a crash from here on is undone at the next start.
        await this.deps.imports.update(record.id, { steps: structuredClone(steps) });
        const payload = prep.target.withName(prep.payload, step.name);
        const local = existingId === undefined ? await prep.target.create(payload, note, scripts) : await prep.target.overwrite(existingId, payload, note, scripts);
        entry.local_id = local.id;
        entry.done = true;
        await this.deps.imports.update(record.id, { steps: structuredClone(steps) });
        if (step.type === 'script') scripts.set(storeId, local.id);
        written.push({ prep, local });
        results.push({ type: step.type, store_id: storeId, action: step.action, local_id: local.id, name: local.name });
      }
      await this.recordProvenance(record.id, root, written, user);
      await this.deps.imports.update(record.id, { status: 'done' });
    } catch (err) {
      const problems = await this.undo(steps, { author: user, comment: `store import of ${root.key} failed: rolled back` });
      await this.deps.provenance.removeWhere((row) => row.import_id === record.id);
      await this.deps.imports.update(record.id, { status: 'rolled_back', error: `${errorMessage(err)}${problems.length ? ` (undo: ${problems.join('; ')})` : ''}` });
      this.log.warn(`store import of ${root.key} by ${user} failed and was rolled back: ${errorMessage(err)}`);
      throw err;
    }
    this.deps.events.emit({
      kind: 'store.imported',
      message: `${user} imported ${root.key} from ${root.source} (${results.filter((item) => item.action !== 'skipped').length} written, ${results.filter((item) => item.action === 'skipped').length} skipped)`,
      detail: { import_id: record.id, key: root.key, source: root.source, version: root.item.version, sha256: root.sha256, user, items: results },
    });
    return { dry_run: false, items: results };
  }

  private async recordProvenance(importId: number, root: ResolvedItem, written: readonly { prep: Prepared; local: LocalRef }[], user: string): Promise<void> {
    const at = this.deps.now().toISOString();
    const rows = written.map(({ prep, local }) => ({
      type: prep.resolved.item.type,
      store_id: prep.resolved.item.id,
      source: prep.resolved.source,
      version: prep.resolved.item.version,
      sha256: prep.resolved.sha256,
      local: [{ type: prep.resolved.item.type, id: local.id, name: local.name }],
      imported_at: at,
      imported_by: user,
      import_id: importId,
    }));
    if (root.item.type === 'bundle' && written.length > 0) {
      rows.push({
        type: 'bundle',
        store_id: root.item.id,
        source: root.source,
        version: root.item.version,
        sha256: root.sha256,
        local: written.map(({ prep, local }) => ({ type: prep.resolved.item.type, id: local.id, name: local.name })),
        imported_at: at,
        imported_by: user,
        import_id: importId,
      });
    }
    if (rows.length > 0) await this.deps.provenance.insertMany(rows);
  }

  /** Undoes recorded writes, newest first: created ones removed, overwritten ones restored. Returns what could not be undone. */
  private async undo(steps: readonly ImportStep[], note: WriteNote): Promise<string[]> {
    const problems: string[] = [];
    for (const step of [...steps].reverse()) {
      const target = this.deps.targets[step.type];
      try {
        if (step.action === 'overwritten') {
          if (step.local_id !== null && step.before !== null && step.before !== undefined) await target.restore(step.local_id, step.before, note);
          continue;
        }
        // Not acknowledged before a crash: the name was free when the import began, so whatever holds it now is this import's.
        const id = step.local_id ?? target.findByName(step.name)?.id;
        if (id !== undefined && target.exists(id)) await target.remove(id, note);
      } catch (err) {
        problems.push(`${step.key}: ${errorMessage(err)}`);
        this.log.error(`store import undo of ${step.key} (${step.action} "${step.name}") failed: ${errorMessage(err)}`);
      }
    }
    return problems;
  }
}

/** The item and everything it refers to, dependencies first (scripts before the baseline that uses them); refuses cycles. */
async function closure(root: ResolvedItem, resolve: ItemResolver): Promise<ResolvedItem[]> {
  const ordered: ResolvedItem[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = async (item: ResolvedItem, path: string[]): Promise<void> => {
    if (done.has(item.key)) return;
    if (visiting.has(item.key)) throw new AppError('VALIDATION_FAILED', `store items refer to each other in a cycle: ${[...path, item.key].join(' → ')}`);
    visiting.add(item.key);
    for (const ref of referencesOf(item.item)) {
      const { type, id } = parseItemRef(ref);
      await visit(await resolve(type, id), [...path, item.key]);
    }
    visiting.delete(item.key);
    done.add(item.key);
    ordered.push(item);
    if (ordered.length > MAX_IMPORT_ITEMS) throw new AppError('VALIDATION_FAILED', `an import brings at most ${MAX_IMPORT_ITEMS} items`);
  };
  await visit(root, []);
  return ordered;
}

/** A ResolvedItem of an item file from `source`. */
export function resolvedOf(source: string, item: StoreItemFile): ResolvedItem {
  return { key: itemKey(item.type, item.id), source, item, sha256: payloadSha256(item.payload) };
}
