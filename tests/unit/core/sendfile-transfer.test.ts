import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync } from 'node:fs';
import { truncate, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendfileError, sendFileRange, sendfileAvailable, sendfileUnavailableReason, socketDescriptor } from '../../../src-main/core/sendfile-transfer.js';
import { LoopbackPairs } from '../../helpers/loopback-pairs.js';
import { tempDir } from '../../helpers/test-core.js';

const native = sendfileAvailable();
const DATA = randomBytes(3 * 1024 * 1024 + 5);
/** Sparse, and larger than any socket buffers: a peer that does not read stalls the transfer. */
const HUGE_BYTES = 1024 * 1024 * 1024;

let dir: { dir: string; remove: () => Promise<void> };
let dataFile: string;
let hugeFile: string;
let pairs: LoopbackPairs;

beforeAll(async () => {
  dir = await tempDir();
  dataFile = path.join(dir.dir, 'data.bin');
  hugeFile = path.join(dir.dir, 'huge.bin');
  await writeFile(dataFile, DATA);
  await writeFile(hugeFile, '');
  await truncate(hugeFile, HUGE_BYTES);
  pairs = await LoopbackPairs.listen();
});
afterAll(async () => {
  pairs?.close();
  await dir?.remove();
});

/** A connected pair on loopback: the server's socket (what the addon writes into) and the client's. */
const connectedPair = () => pairs.connect();

function readAll(socket: net.Socket): Promise<Buffer> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks))));
}

function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

async function failure(promise: Promise<unknown>): Promise<SendfileError> {
  const error: unknown = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(SendfileError);
  return error as SendfileError;
}

describe('sendfile-transfer', () => {
  it('reports why the addon is unavailable, or nothing when it loaded', () => {
    if (native) expect(sendfileUnavailableReason()).toBeNull();
    else expect(sendfileUnavailableReason()).toMatch(/sendfile/);
  });

  it('finds the descriptor of a connected TCP socket, and none for an unconnected one', async () => {
    const { serverSide, client } = await connectedPair();
    expect(socketDescriptor(serverSide)).toEqual(expect.any(Number));
    expect(socketDescriptor(new net.Socket())).toBeNull();
    client.destroy();
    serverSide.destroy();
  });
});

