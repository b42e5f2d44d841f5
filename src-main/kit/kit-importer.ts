import { planConflicts, type ExistingRef, type PlanStep } from '../core/conflict-plan.js';
import { AppError, errorMessage, isAppError, validationError, type FieldError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import { SerialQueue } from '../profiles/index.js';
import type { Collection } from '../store/collection.js';
import { KIT_SECTIONS, type KitImport, type KitImportResult, type KitItemResult, type KitSection } from './kit-contract.js';
import { fieldChanges } from './kit-diff.js';
import { readKit } from './kit-file.js';
import type { KitImportRow, KitImportStep } from './kit-records.js';
import type { KitTarget, RefResolver, SecretsIn, WriteNote } from './kit-target.js';

/*
 * Import (docs/kit.md, "Import"): open the file (passphrase, format
 * version), parse every section's items, compare each with the local item of
 * its key (unchanged, or a conflict to resolve), plan with the shared
 * conflict planner, check everything through the owning areas' validators,
 * then write in section order. A dry run stops before the writes and answers
 * the diff. The writes are all or nothing: a failure part-way undoes what
 * this import wrote, and the pending record lets the next start undo an
 * import a crash interrupted.
 */

/** Items per import at most (a lab's kit holds a few thousand). */
export const MAX_KIT_ITEMS = 50_000;

export type SplitTarget = KitTarget & { split?(raw: unknown, field: string): unknown[] };

export interface KitImporterDeps {
  targets: Readonly<Record<KitSection, SplitTarget>>;
  imports: Collection<KitImportRow>;
  events: EventLog;
  log: Logger;
}

interface Parsed {
  section: KitSection;
  target: KitTarget;
  /** `<section>/<key>`. */
  key: string;
  /** The target's key (references name it). */
  ref: string;
  item: unknown;
  existing: ExistingRef | undefined;
  changes: KitItemResult['changes'];
}

/** The sections whose checks read the DHCP subnets: when the kit changes those, their items are checked as they are written. */
const NEEDS_DHCP_SETTINGS: readonly KitSection[] = ['hosts', 'dhcp_reservations'];

export class KitImporter {
  private readonly deps: KitImporterDeps;
  /** One import at a time: the plan's view of taken names holds until its writes are done. */
  private readonly queue = new SerialQueue();
  private readonly log: Logger;

  constructor(deps: KitImporterDeps) {
    this.deps = deps;
    this.log = deps.log.scope('kit');
  }

  run(request: KitImport, user: string): Promise<KitImportResult> {
    return this.queue.run(async () => {
      const { document, secrets } = await readKit(request.content, request.passphrase);
      const include = new Set<KitSection>(request.include ?? KIT_SECTIONS);
      const parsed = await this.parse(document.sections, include, secrets);
      const differing = parsed.filter((entry) => entry.existing && entry.changes.length > 0);
      const plan = planConflicts(
        parsed.filter((entry) => !entry.existing || entry.changes.length > 0).map((entry) => ({ key: entry.key, type: entry.section, name: entry.target.nameOf(entry.item), canRename: entry.target.canRename, existing: entry.existing })),
        { onConflict: request.on_conflict ?? 'ask', resolutions: request.resolutions ?? {}, isTaken: (section, name) => this.deps.targets[section].isTaken(name) },
      );
      if (plan.unrenamable.length > 0) {
        throw validationError(plan.unrenamable.map((key) => ({ field: `resolutions.${key}`, message: 'this item is known by its data (a MAC, a record, a settings part) and cannot be renamed; choose skip or overwrite' })));
      }
      if (plan.conflicts.length > 0 && request.dry_run !== true) {
        const names = plan.conflicts.map((conflict) => conflict.key);
        throw new AppError('CONFLICT', `the kit would change ${names.length} existing item(s): ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}; answer with on_conflict or resolutions (skip, overwrite, rename)`, {
          details: plan.conflicts.map((conflict) => ({ field: conflict.key, message: `${conflict.type} "${conflict.name}" exists (id ${conflict.existing_id}) with other content`, ...conflict })),
        });
      }
      const steps = new Map(plan.steps.map((step) => [step.key, step]));
      const conflicted = new Set(plan.conflicts.map((conflict) => conflict.key));
      const refs = this.resolver(parsed, steps);
      await this.validate(parsed, steps, conflicted, refs);
      const results = parsed.map((entry) => resultOf(entry, steps.get(entry.key), conflicted.has(entry.key)));
      const warnings = [...document.warnings];
      if (differing.length > 0 && request.dry_run === true && conflicted.size > 0) warnings.push(`${conflicted.size} item(s) conflict with local ones: choose skip, overwrite or rename for each`);
      if (request.dry_run === true) return { dry_run: true, conflicts: conflicted.size, items: results, warnings };
      await this.write(parsed, steps, refs, results, user);
      this.deps.events.emit({
        kind: 'kit.imported',
        message: `${user} imported a kit exported by ${document.exported_by} from ${document.source.server_name} (${count(results, 'created')} created, ${count(results, 'updated')} updated, ${count(results, 'renamed')} renamed, ${count(results, 'skipped')} skipped)`,
        detail: { user, exported_at: document.exported_at, source: document.source, counts: countsOf(results) },
      });
      return { dry_run: false, conflicts: 0, items: results, warnings };
    });
  }

  /** At start: undoes every import a crash left pending (docs/kit.md, "All or nothing"). */
  async recover(): Promise<number> {
    const pending = this.deps.imports.filter((row) => row.status === 'pending');
    for (const row of pending) {
      const problems = await this.undo(row.steps, { author: 'system', comment: 'kit import interrupted: rolled back at start' });
      await this.deps.imports.update(row.id, { status: 'rolled_back', error: `interrupted; rolled back at start${problems.length ? ` (${problems.join('; ')})` : ''}` });
      this.log.warn(`kit import ${row.id} by ${row.by} was interrupted; its ${row.steps.length} write(s) were undone`);
      this.deps.events.emit({ kind: 'kit.import.rolled_back', level: 'warn', message: `A kit import by ${row.by} was interrupted and has been rolled back`, detail: { import_id: row.id, steps: row.steps.length, problems } });
    }
    return pending.length;
  }

  private async parse(sections: Record<string, unknown>, include: ReadonlySet<KitSection>, secrets: SecretsIn | null): Promise<Parsed[]> {
    const out: Parsed[] = [];
    const errors: FieldError[] = [];
    for (const section of KIT_SECTIONS) {
      const raw = sections[section];
      if (raw === undefined || !include.has(section)) continue;
      const target = this.deps.targets[section];
      const field = `content.sections.${section}`;
      let items: unknown[];
      if (target.split) items = target.split(raw, field);
      else if (Array.isArray(raw)) items = raw;
      else throw validationError([{ field, message: 'must be a list' }]);
      if (out.length + items.length > MAX_KIT_ITEMS) throw new AppError('VALIDATION_FAILED', `a kit holds at most ${MAX_KIT_ITEMS} items`);
      const seen = new Set<string>();
      const start = out.length;
      for (const [index, raw] of items.entries()) {
        try {
          const item = target.parse(raw, `${field}.${index}`, secrets);
          const ref = target.keyOf(item);
          const key = `${section}/${ref}`;
          if (seen.has(key)) throw validationError([{ field: `${field}.${index}`, message: `"${ref}" appears twice in the section` }]);
          seen.add(key);
          const existing = target.findExisting(item);
          const changes = existing ? fieldChanges(target.compared ? target.compared(item) : item, await target.current(existing.id), target.secretFields) : [];
          out.push({ section, target, key, ref, item, existing, changes });
        } catch (err) {
          if (!isAppError(err) || err.code !== 'VALIDATION_FAILED') throw err;
          errors.push(...(err.details ?? [{ field: `${field}.${index}`, message: err.message }]));
        }
      }
      const rank = target.rank;
      if (rank) out.push(...out.splice(start).sort((x, y) => rank(x.item) - rank(y.item)));
    }
    if (errors.length > 0) throw validationError(errors.slice(0, 100));
    return out;
  }

  /** References by key: what this import wrote (or kept), else the local item of that key. */
  private resolver(parsed: readonly Parsed[], steps: ReadonlyMap<string, PlanStep<KitSection>>): RefResolver & { written: Map<string, number> } {
    const written = new Map<string, number>();
    const inKit = new Set(parsed.map((entry) => entry.key));
    for (const entry of parsed) {
      const step = steps.get(entry.key);
      // Unchanged and skipped items are the local ones; an overwrite keeps its id (until a write says otherwise).
      if (entry.existing && (!step || step.action === 'skipped' || step.action === 'overwritten')) written.set(entry.key, entry.existing.id);
    }
    const targets = this.deps.targets;
    return {
      written,
      id: (section, key) => written.get(`${section}/${key}`) ?? (inKit.has(`${section}/${key}`) ? undefined : targets[section].lookup(key)?.id),
      known: (section, key) => inKit.has(`${section}/${key}`) || targets[section].lookup(key) !== undefined,
    };
  }

  /** Every item the plan writes, through its area's checks; all problems at once. */
  private async validate(parsed: readonly Parsed[], steps: ReadonlyMap<string, PlanStep<KitSection>>, conflicted: ReadonlySet<string>, refs: RefResolver): Promise<void> {
    // A dry run's open conflict on the DHCP part may become an overwrite: check as if it will.
    const dhcpChanges = steps.get('settings/dhcp')?.action === 'overwritten' || conflicted.has('settings/dhcp');
    const errors: FieldError[] = [];
    let onlyConflicts = true;
    for (const entry of parsed) {
      const step = steps.get(entry.key);
      if (!step || step.action === 'skipped') continue;
      // Checked when written (a failure then undoes the import): their address checks read subnets the kit changes.
      if (dhcpChanges && NEEDS_DHCP_SETTINGS.includes(entry.section)) continue;
      try {
        await entry.target.validate(entry.target.withName(entry.item, step.name), step.action === 'overwritten' ? step.existing?.id : undefined, refs);
      } catch (err) {
        if (!isAppError(err) || (err.code !== 'VALIDATION_FAILED' && err.code !== 'CONFLICT')) throw err;
        if (err.code !== 'CONFLICT') onlyConflicts = false;
        const details = err.details && err.details.length > 0 ? err.details : [{ field: 'item', message: err.message }];
        errors.push(...details.map((detail) => ({ field: `${entry.key}: ${detail.field}`, message: detail.message })));
      }
    }
    if (errors.length === 0) return;
    const message = `the kit does not fit this server: ${errors.slice(0, 3).map((error) => `${error.field}: ${error.message}`).join('; ')}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`;
    // Only duplicates (a name or address another local item holds) answer 409; anything else is 400.
    throw new AppError(onlyConflicts ? 'CONFLICT' : 'VALIDATION_FAILED', message, { details: errors.slice(0, 100) });
  }

  private async write(parsed: readonly Parsed[], plan: ReadonlyMap<string, PlanStep<KitSection>>, refs: RefResolver & { written: Map<string, number> }, results: KitItemResult[], user: string): Promise<void> {
    const record = await this.deps.imports.insert({ status: 'pending', by: user, steps: [], error: null });
    const steps: KitImportStep[] = [];
    const note: WriteNote = { author: user, comment: 'imported from a kit' };
    const byKey = new Map(results.map((result) => [result.key, result]));
    // netboot's default profile names a profile: its part goes last.
    const ordered = [...parsed.filter((entry) => entry.key !== 'settings/netboot'), ...parsed.filter((entry) => entry.key === 'settings/netboot')];
    const settingsFirst = [...ordered.filter((entry) => entry.section === 'settings' && entry.key !== 'settings/netboot'), ...ordered.filter((entry) => entry.section !== 'settings' || entry.key === 'settings/netboot')];
    try {
      for (const entry of settingsFirst) {
        const step = plan.get(entry.key);
        if (!step || step.action === 'skipped') continue;
        const action = step.action === 'overwritten' ? 'overwritten' : step.action === 'renamed' ? 'renamed' : 'created';
        const item = entry.target.withName(entry.item, step.name);
        const existingId = action === 'overwritten' ? step.existing?.id : undefined;
        const logged: KitImportStep = { key: entry.key, section: entry.section, action, lookup_key: entry.target.keyOf(item), local_id: existingId ?? null, before: existingId === undefined ? null : await entry.target.snapshot(existingId), done: false };
        steps.push(logged);
        // Recorded (durably) before the write: a crash from here on is undone at the next start.
        await this.deps.imports.update(record.id, { steps: structuredClone(steps) });
        const local = existingId === undefined ? await entry.target.create(item, refs, note) : await entry.target.overwrite(existingId, item, refs, note);
        logged.local_id = local.id;
        logged.done = true;
        await this.deps.imports.update(record.id, { steps: structuredClone(steps) });
        refs.written.set(entry.key, local.id);
        const result = byKey.get(entry.key);
        if (result) {
          result.local_id = entry.section === 'settings' ? null : local.id;
          result.local_name = local.name;
        }
      }
      await this.deps.imports.update(record.id, { status: 'done' });
    } catch (err) {
      const problems = await this.undo(steps, { author: user, comment: 'kit import failed: rolled back' });
      await this.deps.imports.update(record.id, { status: 'rolled_back', error: `${errorMessage(err)}${problems.length ? ` (undo: ${problems.join('; ')})` : ''}` });
      this.log.warn(`kit import by ${user} failed and was rolled back: ${errorMessage(err)}`);
      throw err;
    }
  }

  /** Undoes recorded writes, newest first: created ones removed, overwritten ones restored. Returns what could not be undone. */
  private async undo(steps: readonly KitImportStep[], note: WriteNote): Promise<string[]> {
    const problems: string[] = [];
    for (const step of [...steps].reverse()) {
      const target = this.deps.targets[step.section];
      try {
        if (step.action === 'overwritten') {
          const id = step.local_id ?? target.lookup(step.lookup_key)?.id;
          if (id !== undefined && step.before !== null && step.before !== undefined) await target.restore(id, step.before, note);
          continue;
        }
        // Not acknowledged before a crash: the key was free when the import began, so whatever holds it now is this import's.
        const id = step.local_id ?? target.lookup(step.lookup_key)?.id;
        if (id !== undefined && target.lookup(step.lookup_key)?.id === id) await target.remove(id, note);
      } catch (err) {
        problems.push(`${step.key}: ${errorMessage(err)}`);
        this.log.error(`kit import undo of ${step.key} (${step.action}) failed: ${errorMessage(err)}`);
      }
    }
    return problems;
  }
}

function resultOf(entry: Parsed, step: PlanStep<KitSection> | undefined, conflict: boolean): KitItemResult {
  const name = entry.target.nameOf(entry.item);
  const base = { key: entry.key, section: entry.section, name, existing_id: entry.section === 'settings' ? null : (entry.existing?.id ?? null), local_id: null, local_name: name, can_rename: entry.target.canRename, changes: entry.changes };
  if (conflict) return { ...base, action: 'conflict' };
  if (!step) return { ...base, action: 'unchanged', changes: [] };
  switch (step.action) {
    case 'created':
      return { ...base, action: 'created', changes: [] };
    case 'overwritten':
      return { ...base, action: 'updated' };
    case 'renamed':
      return { ...base, action: 'renamed', local_name: step.name, changes: [] };
    default:
      return { ...base, action: 'skipped', local_name: step.existing?.name ?? name };
  }
}

function count(results: readonly KitItemResult[], action: KitItemResult['action']): number {
  return results.filter((result) => result.action === action).length;
}

function countsOf(results: readonly KitItemResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) counts[result.action] = (counts[result.action] ?? 0) + 1;
  return counts;
}
