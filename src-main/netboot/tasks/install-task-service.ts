import { AppError, errorMessage, invalid, notFound } from '../../core/errors.js';
import { paginate, type ListPage, type ListQueryInput } from '../../core/http-kit/list-query.js';
import type { Logger } from '../../core/logger.js';
import { normalizeMac, unicastMacProblem } from '../../core/mac.js';
import type { SecretBox } from '../../core/secret-box.js';
import type { EventLog } from '../../events/event-log.js';
import type { Host } from '../../hosts/host-types.js';
import { SerialQueue } from '../../profiles/serial-queue.js';
import type { Collection } from '../../store/collection.js';
import type { Store } from '../../store/store.js';
import { NETBOOT_ARCHES, type NetbootArch, type TaskCreate, type TaskState, type TaskUpdate } from '../netboot-contract.js';
import type { AnswerRenderer, CatalogReader, ResolvedEntry } from '../netboot-ports.js';
import { assertTransition, isFinalState } from './task-states.js';
import { newTaskToken, openToken, sealToken, tokensEqual } from './task-token.js';
import { MAX_TRANSITIONS, type TaskRow, type TaskTransition, type TransitionSource } from './task-types.js';

export const TASKS_COLLECTION = 'netboot_tasks';
/** How often overdue tasks are looked for (reads of one task also check it at once). */
export const EXPIRY_CHECK_MS = 30_000;

export const TASK_SORT_FIELDS = ['id', 'mac', 'host_id', 'distro', 'state', 'created_at', 'updated_at', 'expires_at'] as const satisfies readonly (keyof TaskRow)[];

export interface TaskFilter {
  state?: TaskState;
  mac?: string;
  host_id?: number;
}

export interface InstallTaskServiceDeps {
  store: Store;
  events: EventLog;
  log: Logger;
  secrets: Pick<SecretBox, 'encrypt' | 'decrypt'>;
  settings: { netboot(): { task_expiry_minutes: number } };
  catalog: CatalogReader;
  answers: Pick<AnswerRenderer, 'require'>;
  hosts: { get(id: number): Host | undefined; findByMac(mac: string): Host | undefined };
  /** The entry's boot files: a new task notes what is missing and starts downloading what is only remote. */
  files?: TaskFiles;
  now?: () => Date;
  expiryCheckMs?: number;
}

/** What the tasks need of the files part (docs/netboot.md, "Boot files and the download cache"). */
export interface TaskFiles {
  /** Why the entry cannot boot now (files missing, only remote while offline), or null. Local checks only, never the network. */
  problem(resolved: ResolvedEntry): Promise<string | null>;
  /** Starts a prefetch of what is only remote (nothing when every file is here). */
  prefetch(resolved: ResolvedEntry): Promise<void>;
}

/** A task's entry as people name it: `Debian 12 (x86_64)`. */
export function taskLabel(row: Pick<TaskRow, 'distro' | 'version' | 'arch'>, resolved?: ResolvedEntry): string {
  const name = resolved ? resolved.entry.name : row.distro;
  return `${name} ${row.version} (${row.arch})`;
}

/**
 * Install tasks (docs/netboot.md, "Install tasks and the PXE runtime
 * endpoints"): "install <entry> on the machine with MAC X, unattended". At
 * most one task per MAC is active (not final) at a time; every state change
 * is kept on the task and emitted as `netboot.task.state`. Writes run one at
 * a time (the one-active-task rule is a read-check-write).
 */
export class InstallTaskService {
  private readonly rows: Collection<TaskRow>;
  private readonly deps: InstallTaskServiceDeps;
  private readonly log: Logger;
  private readonly queue = new SerialQueue();
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | null = null;

  constructor(deps: InstallTaskServiceDeps) {
    this.deps = deps;
    this.rows = deps.store.collection<TaskRow>(TASKS_COLLECTION);
    this.log = deps.log.scope('netboot-tasks');
    this.now = deps.now ?? (() => new Date());
  }

  list(query: ListQueryInput & TaskFilter = {}): ListPage<TaskRow> {
    const mac = query.mac === undefined ? undefined : normalizeMac(query.mac);
    if (mac === null) throw invalid('querystring.mac', `"${query.mac ?? ''}" is not a MAC address`);
    const rows = this.rows.filter(
      (row) =>
        (query.state === undefined || row.state === query.state) &&
        (mac === undefined || row.mac === mac) &&
        (query.host_id === undefined || row.host_id === query.host_id),
    );
    return paginate(rows, query, {
      sortable: TASK_SORT_FIELDS,
      defaultSort: '-id',
      searchText: (row) => [row.mac, row.distro, row.version, row.state, row.message],
    });
  }

