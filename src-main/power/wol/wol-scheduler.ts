import { paginate, type ListPage, type ListQueryInput } from '../../core/http-kit/list-query.js';
import { conflict, errorMessage, notFound } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { EventLog } from '../../events/event-log.js';
import type { Collection } from '../../store/collection.js';
import type { Store } from '../../store/store.js';
import type { HostDirectorySource } from '../host-directory.js';
import type { SchedulerClock } from './scheduler-clock.js';
import type { WolScheduleUpdate } from '../power-contract.js';
import {
  mergeScheduleUpdate,
  nextRunAfter,
  SCHEDULE_SORT_FIELDS,
  validateScheduleInput,
  type ScheduleResult,
  type WolSchedule,
  type WolScheduleInput,
} from './wol-schedules.js';
import type { WakeResult, WolService } from './wol-service.js';

/** setTimeout holds at most 2^31-1 ms (~24.8 days); longer waits are re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * A run that fires this late (the machine slept, the event loop stalled) is
 * treated like one missed while the app was closed: skipped, with an event.
 * Waking machines an hour late surprises people more than not waking them.
 */
export const MISSED_GRACE_MS = 5 * 60_000;

export interface WolSchedulerDeps {
  store: Store;
  events: EventLog;
  log: Logger;
  clock: SchedulerClock;
  wol: WolService;
  hosts: HostDirectorySource;
}

/**
 * Scheduled wakes: persisted in the config store, armed with one timer each
 * while running. Croner computes the run times (with time zones); the
 * timers are ours, through an injectable clock.
 *
 * Missed runs: at start, a schedule whose stored next run lies in the past
 * was due while the app was closed. That run is skipped (not made up
 * late) and reported as `wol.schedule.missed`; the schedule carries on
 * with its next run from now.
 */
export class WolScheduler {
  private readonly rows: Collection<WolSchedule>;
  private readonly deps: WolSchedulerDeps;
  private readonly log: Logger;
  private readonly timers = new Map<number, unknown>();
  private readonly inflight = new Set<Promise<void>>();
  private running = false;

  constructor(deps: WolSchedulerDeps) {
    this.deps = deps;
    this.rows = deps.store.collection<WolSchedule>('wol_schedules');
    this.log = deps.log.scope('wol-schedule');
  }

  list(query: ListQueryInput): ListPage<WolSchedule> {
    return paginate(this.rows.all(), query, {
      sortable: SCHEDULE_SORT_FIELDS,
      defaultSort: 'id',
      searchText: (row) => [row.name, row.cron, row.at, ...(row.macs ?? [])],
    });
  }

  get(id: number): WolSchedule | undefined {
    return this.rows.get(id);
  }

  /** The checks of create, writing nothing (the kit import checks everything first); `replacing`: a schedule the write will take the place of. */
  validate(input: WolScheduleInput, replacing?: number): void {
    const fields = validateScheduleInput(input, this.deps.clock.now(), this.deps.hosts());
    if (this.rows.find((row) => row.id !== replacing && row.name.toLowerCase() === fields.name.toLowerCase())) {
      throw conflict(`a schedule named "${fields.name}" already exists`, [{ field: 'body.name', message: 'already in use' }]);
    }
  }

  async create(input: WolScheduleInput): Promise<WolSchedule> {
    const now = this.deps.clock.now();
    const fields = validateScheduleInput(input, now, this.deps.hosts());
    if (this.rows.find((row) => row.name.toLowerCase() === fields.name.toLowerCase())) {
      throw conflict(`a schedule named "${fields.name}" already exists`, [{ field: 'body.name', message: 'already in use' }]);
    }
    const next = nextRunAfter(fields, now);
    const row = await this.rows.insert({ ...fields, next_run_at: next?.toISOString() ?? null, last_run_at: null, last_result: null }, now);
    if (this.running) this.arm(row);
    return row;
  }

  /**
   * Changes a schedule (omitted fields keep their value), checked like a new
   * one; `enabled: false` pauses it (no timer, next_run_at null), `true`
   * resumes it from now. The timer is re-armed for the new next run.
   */
  async update(id: number, patch: WolScheduleUpdate): Promise<WolSchedule> {
    const current = this.rows.get(id);
    if (!current) throw notFound('schedule', id);
    const now = this.deps.clock.now();
    const fields = validateScheduleInput(mergeScheduleUpdate(current, patch), now, this.deps.hosts(), { storedAt: current.at });
    if (this.rows.find((row) => row.id !== id && row.name.toLowerCase() === fields.name.toLowerCase())) {
      throw conflict(`a schedule named "${fields.name}" already exists`, [{ field: 'body.name', message: 'already in use' }]);
    }
    const next = nextRunAfter(fields, now);
    const row = await this.rows.update(id, { ...fields, next_run_at: next?.toISOString() ?? null }, now);
    if (!row) throw notFound('schedule', id);
    if (this.running) this.arm(row);
    return row;
  }

  async remove(id: number): Promise<WolSchedule> {
    const row = await this.rows.remove(id);
    if (!row) throw notFound('schedule', id);
    this.disarm(id);
    return row;
  }

