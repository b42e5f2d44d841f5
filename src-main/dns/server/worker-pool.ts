import type { Worker } from 'node:worker_threads';
import type { Logger } from '../../core/logger.js';
import type { BindTarget } from './dns-listeners.js';
import { launchWorker } from './worker-launcher.js';
import type { WorkerMetricsDelta } from './worker-metrics.js';
import type { BindFailure, DnsWorkerConfig, FromWorker, ToWorker } from './worker-protocol.js';
import type { ZoneSnapshot } from './zone-snapshot.js';

/** A worker that does not answer a request in this time is treated as failed. */
const REQUEST_TIMEOUT_MS = 10_000;
/** A worker that died is started again after this pause. */
const RESPAWN_DELAY_MS = 1_000;

type Request = { type: 'zone'; snapshot: ZoneSnapshot } | { type: 'bind'; targets: BindTarget[] } | { type: 'flush' } | { type: 'stop' };
type Reply = Extract<FromWorker, { type: 'done' }>;

interface Slot {
  config: DnsWorkerConfig;
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, { resolve: (reply: Reply) => void; reject: (err: Error) => void }>;
}

export interface BindResult {
  listen: string[];
  failures: BindFailure[];
}

/**
 * The DNS worker threads of a running server: spawns them, sends each the
 * snapshot and the addresses, gathers their metric deltas, and starts a
 * worker again if one dies (with the last snapshot and addresses).
 */
export class DnsWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly log: Logger;
  private readonly onMetrics: (delta: WorkerMetricsDelta) => void;
  private seq = 0;
  private stopping = false;
  private lastSnapshot: ZoneSnapshot | null = null;
  private lastTargets: BindTarget[] | null = null;

  constructor(deps: { count: number; port: number; reusePort: boolean; log: Logger; onMetrics: (delta: WorkerMetricsDelta) => void }) {
    this.log = deps.log;
    this.onMetrics = deps.onMetrics;
    for (let index = 0; index < deps.count; index++) {
      this.slots.push(this.spawn({ index, port: deps.port, reusePort: deps.reusePort, tcp: index === 0 }));
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /** Resolves once every worker has loaded; rejects when one failed to. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.ready));
  }

  async applyZone(snapshot: ZoneSnapshot): Promise<void> {
    this.lastSnapshot = snapshot;
    await Promise.all(this.slots.map((slot) => this.request(slot, { type: 'zone', snapshot })));
  }

  /** Binds every worker to `targets`; the listen list is the first worker's (it alone has TCP). */
  async bind(targets: BindTarget[]): Promise<BindResult> {
    this.lastTargets = targets;
    const replies = await Promise.all(this.slots.map((slot) => this.request(slot, { type: 'bind', targets })));
    const failures = new Map<string, BindFailure>();
    for (const reply of replies) for (const failure of reply.failures ?? []) failures.set(failure.message, failure);
    return { listen: replies[0]?.listen ?? [], failures: [...failures.values()] };
  }

  async flushMetrics(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.request(slot, { type: 'flush' }).catch(() => undefined)));
  }

  /** Closes the sockets and ends the threads; never throws. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.slots.map(async (slot) => {
        await this.request(slot, { type: 'stop' }).catch(() => undefined);
        await slot.worker.terminate().catch(() => undefined);
      }),
    );
  }

  private spawn(config: DnsWorkerConfig): Slot {
    const worker = launchWorker(new URL(`./dns-worker${extension()}`, import.meta.url), { workerData: config });
    const pending: Slot['pending'] = new Map();
    let markReady!: () => void;
    let failReady!: (err: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    ready.catch(() => undefined);
    const slot: Slot = { config, worker, ready, pending };
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') markReady();
      else if (message.type === 'metrics') this.onMetrics(message.delta);
      else pending.get(message.seq)?.resolve(message);
    });
    worker.on('error', (err) => {
      this.log.error(`DNS worker ${config.index} failed: ${err.message}`);
      failReady(err);
    });
    worker.on('exit', (code) => {
      const error = new Error(`DNS worker ${config.index} exited (code ${code})`);
      failReady(error);
      for (const request of pending.values()) request.reject(error);
      pending.clear();
      if (!this.stopping) this.respawn(slot);
    });
    return slot;
  }

  private respawn(dead: Slot): void {
    this.log.error(`DNS worker ${dead.config.index} stopped unexpectedly; starting it again in ${RESPAWN_DELAY_MS} ms`);
    setTimeout(() => {
      if (this.stopping) return;
      const index = this.slots.indexOf(dead);
      if (index < 0) return;
      const slot = this.spawn(dead.config);
      this.slots[index] = slot;
      void (async () => {
        await slot.ready;
        if (this.lastSnapshot) await this.request(slot, { type: 'zone', snapshot: this.lastSnapshot });
        if (this.lastTargets) await this.request(slot, { type: 'bind', targets: this.lastTargets });
      })().catch((err: Error) => this.log.error(`DNS worker ${dead.config.index} did not come back: ${err.message}`));
    }, RESPAWN_DELAY_MS).unref();
  }

  private async request(slot: Slot, request: Request): Promise<Reply> {
    await slot.ready;
    const seq = ++this.seq;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        slot.pending.delete(seq);
        reject(new Error(`DNS worker ${slot.config.index} did not answer "${request.type}" within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      slot.pending.set(seq, {
        resolve: (reply) => {
          clearTimeout(timer);
          slot.pending.delete(seq);
          resolve(reply);
        },
        reject: (err) => {
          clearTimeout(timer);
          slot.pending.delete(seq);
          reject(err);
        },
      });
      slot.worker.postMessage({ ...request, seq } as ToWorker);
    });
  }
}

/** The worker module has the extension of this one: .ts when running from sources, .js when built. */
function extension(): string {
  return import.meta.url.endsWith('.ts') ? '.ts' : '.js';
}
