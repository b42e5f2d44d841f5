import { afterEach, describe, expect, it } from 'vitest';
import {
  hostWorker,
  workerModule,
  WorkerEndedError,
  WorkerTimeoutError,
  type HostedWorker,
  type HostedWorkerOptions,
  type WorkerEnd,
} from '../../../src-main/core/worker-host.js';
import type { EchoIn, EchoOut } from './echo-worker.js';

type Reply = Extract<EchoOut, { type: 'reply' }>;

const started: HostedWorker<EchoIn, EchoOut, Reply>[] = [];

/** An echo worker under the host; its end event and other messages are collected. */
function echoWorker(workerData?: object, extra: Partial<HostedWorkerOptions<EchoOut, Reply>> = {}) {
  const notes: string[] = [];
  let resolveEnd!: (end: WorkerEnd) => void;
  const ended = new Promise<WorkerEnd>((resolve) => {
    resolveEnd = resolve;
  });
  const worker = hostWorker<EchoIn, EchoOut, Reply>({
    module: workerModule(import.meta.url, './echo-worker.js'),
    name: 'echo',
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 },
    isReady: (message) => message.type === 'ready',
    isReply: (message): message is Reply => message.type === 'reply',
    replyId: (reply) => reply.id,
    onMessage: (message) => {
      if (message.type === 'note') notes.push(message.text);
    },
    onEnd: resolveEnd,
    ...extra,
  });
  started.push(worker);
  return { worker, notes, ended };
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((worker) => worker.terminate()));
});

describe('workerModule', () => {
  it('names the .ts source next to a TypeScript caller and the .js module next to a built one', () => {
    expect(workerModule('file:///app/src-main/dns/server/worker-pool.ts', './dns-worker.js').href).toBe('file:///app/src-main/dns/server/dns-worker.ts');
    expect(workerModule('file:///app/dist/main/dns/server/worker-pool.js', './dns-worker.js').href).toBe('file:///app/dist/main/dns/server/dns-worker.js');
  });
});

describe('hostWorker', () => {
  it('starts a TypeScript worker under tsx, waits for ready, and matches replies to requests by id', async () => {
    const { worker, notes } = echoWorker();
    await worker.ready;
    const replies = await Promise.all(['a', 'b', 'c'].map((value) => worker.request((id) => ({ id, op: 'echo', value }))));
    expect(replies.map((reply) => reply.value)).toEqual(['a', 'b', 'c']);
    expect(new Set(replies.map((reply) => reply.id)).size).toBe(3);
    // Messages that are neither ready nor a reply reach onMessage.
    expect(notes).toHaveLength(3);
  });

  it('fails a request that is not answered in time, and keeps the worker', async () => {
    const { worker } = echoWorker();
    await worker.ready;
    const late = worker.request((id) => ({ id, op: 'hang' }), { timeoutMs: 100, what: 'hang' });
    await expect(late).rejects.toThrow(WorkerTimeoutError);
    await expect(late).rejects.toThrow('the echo worker did not answer "hang" within 100 ms');
    expect((await worker.request((id) => ({ id, op: 'echo', value: 'still here' }))).value).toBe('still here');
  });

  it('terminates a worker stuck in synchronous code when the request asks for it, and reports the end as terminated', async () => {
    const { worker, ended } = echoWorker();
    await worker.ready;
    const stuck = worker.request((id) => ({ id, op: 'spin' }), { timeoutMs: 200, onTimeout: 'terminate' });
    await expect(stuck).rejects.toMatchObject({ name: 'WorkerTimeoutError', terminated: true });
    const end = await ended;
    expect(end).toMatchObject({ name: 'echo', terminated: true, started: true });
  });

  it('reports a crash as one end event, and fails the pending requests with it', async () => {
    const { worker, ended } = echoWorker();
    await worker.ready;
    const pending = worker.request((id) => ({ id, op: 'hang' }));
    worker.post({ id: 0, op: 'crash' });
    const end = await ended;
    expect(end).toMatchObject({ name: 'echo', code: 1, terminated: false, started: true, outOfMemory: false });
    expect(end.error?.message).toBe('echo worker crashed');
    const failure = await pending.catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WorkerEndedError);
    expect((failure as WorkerEndedError).message).toBe('the echo worker exited (code 1): echo worker crashed');
    await expect(worker.request((id) => ({ id, op: 'echo', value: 'x' }))).rejects.toThrow('the echo worker has ended');
  });

  it('rejects ready when the module fails to load, and says it never started', async () => {
    const { worker, ended } = echoWorker({ failToLoad: true });
    await expect(worker.ready).rejects.toThrow('the echo worker did not start (code 1): echo worker refused to load');
    expect(await ended).toMatchObject({ started: false, terminated: false });
  });

  it('counts a worker without a ready handshake as ready at once', async () => {
    const { worker } = echoWorker({ silent: true }, { isReady: undefined });
    await worker.ready;
    expect((await worker.request((id) => ({ id, op: 'echo', value: 'no handshake' }))).value).toBe('no handshake');
  });

  it('runs eval source (no module file) and fails pending requests with the reason given to terminate()', async () => {
    const worker = hostWorker<{ id: number }, { id: number }>({
      module: { evalSource: `require('node:worker_threads').parentPort.on('message', () => undefined);` },
      name: 'eval',
      isReply: (message): message is { id: number } => typeof message.id === 'number',
      replyId: (reply) => reply.id,
    });
    started.push(worker as unknown as HostedWorker<EchoIn, EchoOut, Reply>);
    const pending = expect(worker.request((id) => ({ id }))).rejects.toThrow('shutting down');
    await worker.terminate(new Error('shutting down'));
    await pending;
  });
});
