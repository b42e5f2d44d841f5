import { AppError, invalid, notFound } from '../core/errors.js';
import { paginate, type ListPage, type ListQueryInput } from '../core/http-kit/list-query.js';
import type { Logger } from '../core/logger.js';
import { normalizeMac } from '../core/mac.js';
import type { EventLog } from '../events/event-log.js';
import type { Host } from '../hosts/host-types.js';
import { SerialQueue } from '../profiles/serial-queue.js';
import type { OsFamily } from '../scripts/scripts-contract.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import {
  BaselineCreateSchema,
  BaselineUpdateSchema,
  type AssignedBaseline,
  type AssignedQuery,
  type Baseline,
  type BaselineCreate,
  type BaselineScriptInput,
  type BaselineScriptView,
  type BaselineUpdate,
} from './baselines-contract.js';
import type { AssignedContext, BaselinesFacade } from './baselines-facade.js';
import { renderSteps, type HostData, type ServerData } from './baseline-render.js';
import { chooseBaseline } from './baseline-resolver.js';
import type { BaselineLookups, BaselineRow, TaskFacts } from './baseline-types.js';
import { assertShape, buildCandidate, type BaselineCandidate } from './baseline-validation.js';

export const BASELINES_COLLECTION = 'baselines';
const SORT_FIELDS = ['id', 'name', 'os_family', 'created_at', 'updated_at'] as const;
const MAX_NAMED_USERS = 20;

export interface BaselineServiceDeps {
  store: Store;
  events: EventLog;
  log: Logger;
  lookups: BaselineLookups;
  templates: Pick<TemplateRenderer, 'render'>;
  /** Where a machine at `clientIp` reaches this server (its address on the machine's subnet). */
  server: (clientIp: string) => ServerData;
}

/**
 * Baselines (docs/baselines.md): ordered script steps, who they are assigned
 * to, and which one applies to a machine. Writes run one at a time (name and
 * target uniqueness are read-check-write).
 */
export class BaselineService implements BaselinesFacade {
  private readonly rows: Collection<BaselineRow>;
  private readonly queue = new SerialQueue();
  private readonly deps: BaselineServiceDeps;
  private readonly log: Logger;

  constructor(deps: BaselineServiceDeps) {
    this.deps = deps;
    this.rows = deps.store.collection<BaselineRow>(BASELINES_COLLECTION);
    this.log = deps.log.scope('baselines');
  }

  get(id: number): Baseline | undefined {
    const row = this.rows.get(id);
    return row ? this.view(row) : undefined;
  }

  require(id: number): Baseline {
    return this.view(this.requireRow(id));
  }

  byName(name: string): Baseline | undefined {
    const folded = name.toLowerCase();
    const row = this.rows.find((candidate) => candidate.name.toLowerCase() === folded);
    return row ? this.view(row) : undefined;
  }

  list(): readonly Baseline[] {
    return this.rows.all().map((row) => this.view(row));
  }

  page(query: ListQueryInput & { os_family?: OsFamily } = {}): ListPage<Baseline> {
    const rows = this.rows.filter((row) => query.os_family === undefined || row.os_family === query.os_family);
    return paginate(
      rows.map((row) => this.view(row)),
      query,
      {
        sortable: SORT_FIELDS,
        defaultSort: 'name',
        searchText: (baseline) => [baseline.name, baseline.description, ...baseline.assign.groups, ...baseline.assign.tags, ...baseline.scripts.map((step) => step.script_name)],
      },
    );
  }

  async validate(input: BaselineCreate | BaselineUpdate, existingId?: number): Promise<void> {
    this.candidate(input, existingId);
  }

  create(input: BaselineCreate, author: string): Promise<Baseline> {
    return this.queue.run(async () => {
      const row = await this.rows.insert(this.candidate(input, undefined));
      this.log.info(`baseline ${row.id} "${row.name}" created by ${author}`);
      this.deps.events.emit({ kind: 'baseline.created', message: `Baseline "${row.name}" created by ${author}`, detail: { id: row.id, name: row.name, user: author } });
      return this.view(row);
    });
  }

  update(id: number, input: BaselineUpdate, author: string): Promise<Baseline> {
    return this.queue.run(async () => {
      const candidate = this.candidate(input, id);
      const row = await this.rows.update(id, candidate);
      if (!row) throw notFound('baseline', id);
      const fields = Object.keys(input).sort();
      this.deps.events.emit({
        kind: 'baseline.updated',
        message: `Baseline "${row.name}" updated by ${author} (${fields.join(', ')})`,
        detail: { id: row.id, name: row.name, user: author, fields },
      });
      return this.view(row);
    });
  }

  remove(id: number, author = 'unknown'): Promise<Baseline> {
    return this.queue.run(async () => {
      const row = this.requireRow(id);
      const view = this.view(row);
      await this.rows.remove(id);
      this.log.info(`baseline ${id} "${row.name}" deleted by ${author}`);
      this.deps.events.emit({ kind: 'baseline.deleted', message: `Baseline "${row.name}" deleted by ${author}`, detail: { id, name: row.name, user: author } });
      return view;
    });
  }

