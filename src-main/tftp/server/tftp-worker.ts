import { parentPort } from 'node:worker_threads';
import type { VirtualFile } from '../../boot-files/virtual-files.js';
import { errorMessage } from '../../core/errors.js';
import { TftpServer, type TftpClient } from './tftp-server.js';
import type { MainToWorker, WireVirtualFile, WorkerToMain } from './tftp-worker-protocol.js';

/**
 * The TFTP server's thread: all sockets, transfers and disk reads live here,
 * so hundreds of transfers never delay the API on the main thread. Virtual
 * files are asked of the main thread, where their providers are.
 */
const port = parentPort;
if (!port) throw new Error('tftp-worker must run in a worker thread');

let server: TftpServer | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (file: VirtualFile | null) => void; reject: (err: Error) => void }>();

function post(message: WorkerToMain): void {
  port!.postMessage(message);
}

function resolveVirtual(path: string, client: TftpClient): Promise<VirtualFile | null> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    post({ type: 'virtual', id, path, client });
  });
}

function fromWire(file: WireVirtualFile | null): VirtualFile | null {
  if (!file) return null;
  if (file.kind === 'file') {
    const lease = file.lease;
    return {
      kind: 'file',
      path: file.path,
      size: file.size,
      ...(file.stretches ? { extents: file.stretches } : {}),
      ...(lease === null ? {} : { release: (bytes: number) => post({ type: 'released', lease, bytes }) }),
    };
  }
  return { content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength), contentType: file.contentType };
}

async function run(message: Exclude<MainToWorker, { type: 'reply' }>): Promise<string[]> {
  switch (message.type) {
    case 'start': {
      if (server) await server.stop();
      server = new TftpServer(message.config, {
        ...(message.virtualFiles ? { resolveVirtual } : {}),
        onEvent: (event) => post({ type: 'event', event }),
        log: (level, text) => post({ type: 'log', level, message: text }),
      });
      return server.start();
    }
    case 'rebind':
      return server ? server.rebind(message.addresses) : [];
    case 'stop': {
      const running = server;
      server = null;
      await running?.stop();
      return [];
    }
  }
}

port.on('message', (message: MainToWorker) => {
  if (message.type === 'reply') {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (!waiter) return;
    if (message.ok) waiter.resolve(fromWire(message.value));
    else waiter.reject(new Error(message.error));
    return;
  }
  run(message).then(
    (value) => post({ type: 'reply', id: message.id, ok: true, value }),
    (err: unknown) => post({ type: 'reply', id: message.id, ok: false, error: errorMessage(err) }),
  );
});

// Tells the main thread the module loaded (a worker that dies before this could not run at all).
post({ type: 'ready' });
