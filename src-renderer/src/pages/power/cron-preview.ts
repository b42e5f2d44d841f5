import { Cron } from 'croner';

export type CronPreview = { ok: true; runs: Date[] } | { ok: false; error: string };

/**
 * The next runs of a cron expression in an IANA time zone, read by croner
 * like the server reads it (5 fields, or 6 with seconds first), so the
 * preview matches what will happen.
 */
export function previewCron(expression: string, timezone: string, count = 5, from: Date = new Date()): CronPreview {
  const text = expression.trim();
  if (text === '') return { ok: false, error: 'Enter a cron expression, e.g. "0 7 * * 1-5" (07:00 on weekdays)' };
  const fields = text.split(/\s+/).length;
  if (fields !== 5 && fields !== 6) return { ok: false, error: `A cron expression has 5 fields (or 6 with seconds first); this one has ${fields}` };
  try {
    const cron = new Cron(text, { timezone: timezone.trim() || 'UTC', paused: true });
    const runs = cron.nextRuns(count, from);
    return runs.length > 0 ? { ok: true, runs } : { ok: false, error: 'This expression never runs' };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A run time as the browser shows it, plus the zone's own time when it differs. */
export function describeRun(run: Date, timezone: string): string {
  const local = run.toLocaleString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  try {
    const there = run.toLocaleString(undefined, { timeZone: timezone || 'UTC', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    return `${local} (${there})`;
  } catch {
    return local;
  }
}

/** The browser's time zone, the natural default for a new schedule. */
export function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