  /** Arms every schedule; reports and skips runs missed while stopped. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const now = this.deps.clock.now();
    for (const row of [...this.rows.all()]) {
      const due = row.next_run_at === null ? null : new Date(row.next_run_at);
      if (row.enabled && due !== null && due.getTime() <= now.getTime()) {
        await this.reportMissed(row, due, 'the app was not running');
      }
      const current = this.rows.get(row.id);
      if (!current) continue;
      const next = nextRunAfter(current, now)?.toISOString() ?? null;
      const stored = next === current.next_run_at ? current : await this.rows.update(current.id, { next_run_at: next }, now);
      if (stored) this.arm(stored);
    }
  }

  /** Clears every timer; runs in flight finish on their own. */
  stop(): void {
    this.running = false;
    for (const id of [...this.timers.keys()]) this.disarm(id);
  }

  /** Resolves when no scheduled run is in progress (tests; orderly shutdown). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  private arm(row: WolSchedule): void {
    this.disarm(row.id);
    if (!row.enabled || row.next_run_at === null) return;
    const due = new Date(row.next_run_at).getTime();
    const wait = Math.min(Math.max(0, due - this.deps.clock.now().getTime()), MAX_TIMER_MS);
    this.timers.set(
      row.id,
      this.deps.clock.setTimer(() => {
        this.timers.delete(row.id);
        const run = this.onTimer(row.id, due).catch((err: unknown) => this.log.error(`schedule ${row.id} failed: ${errorMessage(err)}`));
        this.inflight.add(run);
        void run.finally(() => this.inflight.delete(run));
      }, wait),
    );
  }

  private disarm(id: number): void {
    const handle = this.timers.get(id);
    if (handle !== undefined) this.deps.clock.clearTimer(handle);
    this.timers.delete(id);
  }

  private async onTimer(id: number, due: number): Promise<void> {
    const row = this.rows.get(id);
    if (!row || !this.running || row.next_run_at === null || new Date(row.next_run_at).getTime() !== due) return;
    const now = this.deps.clock.now();
    // A long wait is armed in steps; not there yet means re-arm, not run.
    if (now.getTime() < due) {
      this.arm(row);
      return;
    }
    try {
      if (now.getTime() - due > MISSED_GRACE_MS) {
        await this.reportMissed(row, new Date(due), `the run started ${Math.round((now.getTime() - due) / 1000)} s late`);
      } else {
        await this.fire(row, new Date(due));
      }
    } catch (err) {
      // A failed run (the store refusing a write, say) must not end the schedule: the next run is still armed below.
      this.log.error(`WOL schedule "${row.name}" run at ${new Date(due).toISOString()} failed: ${errorMessage(err)}`);
    }
    const current = this.rows.get(id);
    if (!current) return;
    // The next run lies after `now`, so re-arming after a failure can never loop hot.
    const next = nextRunAfter(current, now)?.toISOString() ?? null;
    let stored: WolSchedule | undefined;
    try {
      stored = await this.rows.update(id, { next_run_at: next }, now);
    } catch (err) {
      this.log.error(`WOL schedule "${row.name}": could not store its next run ${next ?? '(none)'}: ${errorMessage(err)}; armed in memory`);
      stored = { ...current, next_run_at: next };
    }
    if (stored && this.running) this.arm(stored);
  }

  private async fire(row: WolSchedule, due: Date): Promise<void> {
    const context = { trigger: 'schedule' as const, user: `schedule:${row.name}` };
    const results: WakeResult[] = [];
    if (row.host_ids) results.push(...(await this.deps.wol.wakeHosts(row.host_ids, {}, context)));
    for (const mac of row.macs ?? []) results.push(await this.deps.wol.wakeMac(mac, {}, context));
    const sent = results.filter((result) => result.ok).length;
    const failed = results.length - sent;
    const outcome: ScheduleResult = failed === 0 ? 'ok' : sent === 0 ? 'failed' : 'partial';
    await this.rows.update(row.id, { last_run_at: this.deps.clock.now().toISOString(), last_result: outcome });
    this.deps.events.emit({
      kind: 'wol.schedule.fired',
      level: failed === 0 ? 'info' : 'warn',
      message: `WOL schedule "${row.name}" fired: ${sent} sent, ${failed} failed`,
      detail: { schedule_id: row.id, name: row.name, due_at: due.toISOString(), sent, failed, history_ids: results.map((result) => result.history.id) },
    });
  }

  private async reportMissed(row: WolSchedule, due: Date, why: string): Promise<void> {
    await this.rows.update(row.id, { last_result: 'missed' });
    this.log.warn(`WOL schedule "${row.name}" missed its run at ${due.toISOString()} (${why}); skipped`);
    this.deps.events.emit({
      kind: 'wol.schedule.missed',
      level: 'warn',
      message: `WOL schedule "${row.name}" missed its run at ${due.toISOString()} (${why}); it was skipped`,
      detail: { schedule_id: row.id, name: row.name, due_at: due.toISOString(), reason: why },
    });
  }
}
