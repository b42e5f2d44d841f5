import { AppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { hostWorker, workerModule, WorkerEndedError, WorkerTimeoutError, type HostedWorker, type WorkerEnd } from '../core/worker-host.js';
import { TEMPLATE_LIMITS, TemplateError, type TemplateData } from './template-engine.js';
import type { FromTemplateWorker, TemplateJob, TemplateWorkerFailure, ToTemplateWorker } from './template-worker-protocol.js';

/**
 * Parses and renders templates written by users (profile scripts, the entry
 * script, later answer files) away from the main thread, which also answers
 * DHCP and the API. Every area that renders a user template goes through this
 * one service.
 */
export interface TemplateRenderer {
  /**
   * Renders `source` with `data` (plain JSON). Rejects with a TemplateError
   * for a template fault or an exceeded bound, and with AppError UNAVAILABLE
   * when too many renders are already waiting.
   */
  render(source: string, data: TemplateData): Promise<string>;
  /** Parses `source` only; the same rejections as render. */
  check(source: string): Promise<void>;
  /** Refuses new work, fails what is pending and ends the workers. */
  close(): Promise<void>;
}

export interface TemplateWorkerOptions {
  /** Worker threads; 1 or 2 (renders take well under a millisecond; a second thread only helps while one is being killed). */
  workers?: number;
  /** Jobs waiting for a worker before new ones are refused whatever their cost (bounds memory under an unauthenticated flood). */
  maxQueued?: number;
  /**
   * A new job is refused when the jobs already waiting would keep it waiting
   * longer than this (their count × the recent time per job): a boot storm of
   * cheap renders queues, a few renders that run into the kill timer do not
   * make everyone else wait seconds.
   */
  maxWaitMs?: number;
  /** Wall time of one job in its worker before the worker is terminated. */
  killAfterMs?: number;
  /** Heap of one worker; a render that needs more kills only its worker. */
  maxHeapMb?: number;
  log: Logger;
}

export const TEMPLATE_WORKER_DEFAULTS = { workers: 1, maxQueued: 1024, maxWaitMs: 2000, maxHeapMb: 128 } as const;

/** What a job is assumed to cost before any ran (a typical boot script renders in well under 1 ms). */
const INITIAL_JOB_MS = 2;
/** Weight of the newest job in the moving average of job time. */
const JOB_MS_WEIGHT = 0.2;

interface Job {
  job: TemplateJob;
  resolve(output: string): void;
  reject(err: Error): void;
}

type Reply = Exclude<FromTemplateWorker, { type: 'ready' }>;

interface Slot {
  index: number;
  worker: HostedWorker<ToTemplateWorker, FromTemplateWorker, Reply>;
  ready: boolean;
  /** The job it runs (its kill timer is the request's timeout in the worker host). */
  running: Job | null;
}

/**
 * A small pool of template workers with a bounded queue (by count and by the
 * wait it would mean, see `maxWaitMs`). A job that runs
 * longer than `killAfterMs` (a filter walking millions of elements, which
 * LiquidJS's own time limit cannot interrupt) gets its worker terminated and
 * replaced, and fails with "render exceeded N ms". Workers start on first use
 * and are unref'd: an idle pool never keeps the process alive.
 */
export class WorkerTemplateRenderer implements TemplateRenderer {
  private readonly slots: (Slot | null)[];
  private readonly queue: Job[] = [];
  private readonly maxQueued: number;
  private readonly maxWaitMs: number;
  /** Moving average of the wall time of recent jobs in their worker (killed ones count as the kill time). */
  private jobMs = INITIAL_JOB_MS;
  private readonly killAfterMs: number;
  private readonly maxHeapMb: number;
  private readonly log: Logger;
  private closed = false;

  constructor(options: TemplateWorkerOptions) {
    const workers = options.workers ?? TEMPLATE_WORKER_DEFAULTS.workers;
    if (!Number.isInteger(workers) || workers < 1 || workers > 2) throw new Error(`template workers must be 1 or 2, not ${workers}`);
    this.slots = Array.from({ length: workers }, () => null);
    this.maxQueued = options.maxQueued ?? TEMPLATE_WORKER_DEFAULTS.maxQueued;
    this.maxWaitMs = options.maxWaitMs ?? TEMPLATE_WORKER_DEFAULTS.maxWaitMs;
    this.killAfterMs = options.killAfterMs ?? TEMPLATE_LIMITS.killAfterMs;
    this.maxHeapMb = options.maxHeapMb ?? TEMPLATE_WORKER_DEFAULTS.maxHeapMb;
    this.log = options.log.scope('templates');
  }

  render(source: string, data: TemplateData): Promise<string> {
    let dataJson: string;
    try {
      dataJson = JSON.stringify(data);
    } catch (err) {
      return Promise.reject(new TemplateError(`the template data is not JSON: ${err instanceof Error ? err.message : String(err)}`));
    }
    return this.submit(source, { op: 'render', source, dataJson });
  }

  async check(source: string): Promise<void> {
    await this.submit(source, { op: 'check', source });
  }

  async close(): Promise<void> {
    this.closed = true;
    const stopped = new AppError('UNAVAILABLE', 'the template renderer is stopping');
    for (const job of this.queue.splice(0)) job.reject(stopped);
    await Promise.all(
      this.slots.map(async (slot, index) => {
        if (!slot) return;
        this.slots[index] = null;
        // The running job, if any, fails with `stopped`.
        await slot.worker.terminate(stopped);
      }),
    );
  }

  /** Jobs waiting for a worker (not counting the running ones). */
  get queued(): number {
    return this.queue.length;
  }

  private submit(source: string, job: TemplateJob): Promise<string> {
    if (this.closed) return Promise.reject(new AppError('UNAVAILABLE', 'the template renderer is stopped'));
    // Refused here so an oversized source is never copied to a worker.
    if (source.length > TEMPLATE_LIMITS.maxSourceChars) {
      return Promise.reject(new TemplateError(`the template is longer than ${TEMPLATE_LIMITS.maxSourceChars} characters`));
    }
    if (this.queue.length >= this.maxQueued || this.expectedWaitMs() > this.maxWaitMs) {
      return Promise.reject(
        new AppError('UNAVAILABLE', `the template renderer is busy (${this.queue.length} renders waiting, about ${Math.round(this.expectedWaitMs())} ms); retry shortly`, {
          headers: { 'retry-after': '1' },
        }),
      );
    }
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  /** How long a job submitted now would wait for a worker. */
  private expectedWaitMs(): number {
    return (this.queue.length * this.jobMs) / this.slots.length;
  }

  private tookMs(ms: number): void {
    this.jobMs += (ms - this.jobMs) * JOB_MS_WEIGHT;
  }

  /** Hands waiting jobs to idle workers, starting workers as needed. */
  private pump(): void {
    if (this.closed) return;
    for (let index = 0; index < this.slots.length && this.queue.length > 0; index += 1) {
      const slot = this.slots[index] ?? this.spawn(index);
      if (slot.ready && slot.running === null) this.dispatch(slot, this.queue.shift()!);
    }
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.running = job;
    const started = performance.now();
    slot.worker.request((seq) => ({ ...job.job, seq }), { timeoutMs: this.killAfterMs, onTimeout: 'terminate' }).then(
      (reply) => {
        slot.running = null;
        this.tookMs(performance.now() - started);
        if (reply.type === 'done') job.resolve(reply.output);
        else job.reject(failureError(reply.failure));
        this.pump();
      },
      (err: Error) => {
        slot.running = null;
        this.tookMs(performance.now() - started);
        if (err instanceof WorkerTimeoutError) this.killed(slot, job);
        else job.reject(this.crashError(err));
      },
    );
  }

  /**
   * The job overran: the worker host terminated its worker (the only way to
   * stop synchronous JavaScript); it is replaced.
   */
  private killed(slot: Slot, job: Job): void {
    const what = job.job.op === 'render' ? 'render' : 'parse';
    job.reject(new TemplateError(`${what} exceeded ${this.killAfterMs} ms (stopped)`));
    if (this.slots[slot.index] !== slot) return;
    this.slots[slot.index] = null;
    this.log.warn(`a template ${what} ran over ${this.killAfterMs} ms; its worker was terminated and is being replaced`);
    // Replace it now, so the next render does not wait for a thread to start.
    if (!this.closed) this.spawn(slot.index);
    this.pump();
  }

  /** What a job's caller sees when its worker died under it. */
  private crashError(err: Error): Error {
    if (err instanceof WorkerEndedError && err.end.outOfMemory) {
      this.log.warn(`a template render used more than ${this.maxHeapMb} MB; its worker ended and is being replaced`);
      return new TemplateError(`the render needed more than ${this.maxHeapMb} MB of memory (stopped)`);
    }
    return err;
  }

  private spawn(index: number): Slot {
    const slot: Slot = {
      index,
      ready: false,
      running: null,
      worker: hostWorker<ToTemplateWorker, FromTemplateWorker, Reply>({
        module: workerModule(import.meta.url, './template-worker.js'),
        name: 'template',
        // A small young generation: workers otherwise inherit the process's --max-semi-space-size (32 MB under `npm run serve`).
        resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, maxYoungGenerationSizeMb: 8 },
        unref: true,
        isReady: (message) => message.type === 'ready',
        isReply: (message): message is Reply => message.type !== 'ready',
        replyId: (reply) => reply.seq,
        onEnd: (end) => this.onEnd(slot, end),
      }),
    };
    this.slots[index] = slot;
    slot.worker.ready.then(
      () => {
        if (this.slots[index] !== slot) return;
        slot.ready = true;
        this.pump();
      },
      () => undefined, // reported by onEnd
    );
    return slot;
  }

  /** A worker ended on its own (out of memory, a crash, or it never started); its job has failed already. */
  private onEnd(slot: Slot, end: WorkerEnd): void {
    if (end.terminated || this.slots[slot.index] !== slot) return; // terminated on purpose
    this.slots[slot.index] = null;
    if (!end.started) {
      // It never started (a missing or broken module): fail what waits rather than start threads in a loop.
      const reason = new WorkerEndedError(end);
      this.log.error(reason.message);
      for (const job of this.queue.splice(0)) job.reject(reason);
      return;
    }
    if (!this.closed) this.spawn(slot.index);
    this.pump();
  }
}

function failureError(failure: TemplateWorkerFailure): Error {
  if (failure.kind === 'template') return new TemplateError(failure.reason, failure.line, failure.column);
  return new Error(`the template worker failed: ${failure.message}`);
}