  get(id: number): TaskRow | undefined {
    return this.rows.get(id);
  }

  require(id: number): TaskRow {
    const row = this.rows.get(id);
    if (!row) throw notFound('install task', id);
    return row;
  }

  /** The MAC's task that is not final, if any (there is at most one). */
  activeForMac(mac: string): TaskRow | undefined {
    return this.rows.find((row) => row.mac === mac && !isFinalState(row.state));
  }

  /** The MAC's newest task, whatever its state. */
  latestForMac(mac: string): TaskRow | undefined {
    let latest: TaskRow | undefined;
    for (const row of this.rows.all()) if (row.mac === mac && (!latest || row.id > latest.id)) latest = row;
    return latest;
  }

  /** Tasks that render answer template `templateId` and are not final (the answers part's delete check). */
  usingTemplate(templateId: number): TaskRow[] {
    return this.rows.filter((row) => row.template_id === templateId && !isFinalState(row.state));
  }

  /** The catalog entry of a task, as it resolves now. */
  resolve(row: Pick<TaskRow, 'distro' | 'version' | 'arch'>): ResolvedEntry {
    return this.deps.catalog.resolve(row.distro, row.version, row.arch);
  }

  create(input: TaskCreate): Promise<TaskRow> {
    return this.queue.run(async () => {
      const { mac, host } = this.machine(input);
      this.assertNoActive(mac, null);
      const arch = input.arch ?? defaultArch(host);
      const resolved = this.deps.catalog.resolve(input.distro, input.version, arch);
      const template = this.template(resolved, input.template_id ?? null);
      const now = this.now();
      const minutes = input.expires_in_minutes ?? this.deps.settings.netboot().task_expiry_minutes;
      const id = this.rows.nextId();
      const token = newTaskToken();
      const transition: TaskTransition = { from: null, to: 'pending', at: now.toISOString(), message: 'created', source: 'api' };
      const row = await this.rows.insert(
        {
          host_id: host?.id ?? null,
          mac,
          distro: resolved.entry.distro,
          version: resolved.version.version,
          arch: resolved.arch.arch,
          template_id: template?.id ?? null,
          template_version: template?.version ?? null,
          answer_kind: resolved.answer?.kind ?? null,
          variables: { ...(input.variables ?? {}) },
          state: 'pending',
          after_install: input.after_install ?? 'local_disk',
          expiry_minutes: minutes,
          expires_at: new Date(now.getTime() + minutes * 60_000).toISOString(),
          started_at: null,
          finished_at: null,
          boot_ip: null,
          token_sealed: await sealToken(this.deps.secrets, id, token),
          events_after_id: this.lastEventId(),
          transitions: [transition],
          message: (await this.deps.files?.problem(resolved)) ?? '',
        },
        now,
      );
      if (row.id !== id) throw new Error(`install task id ${row.id} differs from the reserved ${id}: its token is bound to the wrong id`);
      this.deps.events.emit(
        {
          kind: 'netboot.task.created',
          message: `install task ${row.id} created: ${taskLabel(row, resolved)} on ${mac}`,
          mac,
          ...(row.host_id !== null ? { host_id: row.host_id } : {}),
          detail: { task_id: row.id, distro: row.distro, version: row.version, arch: row.arch, template_id: row.template_id, after_install: row.after_install },
        },
        now,
      );
      this.log.info(`install task ${row.id} created for ${mac}: ${taskLabel(row, resolved)}${row.message ? `; ${row.message}` : ''}`);
      // Files only on the mirror are fetched now, not while the machine waits for its kernel.
      this.deps.files?.prefetch(resolved).catch((err: unknown) => this.log.warn(`install task ${row.id}: prefetch not started: ${errorMessage(err)}`));
      return row;
    });
  }

