import { AppError, invalid, notFound } from '../../core/errors.js';
import { paginate, type ListPage, type ListQueryInput } from '../../core/http-kit/list-query.js';
import type { EventLog } from '../../events/event-log.js';
import type { Collection } from '../../store/collection.js';
import type { Store } from '../../store/store.js';
import { DEFAULT_SCRIPT_TIMEOUT_SECONDS, MAX_OUTPUT_TAIL_CHARS, type AssignedBaseline, type BaselineRun, type ResultsReport, type ScriptResult } from '../baselines-contract.js';
import type { TokenRow } from './runtime-tokens.js';

/*
 * The runs of baselines on machines (docs/baselines.md, "Runtime"): a run is
 * opened by the machine's first report, holds what it was to run (a snapshot
 * of the assigned baseline's steps), collects one result per step and is
 * closed by the machine's `finished`. Its status is decided from the results.
 */

export const BASELINE_RUNS_COLLECTION = 'baseline_runs';

type RunStatus = BaselineRun['status'];
type ResultView = BaselineRun['results'][number];

/** One step as the run was opened with it. */
export interface RunStep {
  position: number;
  script_id: number;
  name: string;
  continue_on_error: boolean;
  /** The step's time limit (runs opened before it was stored: DEFAULT_SCRIPT_TIMEOUT_SECONDS). */
  timeout_seconds?: number;
}

export interface RunRow {
  id: number;
  host_id: number;
  task_id: number | null;
  token_id: number;
  baseline_id: number | null;
  baseline_name: string;
  status: RunStatus;
  started_at: string;
  finished_at: string | null;
  steps: RunStep[];
  results: ResultView[];
  created_at: string;
  updated_at: string;
}

export interface RunFilter extends ListQueryInput {
  host_id?: number;
  task_id?: number;
}

const SORTABLE = ['id', 'host_id', 'task_id', 'status', 'started_at', 'finished_at'] as const;

export function runView(row: RunRow): BaselineRun {
  return {
    id: row.id,
    host_id: row.host_id,
    task_id: row.task_id,
    baseline_id: row.baseline_id,
    baseline_name: row.baseline_name,
    status: row.status,
    started_at: row.started_at,
    finished_at: row.finished_at,
    results: row.results.map((result) => ({ ...result })),
  };
}

/**
 * The end of `text`, at most `max` characters (code points: a tail never
 * starts with half a surrogate pair), NULs dropped (they end C strings in
 * every viewer). The end of a log is where it says why it failed.
 */
export function outputTail(text: string, max = MAX_OUTPUT_TAIL_CHARS): string {
  const clean = text.replaceAll('\u0000', '');
  if (clean.length <= max) return clean;
  const points = Array.from(clean.slice(-(max * 2)));
  return points.slice(-max).join('');
}

/**
 * A finished run failed when a step failed or timed out without
 * continue_on_error, or reported nothing at all; steps that failed with
 * continue_on_error show as failed but do not fail the run (that is what the
 * flag asks for). Skipped steps (after a stop, or a kind the OS cannot run)
 * do not fail it either.
 */
/** How long after the worst case a silent run is given up (the runner's own requests and reboots take time). */
export const ABANDON_GRACE_MS = 15 * 60_000;

/** When a running run counts as abandoned: its last report plus the time limits of the steps it has not reported. */
export function silentUntil(row: Pick<RunRow, 'updated_at' | 'steps' | 'results'>): number {
  const reported = new Set(row.results.map((result) => result.position));
  const pending = row.steps.filter((step) => !reported.has(step.position)).reduce((sum, step) => sum + (step.timeout_seconds ?? DEFAULT_SCRIPT_TIMEOUT_SECONDS), 0);
  return Date.parse(row.updated_at) + pending * 1000 + ABANDON_GRACE_MS;
}

export function runStatus(steps: readonly RunStep[], results: readonly Pick<ResultView, 'position' | 'status'>[]): Exclude<RunStatus, 'running'> {
  for (const step of steps) {
    const result = results.find((candidate) => candidate.position === step.position);
    if (!result) return 'failed';
    if ((result.status === 'failed' || result.status === 'timeout') && !step.continue_on_error) return 'failed';
  }
  return 'succeeded';
}

function summary(results: readonly ResultView[]): string {
  const counts = new Map<string, number>();
  for (const result of results) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  const parts = [...counts].map(([status, count]) => `${count} ${status}`);
  const firstFailure = results.find((result) => result.status === 'failed' || result.status === 'timeout');
  const why = firstFailure ? `; first failure: ${firstFailure.name} (${firstFailure.status === 'timeout' ? 'timeout' : `exit ${firstFailure.exit_code ?? '?'}`})` : '';
  return `${parts.length > 0 ? parts.join(', ') : 'no results'}${why}`;
}

export interface RunsDeps {
  store: Store;
  events: EventLog;
  /** The host's MAC for events (the install task timeline matches events by MAC); null when the host is gone. */
  macOf(hostId: number): string | null;
  now?: () => Date;
}

