import { AppError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { normalizeMac } from '../../core/mac.js';
import type { EventLog } from '../../events/event-log.js';
import type { Host } from '../../hosts/host-types.js';
import { TemplateError } from '../../templates/template-engine.js';
import type { RuntimeTask, TaskState } from '../netboot-contract.js';
import type { AnswerContext, AnswerRenderer, BaselineRunnerSource, BaselineRunnerUrls, RenderedAnswer, ResolvedEntry } from '../netboot-ports.js';
import type { InstallTaskService } from './install-task-service.js';
import { machineAddresses, sameAddress, type LeaseLookup } from './machine-address.js';
import type { RuntimeLimiter } from './runtime-limiter.js';
import { debianMirror, localMirrorUrl, type LocalBootSources } from './task-boot-plan.js';
import type { TaskInstaller, TaskServer } from './task-installer.js';
import { isFinalState } from './task-states.js';
import { TOKEN_PATTERN } from './task-token.js';
import { taskUrls } from './task-urls.js';
import type { TaskRow } from './task-types.js';

/** The seed files cloud-init (nocloud-net) fetches from the seed directory. */
export const SEED_FILES = ['user-data', 'meta-data', 'vendor-data'] as const;
export type SeedFile = (typeof SEED_FILES)[number];

/** The states the installer reports through its callback. */
export const CALLBACK_STATES = ['installing', 'done', 'failed'] as const satisfies readonly TaskState[];
export type CallbackState = (typeof CALLBACK_STATES)[number];

export type RuntimeRoute = 'by-mac' | 'answer' | 'seed' | 'callback';

export interface TaskRuntimeDeps {
  tasks: InstallTaskService;
  installer: TaskInstaller;
  answers: Pick<AnswerRenderer, 'render'>;
  hosts: { get(id: number): Host | undefined; findByMac(mac: string): Host | undefined };
  leases: LeaseLookup;
  events: EventLog;
  log: Logger;
  limiter: RuntimeLimiter;
  /** Local OS images linked to entries: their repository becomes the answer's mirror. */
  local?: LocalBootSources;
  /** The server as the machine at `clientIp` reaches it. */
  server(clientIp: string): TaskServer;
}

/** The one answer to every refused lookup: it says nothing about which part was wrong. */
function notFound(): AppError {
  return new AppError('NOT_FOUND', 'not found');
}

/**
 * The PXE runtime endpoints (docs/netboot.md, "Security of the runtime
 * endpoints"): no authentication, so every request is rate-limited per
 * source, a task's answer file and callback need its token (compared in
 * constant time; a missing or wrong token and an unknown task all answer the
 * same 404), a finished task answers 410, by-mac answers only the machine
 * itself, and every fetch or refusal is an event (refusals within a budget).
 */
export class TaskRuntime {
  private baselineRunner: BaselineRunnerSource | null = null;

  constructor(private readonly deps: TaskRuntimeDeps) {}

  /** The baselines area's runner URLs for answer files (`baseline` in the answer context); one source. */
  setBaselineRunner(source: BaselineRunnerSource): void {
    this.baselineRunner = source;
  }

  /** Counts a request of `ip`; throws RATE_LIMITED (429 with Retry-After) over the source's rate. */
  admit(ip: string, route: RuntimeRoute): void {
    if (this.deps.limiter.admit(ip)) return;
    this.refused(ip, route, null, 'rate_limited', null);
    const seconds = this.deps.limiter.retryAfterSeconds();
    throw new AppError('RATE_LIMITED', `too many requests from ${ip}; retry in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
  }

  /** GET /netboot/task/by-mac/{mac}: the machine's own active task, asked from its own address. */
  async byMac(macText: string, ip: string): Promise<RuntimeTask> {
    const mac = normalizeMac(macText);
    let row = mac === null ? undefined : this.deps.tasks.activeForMac(mac);
    if (row) row = await this.deps.tasks.expireIfOverdue(row);
    if (mac === null || !row || isFinalState(row.state)) throw notFound();
    const host = this.hostOf(row);
    const allowed = machineAddresses(this.deps.leases, mac, host, Date.now(), row.boot_ip);
    if (!allowed.some((address) => sameAddress(address, ip))) {
      this.refused(ip, 'by-mac', row.id, 'foreign_address', null);
      throw notFound();
    }
    try {
      const installer = await this.deps.installer.build(row, this.deps.server(ip), host);
      return {
        task_id: row.id,
        state: row.state,
        distro: row.distro,
        version: row.version,
        arch: row.arch,
        kernel_url: installer.kernelUrl,
        initrd_urls: installer.initrdUrls,
        cmdline: installer.cmdline,
        answer_url: installer.answerUrl,
      };
    } catch (err) {
      throw this.buildFailure(row, err);
    }
  }

  /** GET /netboot/answer/{task_id}?token=: the rendered answer file. */
  async answer(taskId: number, token: string | undefined, ip: string): Promise<RenderedAnswer> {
    const row = await this.authorize(taskId, token, ip, 'answer');
    const rendered = await this.render(row, token ?? '', ip);
    this.fetched(row, ip, 'answer', rendered);
    return rendered;
  }

  /** GET /netboot/answer/{task_id}/{token}/{file}: the cloud-init seed files. */
  async seed(taskId: number, token: string, file: SeedFile, ip: string): Promise<RenderedAnswer> {
    const row = await this.authorize(taskId, token, ip, 'seed');
    let rendered: RenderedAnswer;
    if (file === 'user-data') {
      rendered = await this.render(row, token, ip);
    } else if (file === 'meta-data') {
      const host = this.hostOf(row);
      const hostname = host?.hostname ?? row.variables.hostname ?? `bootwright-${row.mac.replaceAll(':', '')}`;
      rendered = { content: `instance-id: bootwright-task-${row.id}\nlocal-hostname: ${hostname}\n`, content_type: 'text/yaml; charset=utf-8', template_version: null };
    } else {
      rendered = { content: '', content_type: 'text/yaml; charset=utf-8', template_version: null };
    }
    this.fetched(row, ip, file, rendered);
    return rendered;
  }

  /** GET|POST /netboot/callback/{task_id}/{token}/{state}: the installer reports progress. */
  async callback(taskId: number, token: string, state: CallbackState, message: string | undefined, ip: string): Promise<{ task_id: number; state: TaskState }> {
    const row = await this.authorize(taskId, token, ip, 'callback');
    const text = message?.trim() ?? '';
    this.deps.events.emit({
      kind: 'netboot.callback',
      level: state === 'failed' ? 'warn' : 'info',
      message: `install task ${row.id} (${row.mac}) reports ${state}${text !== '' ? `: ${text}` : ''}`,
      mac: row.mac,
      ip,
      ...(row.host_id !== null ? { host_id: row.host_id } : {}),
      detail: { task_id: row.id, state, message: text },
    });
    const updated = await this.deps.tasks.transition(row.id, state, text !== '' ? text : `reported by the installer from ${ip}`, 'callback');
    return { task_id: updated.id, state: updated.state };
  }

  /** The task of a runtime URL when the token is its own and it is not final; 404 for anything wrong, 410 once final. */
  private async authorize(taskId: number, token: string | undefined, ip: string, route: RuntimeRoute): Promise<TaskRow> {
    const row = this.deps.tasks.get(taskId);
    if (token === undefined || token === '') {
      this.refused(ip, route, taskId, 'no_token', null);
      throw notFound();
    }
    const valid = row !== undefined && TOKEN_PATTERN.test(token) && (await this.deps.tasks.tokenMatches(row, token));
    if (!row || !valid) {
      this.refused(ip, route, taskId, row ? 'wrong_token' : 'unknown_task', null);
      throw notFound();
    }
    const current = await this.deps.tasks.expireIfOverdue(row);
    if (isFinalState(current.state)) {
      this.refused(ip, route, taskId, `task_${current.state}`, current);
      throw new AppError('GONE', `install task ${current.id} is ${current.state}`);
    }
    return current;
  }

  /**
   * What the task's answer template is rendered with. `token` goes into the
   * URLs; a preview passes a placeholder (the real token never leaves the
   * answer file the machine fetches).
   */
  async answerContext(row: TaskRow, token: string, ip: string, preview = false): Promise<AnswerContext> {
    const server = this.deps.server(ip);
    const urls = taskUrls(server.base_url, row.id, token);
    const host = this.hostOf(row);
    const baseline = host ? await this.baselineOf(row, host.id, token, server.base_url, preview) : null;
    const local = await this.localSource(row, server.boot_url, !preview);
    return {
      host: { id: host?.id ?? null, mac: row.mac, hostname: host?.hostname ?? null, ip: host?.ip ?? host?.last_seen_ip ?? ip, group: host?.group ?? null, arch: host?.arch ?? null },
      task: { id: row.id, distro: row.distro, version: row.version, arch: row.arch },
      urls: { mirror: local.mirror ?? this.mirrorOf(row), callback: urls.callback, answer: row.answer_kind === 'autoinstall' ? urls.seed : urls.answer },
      server: { ip: server.ip, http_url: server.base_url, boot_url: server.boot_url, name: server.name },
      // The image's mirror variables under the task's own: a mirror the operator set on the task wins.
      variables: { ...local.variables, ...row.variables },
      baseline,
    };
  }

  /** The host's baseline runner, or null; a failure leaves the step out of the answer (the install goes on) and is logged. */
  private async baselineOf(row: TaskRow, hostId: number, token: string, baseUrl: string, preview: boolean): Promise<BaselineRunnerUrls | null> {
    if (!this.baselineRunner) return null;
    try {
      return await this.baselineRunner({ host_id: hostId, task_id: row.id, task_token: token, base_url: baseUrl, preview });
    } catch (err) {
      this.deps.log.warn(`install task ${row.id}: no baseline runner in the answer: ${errorMessage(err)}`);
      return null;
    }
  }

  /**
   * Renders the task's answer ahead of its fetch: called when the machine at
   * `ip` was served its installer, tens of seconds before the installer asks
   * for the answer, which the answers part then has ready (a boot storm does
   * not queue its renders behind each other). Failures show at the fetch.
   */
  prerender(row: TaskRow, ip: string): void {
    const kind = row.answer_kind;
    if (kind === null) return;
    this.deps.tasks
      .token(row)
      .then(async (token) => this.deps.answers.render(row.template_id, kind, await this.answerContext(row, token, ip)))
      .catch((err: unknown) => this.deps.log.debug(`install task ${row.id}: answer not rendered ahead: ${errorMessage(err)}`));
  }

  private async render(row: TaskRow, token: string, ip: string): Promise<RenderedAnswer> {
    if (row.answer_kind === null) throw notFound();
    try {
      const context = await this.answerContext(row, token, ip);
      return await this.deps.answers.render(row.template_id, row.answer_kind, context);
    } catch (err) {
      throw this.buildFailure(row, err);
    }
  }

  /** A template fault or an entry gone: the machine's request fails with why, as a 409 (the task needs a change); anything else is logged (by task, never by URL) and a 500. */
  private buildFailure(row: TaskRow, err: unknown): AppError {
    if (err instanceof AppError) return err;
    if (err instanceof TemplateError) return new AppError('INVALID_STATE', `install task ${row.id}: ${err.message}`);
    this.deps.log.error(`install task ${row.id}: the installer or answer could not be built: ${errorMessage(err)}`);
    return new AppError('INTERNAL', `install task ${row.id}: internal error`);
  }

  private fetched(row: TaskRow, ip: string, file: string, rendered: RenderedAnswer): void {
    this.deps.events.emit({
      kind: 'netboot.answer_fetched',
      message: `install task ${row.id} (${row.mac}): ${file === 'answer' ? 'answer file' : `seed ${file}`} fetched from ${ip}`,
      mac: row.mac,
      ip,
      ...(row.host_id !== null ? { host_id: row.host_id } : {}),
      detail: { task_id: row.id, file, template_id: row.template_id, template_version: rendered.template_version, bytes: Buffer.byteLength(rendered.content), content_type: rendered.content_type },
    });
    // An installer that fetches its answer has booted, whatever way it came (a task still pending was booted by other means).
    if (row.state === 'pending') {
      this.deps.tasks.transition(row.id, 'booting', `answer fetched from ${ip}`, 'answer').catch((err: unknown) => this.deps.log.warn(`install task ${row.id}: ${errorMessage(err)}`));
    }
    if (rendered.template_version !== null && rendered.template_version !== row.template_version) {
      this.deps.tasks.noteTemplateVersion(row.id, rendered.template_version).catch((err: unknown) => this.deps.log.warn(`install task ${row.id}: ${errorMessage(err)}`));
    }
  }

  /** A refusal event within the budget; never the token. */
  private refused(ip: string, route: RuntimeRoute, taskId: number | null, reason: string, row: TaskRow | null): void {
    const budget = this.deps.limiter.refusalEvent();
    if (!budget.emit) return;
    this.deps.events.emit({
      kind: 'netboot.answer_refused',
      level: 'warn',
      message: `netboot runtime request refused (${route}, ${reason}) from ${ip}${taskId !== null ? ` for task ${taskId}` : ''}${budget.suppressed > 0 ? `; ${budget.suppressed} more refusals since the last report` : ''}`,
      ip,
      ...(row ? { mac: row.mac } : {}),
      detail: { route, reason, task_id: taskId, suppressed: budget.suppressed },
    });
  }

  private hostOf(row: TaskRow): Host | null {
    return (row.host_id !== null ? this.deps.hosts.get(row.host_id) : undefined) ?? this.deps.hosts.findByMac(row.mac) ?? null;
  }

  /** The answer's package source when the task installs from a linked OS image (null mirror: the entry's). */
  private async localSource(row: TaskRow, bootUrl: string, mount: boolean): Promise<{ mirror: string | null; variables: Record<string, string> }> {
    if (!this.deps.local) return { mirror: null, variables: {} };
    const resolved = this.resolvedOf(row);
    if (!resolved) return { mirror: null, variables: {} };
    const boot = (await this.deps.local.plan(resolved, { mount })).local;
    if (!boot) return { mirror: null, variables: {} };
    return { mirror: localMirrorUrl(boot, bootUrl), variables: debianMirror(boot, bootUrl)?.variables ?? {} };
  }

  private resolvedOf(row: TaskRow): ResolvedEntry | null {
    try {
      return this.deps.tasks.resolve(row);
    } catch {
      return null;
    }
  }

  private mirrorOf(row: TaskRow): string | null {
    try {
      return this.deps.tasks.resolve(row).mirror;
    } catch {
      return null;
    }
  }
}
