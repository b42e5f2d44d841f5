import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type WorkerOptions } from 'node:worker_threads';

/**
 * The one worker-thread host of the ground layer: every area that runs code
 * in a worker thread (DNS, TFTP, the template renderer, the scrypt hasher)
 * starts it here. It finds the worker module next to the caller (built `.js`
 * or, under tsx, `.ts` source), launches it with a name and resource limits,
 * turns the thread's `error` + `exit` into one typed end event, and offers a
 * small request/response channel (ids, optional per-request timeout).
 */

/**
 * The worker module `name` (written as `./x.js`) next to `callerUrl` (the
 * caller's `import.meta.url`): `.ts` when the caller runs from TypeScript
 * sources (tests, benchmarks under tsx), `.js` when built.
 */
export function workerModule(callerUrl: string, name: string): URL {
  const url = new URL(name, callerUrl);
  if (callerUrl.endsWith('.ts')) url.pathname = url.pathname.replace(/\.js$/, '.ts');
  return url;
}

/**
 * Starts a raw worker thread running the module at `url`. Built code (`.js`)
 * runs as is. From TypeScript sources the worker first registers tsx's
 * loader, which a worker does not inherit from its parent thread.
 */
export function launchWorker(url: URL, options: WorkerOptions = {}): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const tsxLoader = pathToFileURL(tsxEsmApi()).href;
  const code = `import(${JSON.stringify(tsxLoader)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/** tsx's ESM API entry, from its package.json exports (the "import" condition). */
function tsxEsmApi(): string {
  const require = createRequire(fileURLToPath(import.meta.url));
  const manifestPath = require.resolve('tsx/package.json');
  const manifest = require(manifestPath) as { exports: Record<string, { import?: { default?: string } }> };
  const entry = manifest.exports['./esm/api']?.import?.default;
  if (!entry) throw new Error('tsx does not export ./esm/api; cannot run a worker from TypeScript sources');
  return path.join(path.dirname(manifestPath), entry);
}

/** How a hosted worker's thread ended: reported once, after its `exit`. */
export interface WorkerEnd {
  /** The worker's name (as given to hostWorker). */
  name: string;
  code: number;
  /** What the thread threw (its `error` event), if anything. */
  error: Error | null;
  /** Ended by terminate() (the owner's choice) rather than on its own. */
  terminated: boolean;
  /** It had reported ready (always true for a worker without a ready handshake). */
  started: boolean;
  /** It exceeded its resourceLimits heap. */
  outOfMemory: boolean;
}

/** A request failed because its worker ended (on its own) before answering. */
export class WorkerEndedError extends Error {
  override name = 'WorkerEndedError';
  readonly end: WorkerEnd;

  constructor(end: WorkerEnd) {
    super(`${end.started ? `the ${end.name} worker exited` : `the ${end.name} worker did not start`} (code ${end.code})${end.error ? `: ${end.error.message}` : ''}`);
    this.end = end;
  }
}

/** A request was not answered within its timeout. */
export class WorkerTimeoutError extends Error {
  override name = 'WorkerTimeoutError';
  readonly timeoutMs: number;
  /** The worker was terminated for it (onTimeout 'terminate'). */
  readonly terminated: boolean;

  constructor(name: string, what: string, timeoutMs: number, terminated: boolean) {
    super(`the ${name} worker did not answer ${what} within ${timeoutMs} ms${terminated ? ' (terminated)' : ''}`);
    this.timeoutMs = timeoutMs;
    this.terminated = terminated;
  }
}

/**
 * A worker's whole program as CommonJS source run with `eval`, for a worker
 * that must start without loading a file: loading a module reads it through
 * libuv's thread pool, which a worker may exist to stay clear of (scrypt).
 * Built-in modules only.
 */
export interface EvalSource {
  evalSource: string;
}

export interface HostedWorkerOptions<Out, Reply extends Out> {
  /** The worker module, from workerModule(), or its source. */
  module: URL | EvalSource;
  /** Thread name (shown in diagnostics) and the name used in error messages. */
  name: string;
  workerData?: unknown;
  /**
   * Heap limits. Without them a worker inherits the process's V8 flags
   * (a 32 MB semi-space under `npm run serve`).
   */
  resourceLimits?: ResourceLimits;
  /** An idle worker does not keep the process alive. */
  unref?: boolean;
  /** The message the worker sends once loaded; without it the worker counts as ready at once. */
  isReady?: (message: Out) => boolean;
  /** Replies to request(), matched by id; every other message goes to onMessage. */
  isReply?: (message: Out) => message is Reply;
  replyId?: (reply: Reply) => number;
  onMessage?: (message: Out) => void;
  /** The thread ended; requests still pending have already failed. */
  onEnd?: (end: WorkerEnd) => void;
}

export interface RequestOptions {
  /** Fails the request after this long. */
  timeoutMs?: number;
  /** On timeout, also terminate the worker (the only way to stop synchronous code). Default 'reject'. */
  onTimeout?: 'reject' | 'terminate';
  /** Names the request in the timeout error. */
  what?: string;
}

interface Pending<Reply> {
  resolve(reply: Reply): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout | null;
}

/** One worker thread with its request channel. */
export class HostedWorker<In, Out, Reply extends Out = Out> {
  readonly name: string;
  /** Resolves once the worker reported ready; rejects with WorkerEndedError if it ended before. */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly options: HostedWorkerOptions<Out, Reply>;
  private readonly pending = new Map<number, Pending<Reply>>();
  private nextId = 1;
  private started: boolean;
  private terminated = false;
  private ended = false;
  private crash: Error | null = null;
  private markReady!: () => void;
  private failReady!: (err: Error) => void;

  constructor(options: HostedWorkerOptions<Out, Reply>) {
    this.options = options;
    this.name = options.name;
    this.started = !options.isReady;
    this.ready = new Promise<void>((resolve, reject) => {
      this.markReady = resolve;
      this.failReady = reject;
    });
    // A caller that never awaits ready must not see an unhandled rejection.
    this.ready.catch(() => undefined);
    if (this.started) this.markReady();
    const workerOptions: WorkerOptions = {
      name: `bootwright-${options.name}`,
      ...(options.workerData !== undefined ? { workerData: options.workerData } : {}),
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    };
    this.worker =
      options.module instanceof URL
        ? launchWorker(options.module, workerOptions)
        : new Worker(options.module.evalSource, { ...workerOptions, eval: true });
    if (options.unref) this.worker.unref();
    this.worker.on('message', (message: Out) => this.onMessage(message));
    this.worker.on('error', (err) => {
      this.crash = err;
    });
    this.worker.on('exit', (code) => this.onExit(code));
  }

  /** Sends a message that expects no reply. */
  post(message: In): void {
    this.worker.postMessage(message);
  }

  /** Sends the message `build(id)` and resolves with the reply carrying that id. */
  request(build: (id: number) => In, options: RequestOptions = {}): Promise<Reply> {
    if (this.ended || this.terminated) return Promise.reject(new Error(`the ${this.name} worker has ended`));
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const entry: Pending<Reply> = { resolve, reject, timer: null };
      if (options.timeoutMs !== undefined) {
        const timeoutMs = options.timeoutMs;
        const terminate = options.onTimeout === 'terminate';
        entry.timer = setTimeout(() => {
          if (!this.pending.delete(id)) return;
          reject(new WorkerTimeoutError(this.name, options.what ? `"${options.what}"` : 'a request', timeoutMs, terminate));
          if (terminate) void this.terminate();
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      this.worker.postMessage(build(id));
    });
  }

  /** Keeps the process alive while the worker runs (for the length of a job). */
  ref(): void {
    this.worker.ref();
  }

  unref(): void {
    this.worker.unref();
  }

  /** Ends the thread; pending requests fail with `reason`. Never throws. */
  async terminate(reason: Error = new Error(`the ${this.name} worker was stopped`)): Promise<void> {
    this.terminated = true;
    this.failPending(reason);
    await this.worker.terminate().catch(() => undefined);
  }

  private onMessage(message: Out): void {
    if (!this.started && this.options.isReady?.(message)) {
      this.started = true;
      this.markReady();
      return;
    }
    if (this.options.isReply?.(message) && this.options.replyId) {
      const id = this.options.replyId(message);
      const entry = this.pending.get(id);
      if (!entry) return; // timed out already
      this.pending.delete(id);
      if (entry.timer) clearTimeout(entry.timer);
      entry.resolve(message);
      return;
    }
    this.options.onMessage?.(message);
  }

  private onExit(code: number): void {
    this.ended = true;
    const end: WorkerEnd = {
      name: this.name,
      code,
      error: this.crash,
      terminated: this.terminated,
      started: this.started,
      outOfMemory: (this.crash as (Error & { code?: string }) | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY',
    };
    const failure = new WorkerEndedError(end);
    this.failReady(failure);
    this.failPending(failure);
    this.options.onEnd?.(end);
  }

  private failPending(err: Error): void {
    for (const entry of this.pending.values()) {
      if (entry.timer) clearTimeout(entry.timer);
      entry.reject(err);
    }
    this.pending.clear();
  }
}

/** Starts a worker thread under the host. */
export function hostWorker<In, Out, Reply extends Out = Out>(options: HostedWorkerOptions<Out, Reply>): HostedWorker<In, Out, Reply> {
  return new HostedWorker<In, Out, Reply>(options);
}
