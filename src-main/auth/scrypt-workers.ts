import { hostWorker, type HostedWorker, type WorkerEnd } from '../core/worker-host.js';
import { scryptMaxmem, type DeriveRequest } from './password-hash.js';
import type { ScryptJob, ScryptReply } from './scrypt-protocol.js';

/**
 * The worker's whole program, run with `eval` (CommonJS, built-in modules
 * only). It loads no file: loading a module reads it through libuv's thread
 * pool, the very pool these workers keep hashing out of, so a worker started
 * while the pool is busy with disk writes would wait for them. scryptSync
 * blocks this worker's thread only. Messages: scrypt-protocol.ts.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', (job) => {
  try {
    const key = scryptSync(job.password, Buffer.from(job.salt), job.keyLength, { N: job.N, r: job.r, p: job.p, maxmem: job.maxmem });
    parentPort.postMessage({ id: job.id, key: new Uint8Array(key) });
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: err && err.message ? err.message : String(err) });
  }
});
`;

interface Job {
  request: DeriveRequest;
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: HostedWorker<ScryptJob, ScryptReply>;
  job: Job | null;
  idleTimer: NodeJS.Timeout | null;
}

export interface ScryptWorkersOptions {
  /** Worker threads at most (each runs one derivation at a time). */
  size: number;
  /** A worker idle this long is ended, returning its memory; the next job starts a new one. */
  idleMs?: number;
}

/**
 * scrypt in dedicated worker threads. crypto.scrypt would run on libuv's
 * thread pool (4 threads), which every fs call and fsync also waits for: a
 * login flood then queues the store's durable writes behind 32 MiB hashes.
 * Here hashing has threads of its own and the pool stays free for the disk.
 */
export class ScryptWorkers {
  private readonly size: number;
  private readonly idleMs: number;
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];

  constructor(options: ScryptWorkersOptions) {
    this.size = Math.max(1, options.size);
    this.idleMs = options.idleMs ?? 30_000;
  }

  /** Live worker threads. */
  get threads(): number {
    return this.slots.length;
  }

  derive(request: DeriveRequest): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends every worker; jobs still running fail. */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const job of this.waiting.splice(0)) job.reject(new Error('password hashing stopped'));
    await Promise.all(slots.map((slot) => this.end(slot, new Error('password hashing stopped'))));
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot = this.slots.find((candidate) => candidate.job === null) ?? (this.slots.length < this.size ? this.spawn() : null);
      if (!slot) return;
      const job = this.waiting.shift()!;
      this.run(slot, job);
    }
  }

  private spawn(): Slot {
    const slot: Slot = {
      job: null,
      idleTimer: null,
      worker: hostWorker<ScryptJob, ScryptReply>({
        module: { evalSource: WORKER_SOURCE },
        name: 'scrypt',
        // scrypt's 32 MiB lives in OpenSSL, outside V8; the thread's own heap only carries tiny messages. Without
        // limits it would inherit the process's V8 flags (a 32 MB semi-space under `npm run serve`).
        resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
        isReply: (message): message is ScryptReply => typeof message.id === 'number',
        replyId: (reply) => reply.id,
        onEnd: (end) => this.onEnd(slot, end),
      }),
    };
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, job: Job): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.job = job;
    // A running hash keeps the process alive until it answers; an idle worker does not.
    slot.worker.ref();
    const { password, salt, params, keyLength } = job.request;
    slot.worker
      .request((id) => ({ id, password, salt: Uint8Array.from(salt), keyLength, N: params.N, r: params.r, p: params.p, maxmem: scryptMaxmem(params) }))
      .then(
        (reply) => this.finish(slot, job, reply),
        (err: Error) => {
          // The worker died (onEnd has taken it out of the pool) or was ended by close().
          if (slot.job === job) slot.job = null;
          job.reject(err);
        },
      );
  }

  private finish(slot: Slot, job: Job, reply: ScryptReply): void {
    slot.job = null;
    slot.worker.unref();
    if (reply.key) job.resolve(Buffer.from(reply.key.buffer, reply.key.byteOffset, reply.key.byteLength));
    else job.reject(new Error(`scrypt failed: ${reply.error}`));
    slot.idleTimer = setTimeout(() => {
      const index = this.slots.indexOf(slot);
      if (index >= 0 && slot.job === null) {
        this.slots.splice(index, 1);
        void this.end(slot, null);
      }
    }, this.idleMs);
    slot.idleTimer.unref();
    this.dispatch();
  }

  /** A worker that died on its own: its job has failed, it leaves the pool, and waiting jobs get a fresh one. */
  private onEnd(slot: Slot, end: WorkerEnd): void {
    if (end.terminated) return;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    this.dispatch();
  }

  private async end(slot: Slot, err: Error | null): Promise<void> {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    await slot.worker.terminate(err ?? undefined);
  }
}
