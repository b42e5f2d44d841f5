import { Cron } from 'croner';
import { AppError, type FieldError } from '../../core/errors.js';
import { normalizeMac, unicastMacProblem } from '../../core/mac.js';
import type { HostDirectory } from '../host-directory.js';
import type { WolSchedule, WolScheduleInput, WolScheduleUpdate } from '../power-contract.js';

export { SCHEDULE_RESULTS, type ScheduleResult, type WolSchedule, type WolScheduleInput } from '../power-contract.js';

export const DEFAULT_TIMEZONE = 'UTC';
export const SCHEDULE_SORT_FIELDS = ['id', 'name', 'next_run_at', 'last_run_at', 'created_at', 'enabled'] as const;

/** True for a zone name the runtime's ICU knows (Europe/Berlin, UTC). */
export function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A croner job that never runs by itself: it only computes run times (the scheduler owns the timers). */
export function cronFor(expression: string, timezone: string): Cron {
  return new Cron(expression, { timezone, paused: true });
}

/** The next run strictly after `after`, or null when the schedule has none left. */
export function nextRunAfter(schedule: Pick<WolSchedule, 'cron' | 'at' | 'timezone' | 'enabled'>, after: Date): Date | null {
  if (!schedule.enabled) return null;
  if (schedule.at !== null) {
    const at = new Date(schedule.at);
    return at.getTime() > after.getTime() ? at : null;
  }
  if (schedule.cron === null) return null;
  return cronFor(schedule.cron, schedule.timezone).nextRun(after);
}

/**
 * Checks a new schedule; returns the fields to store or throws a 400 that
 * names every bad field. Host ids are checked when the hosts area is there.
 */
/**
 * The create input that an update leads to: the stored schedule with the
 * given fields over it. `macs` and `host_ids` replace each other, as do `at`
 * and `cron`; an update naming both of a pair is refused by the checks.
 */
export function mergeScheduleUpdate(current: WolSchedule, patch: WolScheduleUpdate): WolScheduleInput {
  const targetGiven = patch.host_ids !== undefined || patch.macs !== undefined;
  const timeGiven = patch.cron !== undefined || patch.at !== undefined;
  const merged: WolScheduleInput = { name: patch.name ?? current.name, timezone: patch.timezone ?? current.timezone, enabled: patch.enabled ?? current.enabled };
  if (targetGiven) {
    if (patch.host_ids !== undefined) merged.host_ids = patch.host_ids;
    if (patch.macs !== undefined) merged.macs = patch.macs;
  } else if (current.host_ids) merged.host_ids = current.host_ids;
  else if (current.macs) merged.macs = current.macs;
  if (timeGiven) {
    if (patch.cron !== undefined) merged.cron = patch.cron;
    if (patch.at !== undefined) merged.at = patch.at;
  } else if (current.cron !== null) merged.cron = current.cron;
  else if (current.at !== null) merged.at = current.at;
  return merged;
}

export function validateScheduleInput(
  input: WolScheduleInput,
  now: Date,
  hosts: HostDirectory | null,
  options: { storedAt?: string | null } = {},
): Omit<WolSchedule, 'id' | 'created_at' | 'updated_at' | 'next_run_at' | 'last_run_at' | 'last_result'> {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name === '') errors.push({ field: 'body.name', message: 'must not be empty' });
  const hasHosts = input.host_ids !== undefined;
  const hasMacs = input.macs !== undefined;
  if (hasHosts === hasMacs) errors.push({ field: 'body.host_ids', message: 'give exactly one of host_ids and macs' });
  let macs: string[] | null = null;
  if (input.macs) {
    macs = [];
    input.macs.forEach((mac, index) => {
      const canonical = normalizeMac(mac);
      if (!canonical) errors.push({ field: `body.macs.${index}`, message: `"${mac}" is not a MAC address` });
      else if (unicastMacProblem(canonical)) errors.push({ field: `body.macs.${index}`, message: unicastMacProblem(canonical)! });
      else if (!macs!.includes(canonical)) macs!.push(canonical);
    });
  }
  if (input.host_ids && !hosts) errors.push({ field: 'body.host_ids', message: 'hosts are not available; use macs' });
  if (input.host_ids && hosts) {
    input.host_ids.forEach((id, index) => {
      if (!hosts.get(id)) errors.push({ field: `body.host_ids.${index}`, message: `host ${id} not found` });
    });
  }
  if ((input.cron === undefined) === (input.at === undefined)) errors.push({ field: 'body.cron', message: 'give exactly one of cron and at' });
  const timezone = input.timezone ?? DEFAULT_TIMEZONE;
  const zoneOk = isValidTimezone(timezone);
  if (!zoneOk) errors.push({ field: 'body.timezone', message: `"${timezone}" is not an IANA time zone` });
  let at: string | null = null;
  if (input.at !== undefined) {
    const time = Date.parse(input.at);
    if (Number.isNaN(time)) errors.push({ field: 'body.at', message: 'must be an RFC 3339 date-time' });
    // An edit that leaves a one-shot's stored time alone (pausing a past one) is not asked to move it.
    else if (time <= now.getTime() && input.at !== options.storedAt) errors.push({ field: 'body.at', message: 'must be in the future' });
    else at = new Date(time).toISOString();
  }
  if (input.cron !== undefined && zoneOk) {
    try {
      if (cronFor(input.cron, timezone).nextRun(now) === null) errors.push({ field: 'body.cron', message: 'the expression never fires again' });
    } catch (err) {
      errors.push({ field: 'body.cron', message: err instanceof Error ? err.message : 'invalid cron expression' });
    }
  }
  if (errors.length > 0) {
    throw new AppError('VALIDATION_FAILED', errors.map((error) => `${error.field.replace(/^body\./, '')}: ${error.message}`).join('; '), { details: errors });
  }
  return {
    name,
    host_ids: input.host_ids ? [...new Set(input.host_ids)] : null,
    macs,
    cron: input.cron?.trim() ?? null,
    at,
    timezone,
    enabled: input.enabled ?? true,
  };
}
