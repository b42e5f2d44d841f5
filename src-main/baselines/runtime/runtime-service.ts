import { AppError, notFound } from '../../core/errors.js';
import { API_PREFIX } from '../../core/http-kit/route-table.js';
import type { Logger } from '../../core/logger.js';
import type { EventLog } from '../../events/event-log.js';
import type { Store } from '../../store/store.js';
import type { AssignedBaseline, BaselineTokenCreated, HostInventory, RenderedScript, ResultsReport } from '../baselines-contract.js';
import type { BaselinesFacade } from '../baselines-facade.js';
import { KeyedLimiter, RUNTIME_RATE_LIMITS, type RuntimeRateLimits } from './runtime-limits.js';
import { HostInventories } from './runtime-inventory.js';
import { BaselineRuns } from './runtime-runs.js';
import { tokenView, BaselineTokens, type TokenRow } from './runtime-tokens.js';

/** A host as the runtime needs it. */
export interface RuntimeHost {
  id: number;
  mac: string;
  hostname: string | null;
  ip: string | null;
  last_seen_ip: string | null;
}

export interface RuntimeServiceDeps {
  store: Store;
  events: EventLog;
  log: Logger;
  hosts: { get(id: number): RuntimeHost | undefined };
  /** Install tasks, to check a token's task (absent: any task id is taken as given). */
  tasks?: { get(id: number): { id: number; host_id: number | null } | undefined };
  /** Which baseline applies to a machine, its scripts rendered (the baselines core). */
  resolver: Pick<BaselinesFacade, 'assigned'>;
  /** The HTTP base URL (`http://192.0.2.1:8080`) a machine at `clientIp` reaches this server at. */
  baseUrl(clientIp: string): string;
  limits?: Partial<RuntimeRateLimits>;
  now?: () => Date;
}

/** How long a token's resolved baseline is kept: one run fetches the list, then each script, within seconds. */
const ASSIGNED_CACHE_MS = 60_000;
const ASSIGNED_CACHE_ENTRIES = 1024;

/** The one answer to every refused token: it says nothing about which part was wrong. */
function refused(): AppError {
  return new AppError('NOT_FOUND', 'not found');
}

/**
 * The baselines runtime (docs/baselines.md, "Runtime"): per-host tokens, the
 * machine-facing operations they authorize (read the host's assigned
 * baseline, report its results), and the runs those reports build.
 */
export class BaselineRuntimeService {
  readonly tokens: BaselineTokens;
  readonly runs: BaselineRuns;
  readonly inventories: HostInventories;
  private readonly sources: KeyedLimiter;
  private readonly perToken: KeyedLimiter;
  private readonly assignedCache = new Map<number, { at: number; value: Promise<AssignedBaseline> }>();
  private readonly now: () => Date;

  constructor(private readonly deps: RuntimeServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    const limits = { ...RUNTIME_RATE_LIMITS, ...deps.limits };
    const clock = () => this.now().getTime();
    this.sources = new KeyedLimiter({ capacity: limits.sourceBurst, perMinute: limits.sourcePerMinute, maxKeys: limits.maxKeys }, clock);
    this.perToken = new KeyedLimiter({ capacity: limits.tokenBurst, perMinute: limits.tokenPerMinute, maxKeys: limits.maxKeys }, clock);
    this.tokens = new BaselineTokens(deps.store, this.now);
    const macOf = (hostId: number) => deps.hosts.get(hostId)?.mac ?? null;
    this.runs = new BaselineRuns({ store: deps.store, events: deps.events, macOf, now: this.now });
    this.inventories = new HostInventories({ store: deps.store, events: deps.events, macOf, now: this.now });
  }

  /** `{base}/api/v1/baselines/runtime/{token}`: the runner's URLs hang below it. */
  runtimeUrl(base: string, token: string): string {
    return `${base.replace(/\/+$/, '')}${API_PREFIX}/baselines/runtime/${encodeURIComponent(token)}`;
  }

  /** POST /baselines/tokens: a new token for a host (and task); the secret and runner URLs are in the answer this once. */
  async createToken(input: { host_id: number; task_id?: number; ttl_minutes?: number }, author: string, clientIp: string): Promise<BaselineTokenCreated> {
    const host = this.deps.hosts.get(input.host_id);
    if (!host) throw notFound('host', input.host_id);
    if (input.task_id !== undefined && this.deps.tasks) {
      const task = this.deps.tasks.get(input.task_id);
      if (!task) throw notFound('install task', input.task_id);
      if (task.host_id !== null && task.host_id !== host.id) throw new AppError('VALIDATION_FAILED', `task_id: install task ${task.id} belongs to host ${task.host_id}, not ${host.id}`, { details: [{ field: 'body.task_id', message: `install task ${task.id} belongs to host ${task.host_id}` }] });
    }
    const { row, token } = await this.tokens.create(input, author);
    // The machine reaches us on its own subnet: its address (when known) picks ours.
    const url = this.runtimeUrl(this.deps.baseUrl(host.ip ?? host.last_seen_ip ?? clientIp), token);
    return { token_info: tokenView(row), token, runner_url_sh: `${url}/run.sh`, runner_url_ps1: `${url}/run.ps1` };
  }

