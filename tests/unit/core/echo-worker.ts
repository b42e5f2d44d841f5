import { parentPort, workerData } from 'node:worker_threads';

/**
 * A worker for worker-host.test.ts. It says ready (unless told not to), then
 * answers `echo` with its value, never answers `hang`, spins forever on
 * `spin`, and dies on `crash`.
 */
export type EchoIn = { id: number; op: 'echo'; value: string } | { id: number; op: 'hang' | 'spin' | 'crash' };
export type EchoOut = { type: 'ready' } | { type: 'note'; text: string } | { type: 'reply'; id: number; value: string };

const port = parentPort;
if (!port) throw new Error('echo-worker.ts runs only as a worker thread');
const data = workerData as { silent?: boolean; failToLoad?: boolean } | undefined;
if (data?.failToLoad) throw new Error('echo worker refused to load');

port.on('message', (message: EchoIn) => {
  switch (message.op) {
    case 'echo':
      port.postMessage({ type: 'note', text: `echoing ${message.id}` } satisfies EchoOut);
      port.postMessage({ type: 'reply', id: message.id, value: message.value } satisfies EchoOut);
      return;
    case 'hang':
      return;
    case 'spin':
      for (;;);
    case 'crash':
      setImmediate(() => {
        throw new Error('echo worker crashed');
      });
      return;
  }
});
if (!data?.silent) port.postMessage({ type: 'ready' } satisfies EchoOut);
