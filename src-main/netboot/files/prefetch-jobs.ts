import { randomUUID } from 'node:crypto';
import { AppError, errorMessage, notFound } from '../../core/errors.js';
import type { EventLog } from '../../events/event-log.js';
import type { PrefetchJob } from '../netboot-contract.js';
import type { ResolvedEntry } from '../netboot-ports.js';
import type { NetbootFiles } from './netboot-files.js';

/** Progress events of one job at most this often (a technician watches a bar, the event log should not fill up). */
export const PROGRESS_INTERVAL_MS = 500;
/** Finished jobs kept for GET /netboot/prefetch/{id}. */
export const KEPT_JOBS = 100;

/**
 * Prefetch jobs: an entry's remote files downloaded into the cache in the
 * background, with `netboot.prefetch.progress` events (throttled), then
 * `.done` or `.failed`. Jobs live in memory (they are about this run of the
 * server); one running job per entry: asking again returns it.
 */
export class PrefetchJobs {
  private readonly jobs = new Map<string, PrefetchJob>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly files: Pick<NetbootFiles, 'check' | 'ensureFiles'>,
    private readonly events: EventLog,
    private readonly clock: () => number = Date.now,
  ) {}

  get(id: string): PrefetchJob {
    const job = this.jobs.get(id);
    if (!job) throw notFound('prefetch job', id);
    return { ...job };
  }

  /**
   * Starts downloading what `resolved` needs and returns the job at once.
   * Fails at once (no job) when a file cannot be had: missing locally with
   * no mirror, or only remote while offline.
   */
  async start(resolved: ResolvedEntry): Promise<PrefetchJob> {
    const distro = resolved.entry.distro;
    const version = resolved.version.version;
    const arch = resolved.arch.arch;
    const existing = [...this.jobs.values()].find((job) => job.state === 'running' && job.distro === distro && job.version === version && job.arch === arch);
    if (existing) return { ...existing };
    const check = await this.files.check(resolved);
    if (check.problem) throw new AppError('INVALID_STATE', check.problem);
    const job: PrefetchJob = { id: randomUUID(), distro, version, arch, state: 'running', bytes_done: 0, bytes_total: null, error: null };
    this.keep(job);
    const label = `${distro} ${version} ${arch}`;
    let lastEvent = -Infinity;
    const run = this.files
      .ensureFiles(resolved, (done, total) => {
        job.bytes_done = done;
        job.bytes_total = total;
        const now = this.clock();
        if (now - lastEvent < PROGRESS_INTERVAL_MS) return;
        lastEvent = now;
        this.events.emit({
          kind: 'netboot.prefetch.progress',
          message: `prefetch of ${label}: ${done}${total === null ? '' : ` of ${total}`} bytes`,
          detail: { job_id: job.id, distro, version, arch, bytes_done: done, bytes_total: total },
        });
      })
      .then(
        () => {
          job.state = 'done';
          if (job.bytes_total === null) job.bytes_total = job.bytes_done;
          this.events.emit({
            kind: 'netboot.prefetch.done',
            message: `prefetch of ${label} done: its boot files are ready (${job.bytes_done} bytes downloaded)`,
            detail: { job_id: job.id, distro, version, arch, bytes_done: job.bytes_done, bytes_total: job.bytes_total },
          });
        },
        (err: unknown) => {
          job.state = 'failed';
          job.error = errorMessage(err);
          this.events.emit({
            kind: 'netboot.prefetch.failed',
            level: 'error',
            message: `prefetch of ${label} failed: ${job.error}`,
            detail: { job_id: job.id, distro, version, arch, bytes_done: job.bytes_done, error: job.error },
          });
        },
      )
      .finally(() => this.running.delete(job.id));
    this.running.set(job.id, run);
    return { ...job };
  }

  /** Resolves once every running job ended (shutdown, tests). */
  async settle(): Promise<void> {
    await Promise.all([...this.running.values()]);
  }

  private keep(job: PrefetchJob): void {
    this.jobs.set(job.id, job);
    if (this.jobs.size <= KEPT_JOBS) return;
    for (const [id, old] of this.jobs) {
      if (this.jobs.size <= KEPT_JOBS) break;
      if (old.state !== 'running') this.jobs.delete(id);
    }
  }
}
