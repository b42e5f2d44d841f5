import { createHash } from 'node:crypto';
import { conflict, notFound, validationError } from '../core/errors.js';
import { paginate, type ListPage, type ListQueryInput } from '../core/http-kit/list-query.js';
import type { Logger } from '../core/logger.js';
import { TextVersions, type TextVersion } from '../core/text-versions.js';
import type { EventLog } from '../events/event-log.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { SerialQueue } from '../profiles/index.js';
import type { ScriptChecker } from './check/script-checker.js';
import { buildCandidate, type ScriptCandidate } from './script-input.js';
import type { ScriptsFacade } from './scripts-facade.js';
import {
  type OsFamily,
  type Script,
  type ScriptCheck,
  type ScriptCreate,
  type ScriptDiff,
  type ScriptKind,
  type ScriptUpdate,
  type ScriptVariables,
  type ScriptVersion,
} from './scripts-contract.js';

export const SCRIPTS_COLLECTION = 'scripts';
export const SCRIPT_VERSIONS_COLLECTION = 'script_versions';
export const SCRIPT_SORT_FIELDS = ['id', 'name', 'kind', 'os_family', 'version', 'created_at', 'updated_at'] as const satisfies readonly (keyof Script)[];
export const SCRIPT_VERSION_SORT_FIELDS = ['id', 'version', 'author', 'created_at'] as const satisfies readonly (keyof ScriptVersion)[];

/** A stored version: the text and the kind it was checked as. */
export interface ScriptVersionRow extends TextVersion {
  script_id: number;
  kind: ScriptKind;
  content: string;
}

/** Who made a change and why (the comment goes with a new version). */
export interface ScriptChangeNote {
  author: string;
  comment?: string;
}

export interface ScriptFilter {
  kind?: ScriptKind;
  os_family?: OsFamily;
}

export interface ScriptServiceDeps {
  store: Store;
  events: EventLog;
  log: Logger;
  checker: Pick<ScriptChecker, 'check'>;
}

const MAX_NAMED_USERS = 20;