  scriptsOf(id: number): BaselineScriptView[] {
    return this.require(id).scripts;
  }

  async setScripts(id: number, scripts: BaselineScriptInput[], author: string): Promise<BaselineScriptView[]> {
    return (await this.update(id, { scripts }, author)).scripts;
  }

  /** The baselines that run script `scriptId` (the scripts area's delete check: a 409 names them). */
  usersOfScript(scriptId: number): string[] {
    const users = this.rows.filter((row) => row.scripts.some((step) => step.script_id === scriptId)).sort((a, b) => a.id - b.id);
    const named = users.slice(0, MAX_NAMED_USERS).map((row) => `baseline "${row.name}" (id ${row.id})`);
    return users.length > MAX_NAMED_USERS ? [...named, `${users.length - MAX_NAMED_USERS} more baselines`] : named;
  }

  async assigned(query: AssignedQuery, context: AssignedContext = {}): Promise<AssignedBaseline> {
    const { host, mac } = this.machine(query);
    const task = this.task(query, mac);
    const { lookups } = this.deps;
    const profileName = host && host.profile_id !== null ? (lookups.profiles.get(host.profile_id)?.name ?? null) : null;
    const choice = chooseBaseline(this.rows.all(), { host, mac, task, profileName });
    const hostData: HostData = host
      ? { id: host.id, mac: host.mac, hostname: host.hostname, ip: host.ip, group: host.group, tags: [...host.tags] }
      : { id: null, mac, hostname: null, ip: null, group: null, tags: [] };
    const clientIp = context.clientIp ?? host?.ip ?? host?.last_seen_ip ?? '127.0.0.1';
    const scripts = choice.row ? await renderSteps(choice.row, hostData, this.deps.server(clientIp), { templates: this.deps.templates, scripts: lookups.scripts }) : [];
    return {
      baseline: choice.row ? this.view(choice.row) : null,
      rule: choice.rule,
      reason: choice.reason,
      host: host ? { id: host.id, mac: host.mac, hostname: host.hostname } : null,
      scripts,
    };
  }

  /** The schema check (for callers not coming through a route), then the field checks and conflicts. */
  private candidate(input: BaselineCreate | BaselineUpdate, existingId: number | undefined): BaselineCandidate {
    const current = existingId === undefined ? null : this.requireRow(existingId);
    assertShape(current ? BaselineUpdateSchema : BaselineCreateSchema, input);
    return buildCandidate(current, input, this.deps.lookups, this.rows.all());
  }

  private requireRow(id: number): BaselineRow {
    const row = this.rows.get(id);
    if (!row) throw notFound('baseline', id);
    return row;
  }

  /** Exactly one of mac and host_id: the host record (null for a MAC no host has) and the canonical MAC. */
  private machine(query: AssignedQuery): { host: Host | null; mac: string } {
    const { hosts } = this.deps.lookups;
    if ((query.mac === undefined) === (query.host_id === undefined)) {
      throw new AppError('VALIDATION_FAILED', 'querystring: give exactly one of mac or host_id', {
        details: [{ field: query.mac === undefined ? 'querystring.mac' : 'querystring.host_id', message: 'give exactly one of mac or host_id' }],
      });
    }
    if (query.host_id !== undefined) {
      const host = hosts.get(query.host_id);
      if (!host) throw notFound('host', query.host_id);
      return { host, mac: host.mac };
    }
    const mac = normalizeMac(query.mac ?? '');
    if (mac === null) throw invalid('querystring.mac', `"${query.mac ?? ''}" is not a MAC address`);
    return { host: hosts.findByMac(mac) ?? null, mac };
  }

  /** The task named by task_id (it must be this machine's), else the machine's active install task. */
  private task(query: AssignedQuery, mac: string): TaskFacts | null {
    const { tasks } = this.deps.lookups;
    if (query.task_id === undefined) return tasks.activeForMac(mac) ?? null;
    const task = tasks.get(query.task_id);
    if (!task) throw notFound('install task', query.task_id);
    if (task.mac !== mac) throw invalid('querystring.task_id', `install task ${task.id} is for ${task.mac}, not ${mac}`);
    return task;
  }

  /** A row as the API shows it: targets that are gone left out, each step with its script's current name and kind. */
  private view(row: BaselineRow): Baseline {
    const { hosts, profiles, tasks, scripts } = this.deps.lookups;
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      os_family: row.os_family,
      assign: {
        host_ids: row.assign.host_ids.filter((id) => hosts.get(id) !== undefined),
        groups: [...row.assign.groups],
        tags: [...row.assign.tags],
        profile_ids: row.assign.profile_ids.filter((id) => profiles.get(id) !== undefined),
        task_ids: row.assign.task_ids.filter((id) => tasks.get(id) !== undefined),
        is_default: row.assign.is_default,
      },
      scripts: row.scripts.map((step, index) => {
        const script = scripts.get(step.script_id);
        return {
          position: index + 1,
          script_id: step.script_id,
          script_name: script?.name ?? step.script_name,
          kind: script?.kind ?? step.kind,
          variables: { ...step.variables },
          continue_on_error: step.continue_on_error,
          timeout_seconds: step.timeout_seconds,
        };
      }),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