  /** PUT: cancel, restart (pending with a new token) and changes of a task that is not final (or restarted by the same request). */
  update(id: number, input: TaskUpdate): Promise<TaskRow> {
    return this.queue.run(async () => {
      let row = this.require(id);
      const changes = input.template_id !== undefined || input.variables !== undefined || input.after_install !== undefined || input.expires_in_minutes !== undefined;
      if (input.state === 'cancelled') {
        if (changes) throw invalid('body.state', 'a cancel takes no other change');
        return this.move(row, 'cancelled', 'cancelled by an operator', 'api');
      }
      if (input.state === 'pending') {
        if (!isFinalState(row.state)) throw new AppError('INVALID_STATE', `install task ${id} is ${row.state}: only a failed, cancelled or expired task is restarted`);
        assertTransition(id, row.state, 'pending');
        this.assertNoActive(row.mac, id);
      } else if (isFinalState(row.state)) {
        throw new AppError('INVALID_STATE', `install task ${id} is ${row.state}: restart it (state "pending") to change it`);
      }
      const now = this.now();
      const patch: Partial<TaskRow> = {};
      if (input.template_id !== undefined) {
        const template = this.template(this.resolve(row), input.template_id);
        patch.template_id = template?.id ?? null;
        patch.template_version = template?.version ?? null;
      }
      if (input.variables !== undefined) patch.variables = { ...input.variables };
      if (input.after_install !== undefined) patch.after_install = input.after_install;
      const minutes = input.expires_in_minutes ?? (input.state === 'pending' ? row.expiry_minutes : undefined);
      if (minutes !== undefined) {
        patch.expiry_minutes = minutes;
        patch.expires_at = new Date(now.getTime() + minutes * 60_000).toISOString();
      }
      if (input.state === 'pending') {
        // A restart is a new attempt: a new token (old answer URLs stop working), a fresh timeline window.
        patch.token_sealed = await sealToken(this.deps.secrets, id, newTaskToken());
        patch.started_at = null;
        patch.finished_at = null;
        patch.boot_ip = null;
        patch.message = '';
        patch.events_after_id = this.lastEventId();
      }
      if (Object.keys(patch).length > 0) row = await this.write(row, patch, now);
      if (input.state === 'pending') row = await this.move(row, 'pending', 'restarted by an operator', 'api');
      return row;
    });
  }

  remove(id: number): Promise<TaskRow> {
    return this.queue.run(async () => {
      const row = this.require(id);
      await this.rows.remove(id);
      this.log.info(`install task ${id} (${row.mac}, ${row.state}) deleted`);
      return row;
    });
  }

  /**
   * Moves a task (boot path, answer fetch, callback, expiry). The same state
   * again is a no-op (a repeated callback), except booting → booting, which
   * is a new boot and recorded.
   */
  transition(id: number, to: TaskState, message: string, source: TransitionSource, bootIp?: string): Promise<TaskRow> {
    return this.queue.run(async () => {
      const row = this.require(id);
      if (row.state === to && to !== 'booting') return row;
      return this.move(row, to, message, source, bootIp === undefined ? {} : { boot_ip: bootIp });
    });
  }

  /** Records the template version an answer was rendered from (the template may have changed since the task was made). */
  noteTemplateVersion(id: number, version: number): Promise<void> {
    return this.queue.run(async () => {
      const row = this.rows.get(id);
      if (row && row.template_version !== version) await this.rows.update(id, { template_version: version }, this.now());
    });
  }

  /** The task's token in clear (for its URLs); throws when the key file changed. */
  token(row: TaskRow): Promise<string> {
    return openToken(this.deps.secrets, row.id, row.token_sealed);
  }

  /** Whether `given` is the task's token, compared in constant time; an unreadable sealed token matches nothing. */
  async tokenMatches(row: TaskRow, given: string): Promise<boolean> {
    let expected: string;
    try {
      expected = await this.token(row);
    } catch (err) {
      this.log.error(`the token of install task ${row.id} cannot be read (${err instanceof Error ? err.message : String(err)}); restart the task for a new one`);
      return false;
    }
    return tokensEqual(expected, given);
  }

  /** Whether the task is past its expiry now (and not final). */
  overdue(row: TaskRow): boolean {
    return !isFinalState(row.state) && Date.parse(row.expires_at) <= this.now().getTime();
  }

  /** Expires the task now when it is overdue; returns the current row. */
  async expireIfOverdue(row: TaskRow): Promise<TaskRow> {
    if (!this.overdue(row)) return row;
    return this.queue.run(async () => {
      const current = this.require(row.id);
      if (!this.overdue(current)) return current;
      return this.move(current, 'expired', `expired after ${current.expiry_minutes} minutes`, 'expiry');
    });
  }