describe.runIf(native)('sendFileRange (native addon)', () => {
  it.each([
    [0, DATA.length],
    [12345, 1],
    [1_000_000, 2_000_000],
    [DATA.length - 10, 10],
  ])('sends the exact range from %i (%i bytes), leaving the socket open to Node', async (start, length) => {
    const { serverSide, client } = await connectedPair();
    const received = readAll(client);
    const fd = openSync(dataFile, 'r');
    try {
      await expect(sendFileRange(serverSide, fd, start, length, { idleTimeoutMs: 5000 })).resolves.toBe(length);
    } finally {
      closeSync(fd);
    }
    // Node's socket still works after the native transfer: its own bytes follow the file's.
    serverSide.end('END');
    const body = await received;
    expect(body.subarray(0, length).equals(DATA.subarray(start, start + length))).toBe(true);
    expect(body.subarray(length).toString()).toBe('END');
  });

  it('fails with ENODATA when the file ends before the range (it shrank), after sending what there was', async () => {
    const { serverSide, client } = await connectedPair();
    const received = readAll(client);
    const fd = openSync(dataFile, 'r');
    try {
      const error = await failure(sendFileRange(serverSide, fd, DATA.length - 100, 1000, { idleTimeoutMs: 5000 }));
      expect(error).toMatchObject({ code: 'ENODATA', bytesSent: 100 });
    } finally {
      closeSync(fd);
    }
    serverSide.end();
    expect((await received).length).toBe(100);
  });

  it('fails with ETIMEDOUT when the peer takes nothing for the idle timeout', async () => {
    const { serverSide, client } = await connectedPair();
    client.pause();
    const fd = openSync(hugeFile, 'r');
    try {
      const error = await failure(sendFileRange(serverSide, fd, 0, HUGE_BYTES, { idleTimeoutMs: 250 }));
      expect(error.code).toBe('ETIMEDOUT');
      expect(error.bytesSent).toBeGreaterThan(0);
      expect(error.bytesSent).toBeLessThan(HUGE_BYTES);
    } finally {
      closeSync(fd);
      client.destroy();
      serverSide.destroy();
    }
  });

  it('fails with EPIPE once the connection is shut down for writing, without a SIGPIPE taking the process down', async () => {
    const { serverSide, client } = await connectedPair();
    client.pause();
    const fd = openSync(hugeFile, 'r');
    try {
      const transfer = sendFileRange(serverSide, fd, 0, HUGE_BYTES, { idleTimeoutMs: 0 });
      // Node shuts its writing side down at once (its own queue is empty); the socket stays open for reading.
      serverSide.end();
      const error = await failure(transfer);
      expect(error.code).toBe('EPIPE');
      expect(error.message).toMatch(/^EPIPE: sendfile Broken pipe/);
    } finally {
      closeSync(fd);
      client.destroy();
      serverSide.destroy();
    }
  });

  it('fails when the peer resets the connection mid-transfer', async () => {
    const { serverSide, client } = await connectedPair();
    client.once('data', () => client.resetAndDestroy());
    const fd = openSync(hugeFile, 'r');
    try {
      const error = await failure(sendFileRange(serverSide, fd, 0, HUGE_BYTES, { idleTimeoutMs: 0 }));
      // The thread sees the reset itself, or Node reads it first and cancels the transfer when it closes its socket.
      expect(['EPIPE', 'ECONNRESET', 'ECANCELED']).toContain(error.code);
      expect(error.bytesSent).toBeGreaterThan(0);
    } finally {
      closeSync(fd);
      serverSide.destroy();
    }
  });

  it('stops with ECANCELED when Node closes its socket, and closes the duplicated descriptors', async () => {
    const { serverSide, client } = await connectedPair();
    client.pause();
    const fd = openSync(hugeFile, 'r');
    const baseline = existsSync('/proc/self/fd') ? openDescriptors() : 0;
    try {
      // No idle limit: only the cancel ends this transfer.
      const transfer = sendFileRange(serverSide, fd, 0, HUGE_BYTES, { idleTimeoutMs: 0 });
      if (existsSync('/proc/self/fd')) expect(openDescriptors()).toBe(baseline + 2);
      setTimeout(() => serverSide.destroy(), 50);
      expect((await failure(transfer)).code).toBe('ECANCELED');
      if (existsSync('/proc/self/fd')) await expect.poll(openDescriptors).toBeLessThanOrEqual(baseline - 1);
    } finally {
      closeSync(fd);
      client.destroy();
    }
  });

  it('rejects with the errno name when a descriptor is not open, and with EBADF for a destroyed socket', async () => {
    const { serverSide, client } = await connectedPair();
    // Far above any descriptor this process opens (a closed one's number could be reused at once).
    const notOpen = 1_000_000;
    const error = await failure(sendFileRange(serverSide, notOpen, 0, 10, { idleTimeoutMs: 1000 }));
    expect(error).toMatchObject({ code: 'EBADF', bytesSent: 0 });
    expect(error.message).toMatch(/^EBADF: sendfile Bad file descriptor/);
    serverSide.destroy();
    client.destroy();
    expect((await failure(sendFileRange(serverSide, 0, 0, 10, { idleTimeoutMs: 1000 }))).code).toBe('EBADF');
  });

  it.runIf(existsSync('/proc/self/task'))('stops a transfer whose worker thread is terminated, freeing its thread and descriptors', async () => {
    // The worker connects to this test's server and starts a transfer into a peer that never reads; terminating
    // the worker tears its env down mid-transfer (the addon's cleanup hook cancels and joins the thread).
    const worker = `
      const { parentPort, workerData } = require('node:worker_threads');
      const fs = require('node:fs');
      const net = require('node:net');
      const binding = require(workerData.addon);
      const socket = net.connect(workerData.port, '127.0.0.1', () => {
        const fd = fs.openSync(workerData.file, 'r');
        binding.start(socket._handle.fd, fd, 0, workerData.length, 0, () => parentPort.postMessage('ended'));
        parentPort.postMessage('started');
      });`;
    const threads = () => readdirSync('/proc/self/task').length;
    const baseline = { threads: threads(), descriptors: openDescriptors() };
    // A peer that never reads, not even the FIN: the connection can only look closed to it if the test
    // side closed it (a reading peer could see the worker's FIN after terminate() and close too, a race).
    let accepted: (socket: net.Socket) => void = () => undefined;
    const peer = new Promise<net.Socket>((resolve) => (accepted = resolve));
    const stalled = net.createServer({ pauseOnConnect: true }, (socket) => {
      stalled.close();
      accepted(socket);
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const thread = new Worker(worker, {
      eval: true,
      workerData: { addon: createRequire(import.meta.url).resolve('@bootwright/sendfile'), port: (stalled.address() as AddressInfo).port, file: hugeFile, length: HUGE_BYTES },
    });
    const messages: string[] = [];
    await new Promise<void>((resolve) =>
      thread.on('message', (message: string) => {
        messages.push(message);
        if (message === 'started') resolve();
      }),
    );
    const serverSide = await peer;
    serverSide.pause();
    await thread.terminate();
    // The connection stays open from this side: only the cancel could have ended the transfer thread.
    expect(serverSide.destroyed).toBe(false);
    expect(messages).toEqual(['started']);
    await expect.poll(threads).toBeLessThanOrEqual(baseline.threads);
    serverSide.destroy();
    await expect.poll(openDescriptors).toBeLessThanOrEqual(baseline.descriptors);
  });

  it('refuses arguments that are not non-negative integers and a callback', () => {
    const binding = createRequire(import.meta.url)('@bootwright/sendfile') as { start: (...args: unknown[]) => unknown };
    const callback = () => undefined;
    expect(() => binding.start(-1, 0, 0, 1, 0, callback)).toThrow(TypeError);
    expect(() => binding.start(1, 0, 0.5, 1, 0, callback)).toThrow(TypeError);
    expect(() => binding.start(1, 0, 0, '1', 0, callback)).toThrow(TypeError);
    expect(() => binding.start(1, 0, 0, 1, 0)).toThrow(TypeError);
    expect(() => binding.start(1, 0, 0, 1, 0, 'callback')).toThrow(TypeError);
  });
});