export class BaselineRuns {
  private readonly rows: Collection<RunRow>;
  private readonly now: () => Date;
  /** Reports are applied one at a time: each reads a run's results and writes them back. */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: RunsDeps) {
    this.rows = deps.store.collection<RunRow>(BASELINE_RUNS_COLLECTION);
    this.now = deps.now ?? (() => new Date());
  }

  list(filter: RunFilter): ListPage<BaselineRun> {
    const rows = this.rows.filter((row) => (filter.host_id === undefined || row.host_id === filter.host_id) && (filter.task_id === undefined || row.task_id === filter.task_id));
    return paginate(rows.map(runView), filter, { sortable: SORTABLE, defaultSort: '-id', searchText: (run) => [run.baseline_name, run.status] });
  }

  get(id: number): BaselineRun {
    const row = this.rows.get(id);
    if (!row) throw notFound('baseline run', id);
    return runView(row);
  }

  /**
   * Applies a machine's report: opens a run when it names none (with the
   * steps of `assigned`, resolved by the caller only then), records its
   * results (a step reported again replaces its earlier result), closes it
   * when finished. The run must be the token's host's and still running.
   */
  report(token: TokenRow, report: ResultsReport, assigned: () => Promise<AssignedBaseline>, ip: string): Promise<{ run_id: number; status: RunStatus }> {
    const next = this.serial.then(() => this.apply(token, report, assigned, ip));
    this.serial = next.catch(() => undefined);
    return next;
  }

  private async apply(token: TokenRow, report: ResultsReport, assigned: () => Promise<AssignedBaseline>, ip: string): Promise<{ run_id: number; status: RunStatus }> {
    let row = report.run_id === undefined ? await this.open(token, await assigned(), ip) : this.rows.get(report.run_id);
    // Another host's run, or one that does not exist, looks the same: not found.
    if (!row || row.host_id !== token.host_id) throw notFound('baseline run', report.run_id ?? 0);
    if (row.status !== 'running') throw new AppError('INVALID_STATE', `baseline run ${row.id} is ${row.status}; start a new run`);
    const results = [...row.results];
    for (const [index, input] of report.results.entries()) {
      const step = row.steps.find((candidate) => candidate.position === input.position);
      if (!step) throw invalid(`body.results.${index}.position`, `run ${row.id} has no step ${input.position}`);
      if (step.script_id !== input.script_id) throw invalid(`body.results.${index}.script_id`, `step ${input.position} of run ${row.id} runs script ${step.script_id}, not ${input.script_id}`);
      const result = resultOf(step, input);
      const at = results.findIndex((candidate) => candidate.position === step.position);
      if (at >= 0) results[at] = result;
      else results.push(result);
    }
    results.sort((a, b) => a.position - b.position);
    const now = this.now();
    const finished = report.finished === true;
    const status: RunStatus = finished ? runStatus(row.steps, results) : 'running';
    row = (await this.rows.update(row.id, { results, status, ...(finished ? { finished_at: now.toISOString() } : {}) }, now)) ?? row;
    if (finished) this.finishedEvent(row, ip);
    return { run_id: row.id, status: row.status };
  }

  /**
   * Closes runs whose machine went silent: a run still `running` when every
   * step it has not reported could have timed out since its last report, plus
   * ABANDON_GRACE_MS, is failed (its results so far kept) with a warning event.
   * Without this a machine that died mid-run would show "running" for ever.
   */
  async abandonSilent(): Promise<number> {
    const now = this.now();
    const stale = this.rows.filter((row) => row.status === 'running' && silentUntil(row) < now.getTime());
    for (const row of stale) {
      const updated = (await this.rows.update(row.id, { status: 'failed', finished_at: now.toISOString() }, now)) ?? row;
      this.finishedEvent(updated, '', `no report since ${row.updated_at}: the machine stopped reporting (powered off, rebooted or lost its network)`);
    }
    return stale.length;
  }

  private async open(token: TokenRow, assigned: AssignedBaseline, ip: string): Promise<RunRow> {
    const now = this.now();
    const steps: RunStep[] = assigned.scripts.map((script) => ({ position: script.position, script_id: script.script_id, name: script.name, continue_on_error: script.continue_on_error, timeout_seconds: script.timeout_seconds }));
    const row = await this.rows.insert(
      {
        host_id: token.host_id,
        task_id: token.task_id,
        token_id: token.id,
        baseline_id: assigned.baseline?.id ?? null,
        baseline_name: assigned.baseline?.name ?? '',
        status: 'running',
        started_at: now.toISOString(),
        finished_at: null,
        steps,
        results: [],
      },
      now,
    );
    const mac = this.deps.macOf(row.host_id);
    this.deps.events.emit(
      {
        kind: 'baseline.run.started',
        message: `baseline run ${row.id} started on ${mac ?? 'host'} (#${row.host_id}): ${row.baseline_name === '' ? 'no baseline' : `"${row.baseline_name}"`}, ${steps.length} script${steps.length === 1 ? '' : 's'}`,
        host_id: row.host_id,
        ip,
        ...(mac !== null ? { mac } : {}),
        detail: { run_id: row.id, task_id: row.task_id, baseline_id: row.baseline_id, baseline_name: row.baseline_name, scripts: steps.length },
      },
      now,
    );
    return row;
  }

  private finishedEvent(row: RunRow, ip: string, abandoned: string | null = null): void {
    const mac = this.deps.macOf(row.host_id);
    this.deps.events.emit({
      kind: 'baseline.run.finished',
      level: row.status === 'failed' ? 'warn' : 'info',
      message: `baseline run ${row.id} on ${mac ?? 'host'} (#${row.host_id}) ${row.status}: ${abandoned ?? summary(row.results)}`,
      host_id: row.host_id,
      ...(ip !== '' ? { ip } : {}),
      ...(mac !== null ? { mac } : {}),
      detail: {
        run_id: row.id,
        task_id: row.task_id,
        baseline_id: row.baseline_id,
        status: row.status,
        results: row.results.map((result) => ({ position: result.position, script_id: result.script_id, status: result.status, exit_code: result.exit_code })),
        ...(abandoned !== null ? { abandoned: true } : {}),
      },
    });
  }
}

function resultOf(step: RunStep, input: ScriptResult): ResultView {
  return {
    position: step.position,
    script_id: step.script_id,
    name: step.name,
    status: input.status,
    exit_code: input.exit_code,
    duration_ms: input.duration_ms,
    output_tail: outputTail(input.output_tail),
  };
}