  /** Moves every overdue task to expired; returns how many. */
  async expireOverdue(): Promise<number> {
    const overdue = this.rows.filter((row) => this.overdue(row));
    for (const row of overdue) await this.expireIfOverdue(row);
    return overdue.length;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.expireOverdue().catch((err: unknown) => this.log.error(`install task expiry failed: ${err instanceof Error ? err.message : String(err)}`));
    }, this.deps.expiryCheckMs ?? EXPIRY_CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async move(row: TaskRow, to: TaskState, message: string, source: TransitionSource, extra: Partial<Pick<TaskRow, 'boot_ip'>> = {}): Promise<TaskRow> {
    assertTransition(row.id, row.state, to);
    const now = this.now();
    const at = now.toISOString();
    const transition: TaskTransition = { from: row.state, to, at, message, source };
    const patch: Partial<TaskRow> = {
      ...extra,
      state: to,
      message,
      transitions: [...row.transitions, transition].slice(-MAX_TRANSITIONS),
    };
    if ((to === 'booting' || to === 'installing') && row.started_at === null) patch.started_at = at;
    if (isFinalState(to)) patch.finished_at = at;
    const updated = await this.write(row, patch, now);
    const failedLike = to === 'failed' || to === 'expired';
    this.deps.events.emit(
      {
        kind: 'netboot.task.state',
        level: failedLike ? 'warn' : 'info',
        message: `install task ${row.id} (${row.mac}): ${row.state} → ${to}${message !== '' ? ` (${message})` : ''}`,
        mac: row.mac,
        ...(row.host_id !== null ? { host_id: row.host_id } : {}),
        detail: { task_id: row.id, from: row.state, to, source, message },
      },
      now,
    );
    return updated;
  }

  private async write(row: TaskRow, patch: Partial<TaskRow>, now: Date): Promise<TaskRow> {
    const updated = await this.rows.update(row.id, patch, now);
    if (!updated) throw notFound('install task', row.id);
    return updated;
  }

  /** The task's machine: `host_id` (its MAC) or `mac` (linked to the host with that MAC, if any); both must agree. */
  private machine(input: TaskCreate): { mac: string; host: Host | null } {
    let host: Host | null = null;
    if (input.host_id !== undefined) {
      host = this.deps.hosts.get(input.host_id) ?? null;
      if (!host) throw invalid('body.host_id', `host ${input.host_id} does not exist`);
    }
    let mac: string | null = host?.mac ?? null;
    if (input.mac !== undefined) {
      const given = normalizeMac(input.mac);
      if (given === null) throw invalid('body.mac', `"${input.mac}" is not a MAC address (e.g. 52:54:00:12:34:56)`);
      const problem = unicastMacProblem(given);
      if (problem) throw invalid('body.mac', problem);
      if (mac !== null && mac !== given) throw invalid('body.mac', `host ${host?.id ?? ''} has MAC ${mac}, not ${given}; send one of host_id or mac`);
      mac = given;
      host ??= this.deps.hosts.findByMac(given) ?? null;
    }
    if (mac === null) throw invalid('body.host_id', 'name the machine: host_id or mac');
    return { mac, host };
  }

  private assertNoActive(mac: string, selfId: number | null): void {
    const active = this.activeForMac(mac);
    if (active && active.id !== selfId) {
      throw new AppError('CONFLICT', `${mac} already has install task ${active.id} (${active.state}, ${taskLabel(active)}); cancel or delete it first`, {
        details: [{ field: 'body.mac', message: `install task ${active.id} is ${active.state}` }],
      });
    }
  }

  /** The answer template of a task: it must exist and be of the entry's answer kind; null is the entry's preset. */
  private template(resolved: ResolvedEntry, templateId: number | null): { id: number; version: number } | null {
    if (templateId === null) return null;
    if (!resolved.answer) {
      throw invalid('body.template_id', `${resolved.entry.name} ${resolved.version.version} installs without an answer file: leave template_id out`);
    }
    let template: { id: number; kind: string; version: number };
    try {
      template = this.deps.answers.require(templateId);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') throw invalid('body.template_id', `answer template ${templateId} does not exist`);
      throw err;
    }
    if (template.kind !== resolved.answer.kind) {
      throw invalid('body.template_id', `answer template ${templateId} is a ${template.kind} template; ${resolved.entry.name} reads ${resolved.answer.kind}`);
    }
    return { id: template.id, version: template.version };
  }

  private lastEventId(): number {
    return this.deps.events.all().at(-1)?.id ?? 0;
  }
}

/** The host's recorded architecture when the catalog knows it, else x86_64. */
function defaultArch(host: Host | null): NetbootArch {
  const recorded = host?.arch ?? null;
  return recorded !== null && isNetbootArch(recorded) ? recorded : 'x86_64';
}

function isNetbootArch(value: string): value is NetbootArch {
  return (NETBOOT_ARCHES as readonly string[]).includes(value);
}