  /**
   * The runner URLs of an install task's answer file (the netboot hook):
   * null when no baseline applies to the host (the preset step is left out),
   * else a token of that host and task, reused across renders.
   */
  async forTask(input: { host_id: number; task_id: number; task_token: string; base_url: string }): Promise<{ run_sh: string; run_ps1: string } | null> {
    if (!this.deps.hosts.get(input.host_id)) return null;
    const assigned = await this.deps.resolver.assigned({ host_id: input.host_id, task_id: input.task_id });
    if (assigned.baseline === null || assigned.scripts.length === 0) return null;
    const minted = this.tokens.forTask(input.host_id, input.task_id, input.task_token);
    await minted.committed;
    const url = this.runtimeUrl(input.base_url, minted.token);
    return { run_sh: `${url}/run.sh`, run_ps1: `${url}/run.ps1` };
  }

  /** Counts a runtime request of `ip`; throws RATE_LIMITED over the source's rate (before the token is looked at). */
  admit(ip: string): void {
    if (this.sources.admit(ip)) return;
    const seconds = this.sources.retryAfterSeconds();
    throw new AppError('RATE_LIMITED', `too many requests from ${ip}; retry in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
  }

  /** The valid token row of a runtime URL whose host still exists; 404 for anything wrong, 429 over the token's rate. */
  async authorize(token: string): Promise<TokenRow> {
    const row = await this.tokens.resolve(token);
    if (!row || !this.deps.hosts.get(row.host_id)) throw refused();
    if (!this.perToken.admit(String(row.id))) {
      const seconds = this.perToken.retryAfterSeconds();
      throw new AppError('RATE_LIMITED', `too many requests with this token; retry in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
    }
    return row;
  }

  /** The token's host's assigned baseline, kept a minute per token (the list and each script of a run agree). */
  assigned(row: TokenRow): Promise<AssignedBaseline> {
    const now = this.now().getTime();
    const kept = this.assignedCache.get(row.id);
    if (kept && now - kept.at < ASSIGNED_CACHE_MS) return kept.value;
    const value = this.deps.resolver.assigned({ host_id: row.host_id, ...(row.task_id !== null ? { task_id: row.task_id } : {}) });
    this.assignedCache.delete(row.id);
    this.assignedCache.set(row.id, { at: now, value });
    if (this.assignedCache.size > ASSIGNED_CACHE_ENTRIES) {
      const oldest = this.assignedCache.keys().next();
      if (!oldest.done) this.assignedCache.delete(oldest.value);
    }
    value.catch(() => {
      if (this.assignedCache.get(row.id)?.value === value) this.assignedCache.delete(row.id);
    });
    return value;
  }

  async script(row: TokenRow, position: number): Promise<RenderedScript> {
    const script = (await this.assigned(row)).scripts.find((candidate) => candidate.position === position);
    if (!script) throw notFound('baseline step', position);
    return script;
  }

  report(row: TokenRow, report: ResultsReport, ip: string): Promise<{ run_id: number; status: 'running' | 'succeeded' | 'failed' }> {
    return this.runs.report(row, report, () => this.assigned(row), ip);
  }

  /** Stores the hardware inventory the token's host posted (a JSON object, size-checked by the route). */
  saveInventory(row: TokenRow, data: Record<string, unknown>, bytes: number, ip: string): Promise<HostInventory> {
    return this.inventories.save(row.host_id, data, bytes, ip);
  }

  /** GET /hosts/{id}/inventory: 404 for an unknown host; null for one that never reported (not an error: most have not yet). */
  inventoryOf(hostId: number): HostInventory | null {
    if (!this.deps.hosts.get(hostId)) throw notFound('host', hostId);
    return this.inventories.get(hostId) ?? null;
  }

  /** A label for the runner's first comment line: host id and name, never the token. */
  hostLabel(row: TokenRow): string {
    const host = this.deps.hosts.get(row.host_id);
    return `host ${row.host_id}${host?.hostname ? ` (${host.hostname})` : ''}`;
  }

  /** The runtime URL of `token` as the machine at `ip` reaches it. */
  urlFor(token: string, ip: string): string {
    return this.runtimeUrl(this.deps.baseUrl(ip), token);
  }
}
