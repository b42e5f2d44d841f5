import type { EventLog } from '../events/event-log.js';
import type { HostReservationLink } from './host-types.js';
import type { RowProblem } from './host-import.js';

/** What an import did (or, in a dry run, would do). */
export interface HostImportResult {
  problems: RowProblem[];
  created: number;
  updated: number;
}

type ReservationOf = { id: number; mac: string; ip: string | null; hostname: string | null };

/** Imports of at least this many rows report their phases as `hosts.import.progress` events. */
export const IMPORT_PROGRESS_MIN_ROWS = 1000;

/**
 * The events of one import: `hosts.import.progress` per phase for long
 * imports (a UI following the event stream can show where it is) and
 * `hosts.import.done` once written. Dry runs emit nothing.
 */
export class ImportProgress {
  private readonly events: EventLog;
  private readonly rows: number;
  private readonly quiet: boolean;

  constructor(events: EventLog, rows: number, dryRun: boolean) {
    this.events = events;
    this.rows = rows;
    this.quiet = dryRun || rows < IMPORT_PROGRESS_MIN_ROWS;
  }

  step(phase: 'checked' | 'reservations_written'): void {
    if (this.quiet) return;
    this.events.emit({ kind: 'hosts.import.progress', message: `host import of ${this.rows} rows: ${phase.replace('_', ' ')}`, detail: { phase, rows: this.rows } });
  }

  done(result: HostImportResult): void {
    this.events.emit({
      kind: 'hosts.import.done',
      message: `host import: ${result.created} created, ${result.updated} updated from ${this.rows} rows`,
      detail: { rows: this.rows, created: result.created, updated: result.updated },
    });
  }
}

/** Sets the reservations of `links` and removes those of `unlink`, in bulk when the link can. */
export async function writeReservations(link: HostReservationLink, links: readonly ReservationOf[], unlink: readonly number[]): Promise<void> {
  if (links.length > 0) {
    if (link.setForHosts) await link.setForHosts(links);
    else for (const host of links) await link.setForHost({ ...host, ip: host.ip! });
  }
  if (unlink.length > 0) await removeReservations(link, unlink);
}

/** Removes the reservations of these hosts, in bulk when the link can. */
export async function removeReservations(link: HostReservationLink, hostIds: readonly number[]): Promise<void> {
  if (link.removeForHosts) await link.removeForHosts(hostIds);
  else for (const id of hostIds) await link.removeForHost(id);
}