export function sha256Of(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/**
 * Post-install scripts and the history of their content (docs/scripts.md).
 * A change of content or kind stores a new version (core/text-versions.ts,
 * the versioning profiles and answer templates use); versions are never
 * rewritten, a rollback is one more version. Writes run one at a time, so
 * the name check and the usage check hold until the write lands.
 */
export class ScriptService implements ScriptsFacade {
  private readonly rows: Collection<Script>;
  private readonly versions: TextVersions<ScriptVersionRow>;
  private readonly queue = new SerialQueue();
  private readonly usageChecks: ((scriptId: number) => string[])[] = [];
  private readonly deps: ScriptServiceDeps;
  private readonly log: Logger;

  constructor(deps: ScriptServiceDeps) {
    this.deps = deps;
    this.rows = deps.store.collection<Script>(SCRIPTS_COLLECTION);
    this.versions = new TextVersions(deps.store.collection<ScriptVersionRow>(SCRIPT_VERSIONS_COLLECTION), {
      ownerOf: (version) => version.script_id,
      textOf: (version) => version.content,
    });
    this.log = deps.log.scope('scripts');
  }

  addUsageCheck(check: (scriptId: number) => string[]): void {
    this.usageChecks.push(check);
  }

  get(id: number): Script | undefined {
    const row = this.rows.get(id);
    return row ? view(row) : undefined;
  }

  require(id: number): Script {
    const row = this.rows.get(id);
    if (!row) throw notFound('script', id);
    return view(row);
  }

  byName(name: string): Script | undefined {
    const key = nameKey(name);
    const row = this.rows.find((script) => nameKey(script.name) === key);
    return row ? view(row) : undefined;
  }

  list(): readonly Script[] {
    return this.rows.all().map(view);
  }

  page(query: ListQueryInput & ScriptFilter = {}): ListPage<Script> {
    const rows = this.rows.filter((row) => (query.kind === undefined || row.kind === query.kind) && (query.os_family === undefined || row.os_family === query.os_family));
    const page = paginate(rows, query, {
      sortable: SCRIPT_SORT_FIELDS,
      defaultSort: 'name',
      searchText: (row) => [row.name, row.description, row.kind, row.os_family],
    });
    return { data: page.data.map(view), meta: page.meta };
  }

  check(kind: ScriptKind, content: string, variables: ScriptVariables = {}): Promise<ScriptCheck> {
    return this.deps.checker.check(kind, content, variables);
  }

  async validate(input: ScriptCreate | ScriptUpdate, existingId?: number): Promise<void> {
    const current = existingId === undefined ? null : this.requireRow(existingId);
    await this.candidate(current, input);
  }

  create(input: ScriptCreate, author: string): Promise<Script> {
    return this.queue.run(async () => {
      const candidate = await this.candidate(null, input);
      const row = await this.rows.insert({ ...candidate, version: 1, sha256: sha256Of(candidate.content) });
      await this.addVersion(row, { author, ...commentOf(input) }, 'created');
      this.log.info(`script ${row.id} "${row.name}" (${row.kind}) created by ${author}`);
      this.emit({ kind: 'script.created', message: `script "${row.name}" created`, row, author });
      return view(row);
    });
  }

  update(id: number, input: ScriptUpdate, author: string): Promise<Script> {
    return this.queue.run(async () => {
      const current = this.requireRow(id);
      const candidate = await this.candidate(current, input);
      const changed = candidate.content !== current.content || candidate.kind !== current.kind;
      const updated = await this.rows.update(id, { ...candidate, version: changed ? current.version + 1 : current.version, sha256: sha256Of(candidate.content) });
      if (!updated) throw notFound('script', id);
      if (changed) await this.addVersion(updated, { author, ...commentOf(input) }, 'updated');
      this.emit({ kind: 'script.updated', message: `script "${updated.name}" updated${changed ? ` to version ${updated.version}` : ''}`, row: updated, author });
      return view(updated);
    });
  }

  remove(id: number, options: { force?: boolean } = {}, author = 'unknown'): Promise<Script> {
    return this.queue.run(async () => {
      const row = this.requireRow(id);
      const users = this.usersOf(id);
      if (users.length > 0 && options.force !== true) {
        const named = users.slice(0, MAX_NAMED_USERS).join(', ');
        const more = users.length > MAX_NAMED_USERS ? ` and ${users.length - MAX_NAMED_USERS} more` : '';
        throw conflict(
          `script "${row.name}" (id ${id}) is used by ${named}${more}; remove it from them first, or delete with ?force=true`,
          users.map((user) => ({ field: 'used_by', message: user })),
        );
      }
      await this.rows.remove(id);
      await this.versions.removeOwner(id);
      this.log.info(`script ${id} "${row.name}" deleted${users.length > 0 ? ` (forced; it was used by ${users.join(', ')})` : ''}`);
      this.emit({ kind: 'script.deleted', message: `script "${row.name}" deleted${users.length > 0 ? ' (forced while in use)' : ''}`, row, author, extra: users.length > 0 ? { forced: true, used_by: users } : {} });
      return view(row);
    });
  }

  /** Who uses a script, as named by the registered checks (baselines). */
  usersOf(id: number): string[] {
    return this.usageChecks.flatMap((check) => check(id));
  }

  listVersions(id: number, query: ListQueryInput = {}): ListPage<ScriptVersion> {
    this.requireRow(id);
    const page = this.versions.list(id, query, {
      sortable: SCRIPT_VERSION_SORT_FIELDS,
      defaultSort: '-version',
      searchText: (version) => [version.author, version.comment, version.content],
    });
    return { data: page.data.map(versionView), meta: page.meta };
  }

  /** One version by number, with the unified diff from it to the current content. */
  getVersion(id: number, version: number): ScriptVersion {
    const row = this.requireRow(id);
    const found = this.requireVersion(id, version);
    const { diff } = this.versions.diff(`script-${id}`, found, { version: `${row.version} (current)`, text: row.content });
    return { ...versionView(found), diff_to_current: diff };
  }

  /** Unified diff from version `from` to version `to` (default: the current content). */
  diff(id: number, from: number, to?: number): ScriptDiff {
    const row = this.requireRow(id);
    const fromVersion = this.requireVersion(id, from);
    const target = to === undefined ? { version: row.version, text: row.content } : this.requireVersion(id, to);
    const { diff, additions, deletions } = this.versions.diff(`script-${id}`, fromVersion, target);
    return { script_id: id, from_version: fromVersion.version, to_version: target.version, diff, additions, deletions };
  }

  /**
   * Makes version `version`'s content (and kind) current again as a new
   * version, checked like any save. When it already is current nothing is
   * written (no duplicate version).
   */
  rollback(id: number, version: number, note: ScriptChangeNote): Promise<Script> {
    return this.queue.run(async () => {
      const current = this.requireRow(id);
      const target = this.requireVersion(id, version);
      if (target.content === current.content && target.kind === current.kind) return view(current);
      const candidate = await this.candidate(current, { content: target.content, kind: target.kind });
      const updated = await this.rows.update(id, { ...candidate, version: current.version + 1, sha256: sha256Of(candidate.content) });
      if (!updated) throw notFound('script', id);
      await this.addVersion(updated, { author: note.author, comment: note.comment ?? `rollback to version ${target.version}` }, 'rollback');
      this.emit({ kind: 'script.updated', message: `script "${updated.name}" rolled back to version ${target.version} (now version ${updated.version})`, row: updated, author: note.author });
      return view(updated);
    });
  }

  /** Field checks, the name (409 when taken) and the content check (400 listing its errors with lines); writes nothing. */
  private async candidate(current: Script | null, input: ScriptCreate | ScriptUpdate): Promise<ScriptCandidate> {
    const candidate = buildCandidate(current, input);
    const key = nameKey(candidate.name);
    const other = this.rows.find((row) => row.id !== current?.id && nameKey(row.name) === key);
    if (other) throw conflict(`a script named "${other.name}" exists already (id ${other.id})`, [{ field: 'body.name', message: 'is taken' }]);
    const unchanged = current !== null && candidate.content === current.content && candidate.kind === current.kind && sameVariables(candidate.variables, current.variables);
    if (!unchanged) {
      const result = await this.deps.checker.check(candidate.kind, candidate.content, candidate.variables);
      const errors = result.issues.filter((issue) => issue.severity === 'error');
      if (errors.length > 0) {
        throw validationError(errors.map((issue) => ({ field: 'body.content', message: `${issue.line === null ? '' : `line ${issue.line}: `}${issue.message} (${result.checker})` })));
      }
    }
    return candidate;
  }

  private requireRow(id: number): Script {
    const row = this.rows.get(id);
    if (!row) throw notFound('script', id);
    return row;
  }

  private requireVersion(id: number, version: number): ScriptVersionRow {
    const found = this.versions.byNumber(id, version);
    if (!found) throw notFound(`version of script ${id}:`, version);
    return found;
  }

  private addVersion(row: Script, note: ScriptChangeNote, fallbackComment: string): Promise<ScriptVersionRow> {
    return this.versions.add({ script_id: row.id, version: row.version, kind: row.kind, content: row.content, author: note.author, comment: note.comment ?? fallbackComment });
  }

  private emit(change: { kind: 'script.created' | 'script.updated' | 'script.deleted'; message: string; row: Script; author: string; extra?: Record<string, unknown> }): void {
    const { row } = change;
    this.deps.events.emit({
      kind: change.kind,
      message: change.message,
      detail: { id: row.id, name: row.name, kind: row.kind, os_family: row.os_family, version: row.version, sha256: row.sha256, user: change.author, ...change.extra },
    });
  }

}

function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

function commentOf(input: ScriptCreate | ScriptUpdate): { comment?: string } {
  return input.comment === undefined ? {} : { comment: input.comment };
}

function sameVariables(a: ScriptVariables, b: ScriptVariables): boolean {
  return JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

/** The API view: a copy, never the stored row (callers may change what they get). */
function view(row: Script): Script {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    os_family: row.os_family,
    description: row.description,
    content: row.content,
    variables: { ...row.variables },
    version: row.version,
    sha256: row.sha256,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function versionView(row: ScriptVersionRow): ScriptVersion {
  return { id: row.id, script_id: row.script_id, version: row.version, kind: row.kind, content: row.content, author: row.author, comment: row.comment, created_at: row.created_at };
}
