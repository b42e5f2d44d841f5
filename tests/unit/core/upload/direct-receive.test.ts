import { createHash, randomBytes } from 'node:crypto';
import { constants, readdirSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DirectReceiveError,
  directBodyOf,
  directReceiveAvailable,
  directReceiveUnavailableReason,
  receiveIntoFile,
} from '../../../../src-main/core/upload/direct-receive.js';
import { receiveFile } from '../../../../src-main/core/upload/receive-file.js';
import { LoopbackPairs } from '../../../helpers/loopback-pairs.js';
import { tempDir } from '../../../helpers/test-core.js';

const native = directReceiveAvailable();
if (!native) console.log(`direct-receive tests skipped: ${directReceiveUnavailableReason() ?? 'unknown reason'}`);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let dir: { dir: string; remove: () => Promise<void> };
let pairs: LoopbackPairs;

beforeAll(async () => {
  dir = await tempDir();
  // Paused on connect: Node never reads these sockets, the addon is their only reader (as after takeOverBody).
  pairs = await LoopbackPairs.listen({ pauseOnConnect: true });
});
afterAll(async () => {
  pairs?.close();
  await dir?.remove();
});

const connectedPair = () => pairs.connect();

function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

/** Whether the test folder's file system takes O_DIRECT (ext4 does; so does tmpfs since Linux 6.6). */
async function directWorksIn(folder: string): Promise<boolean> {
  const probe = path.join(folder, 'o-direct-probe');
  try {
    await (await open(probe, constants.O_CREAT | constants.O_WRONLY | constants.O_DIRECT)).close();
    return true;
  } catch {
    return false;
  }
}

/** Writes `bytes` to the socket in pieces of `piece` bytes with a pause between them (the thread then waits for data). */
async function trickle(socket: net.Socket, bytes: Buffer, piece: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += piece) {
    socket.write(bytes.subarray(at, at + piece));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe.runIf(native)('receiveIntoFile (1 MiB blocks, hashed in memory, written with O_DIRECT or through the page cache)', () => {
  // Blocks start at multiples of 4096: offsets and lengths around that and around the 1 MiB block, both write paths.
  const MIB = 1024 * 1024;
  const shapes = [
    { prefix: 0, body: 1 },
    { prefix: 4095, body: MIB },
    { prefix: 4096, body: MIB + 1 },
    { prefix: 4097, body: 3 * MIB + 5 },
    { prefix: MIB - 1, body: 2 * MIB - 4096 },
  ];
  for (const pageCache of [false, true]) {
    it(`${pageCache ? 'through the page cache' : 'with O_DIRECT where the file system takes it'}: exact bytes and hash at unaligned offsets and lengths`, async () => {
      const expectDirect = !pageCache && (await directWorksIn(dir.dir));
      for (const [index, shape] of shapes.entries()) {
        const prefix = randomBytes(shape.prefix);
        const body = randomBytes(shape.body);
        const file = path.join(dir.dir, `shape-${pageCache ? 'cache' : 'direct'}-${index}.bin`);
        await writeFile(file, prefix);
        const handle = await open(file, 'r+');
        const { serverSide, client } = await connectedPair();
        try {
          const receiving = receiveIntoFile(serverSide, handle.fd, prefix.length, body.length, { hashPrefix: true, idleTimeoutMs: 10_000, pageCache });
          await trickle(client, body, 700_001);
          const result = await receiving;
          expect(result).toEqual({ received: body.length, sha256: sha256(Buffer.concat([prefix, body])), direct: expectDirect });
        } finally {
          await handle.close();
          client.destroy();
          serverSide.destroy();
        }
        expect((await readFile(file)).equals(Buffer.concat([prefix, body])), `shape ${JSON.stringify(shape)}`).toBe(true);
      }
    });

    it(`${pageCache ? 'through the page cache' : 'with O_DIRECT'}: a peer closing after several blocks leaves every received byte in the file, counted`, async () => {
      const prefix = randomBytes(1000);
      const sent = randomBytes(2 * MIB + 12_345);
      const file = path.join(dir.dir, `cut-${pageCache ? 'cache' : 'direct'}.bin`);
      await writeFile(file, prefix);
      const handle = await open(file, 'r+');
      const { serverSide, client } = await connectedPair();
      try {
        const receiving = receiveIntoFile(serverSide, handle.fd, prefix.length, 8 * MIB, { hashPrefix: true, idleTimeoutMs: 10_000, pageCache }).catch((e: unknown) => e);
        await trickle(client, sent, 500_000);
        client.end();
        const error = (await receiving) as DirectReceiveError;
        expect(error).toBeInstanceOf(DirectReceiveError);
        expect(error.code).toBe('ENODATA');
        expect(error.received).toBe(sent.length);
      } finally {
        await handle.close();
        serverSide.destroy();
      }
      expect((await readFile(file)).equals(Buffer.concat([prefix, sent]))).toBe(true);
    });
  }


  it('writes the body at the offset, byte for byte, and hashes the file from its start (a resumed prefix included)', async () => {
    const prefix = randomBytes(100_003);
    const body = randomBytes(5 * 1024 * 1024 + 7);
    const file = path.join(dir.dir, 'resumed.bin');
    await writeFile(file, prefix);
    const handle = await open(file, 'r+');
    const { serverSide, client } = await connectedPair();
    const progress: number[] = [];
    try {
      const receiving = receiveIntoFile(serverSide, handle.fd, prefix.length, body.length, { hashPrefix: true, idleTimeoutMs: 10_000, onProgress: (n) => progress.push(n), progressIntervalMs: 1 });
      // In pieces with pauses: the thread waits for readable data in between.
      await trickle(client, body, 1_000_000);
      const result = await receiving;
      expect(result.received).toBe(body.length);
      expect(result.sha256).toBe(sha256(Buffer.concat([prefix, body])));
    } finally {
      await handle.close();
      client.destroy();
      serverSide.destroy();
    }
    // equals(), not toEqual: vitest compares megabytes of Buffer element by element for seconds.
    expect((await readFile(file)).equals(Buffer.concat([prefix, body]))).toBe(true);
    expect(progress.every((n, i) => n >= 0 && n <= body.length && (i === 0 || n >= (progress[i - 1] ?? 0)))).toBe(true);
  });

  it('hashes only the received bytes without hashPrefix', async () => {
    const body = randomBytes(70_000);
    const file = path.join(dir.dir, 'plain.bin');
    await writeFile(file, 'ignored prefix');
    const handle = await open(file, 'r+');
    const { serverSide, client } = await connectedPair();
    try {
      client.end(body);
      const result = await receiveIntoFile(serverSide, handle.fd, 14, body.length, { hashPrefix: false, idleTimeoutMs: 10_000 });
      expect(result.sha256).toBe(sha256(body));
    } finally {
      await handle.close();
      serverSide.destroy();
    }
  });

  it('ends with ENODATA and the count written when the peer closes early, and leaks no descriptor', async () => {
    const before = openDescriptors();
    const file = path.join(dir.dir, 'short.bin');
    const handle = await open(file, 'w+');
    const { serverSide, client } = await connectedPair();
    try {
      client.end(randomBytes(12_345));
      const error = await receiveIntoFile(serverSide, handle.fd, 0, 50_000, { hashPrefix: true, idleTimeoutMs: 10_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DirectReceiveError);
      expect((error as DirectReceiveError).code).toBe('ENODATA');
      expect((error as DirectReceiveError).received).toBe(12_345);
    } finally {
      await handle.close();
      await Promise.all([client, serverSide].map((socket) => new Promise((resolve) => (socket.destroyed && socket.closed ? resolve(null) : socket.once('close', resolve).destroy()))));
    }
    expect((await readFile(file)).length).toBe(12_345);
    // At most as many: sockets of earlier tests may still have been closing when `before` was counted.
    expect(openDescriptors()).toBeLessThanOrEqual(before);
  });

  it('stops with ECANCELED when the signal aborts, and with ETIMEDOUT when nothing comes for the idle time', async () => {
    const file = path.join(dir.dir, 'stalled.bin');
    const handle = await open(file, 'w+');
    const first = await connectedPair();
    const second = await connectedPair();
    try {
      first.client.write(randomBytes(1000));
      const abort = new AbortController();
      const cancelled = receiveIntoFile(first.serverSide, handle.fd, 0, 1_000_000, { hashPrefix: false, idleTimeoutMs: 0, signal: abort.signal }).catch((e: unknown) => e);
      setTimeout(() => abort.abort(), 100);
      const error = (await cancelled) as DirectReceiveError;
      expect(error.code).toBe('ECANCELED');
      expect(error.received).toBe(1000);

      const started = Date.now();
      const stalled = (await receiveIntoFile(second.serverSide, handle.fd, 0, 10, { hashPrefix: false, idleTimeoutMs: 300 }).catch((e: unknown) => e)) as DirectReceiveError;
      expect(stalled.code).toBe('ETIMEDOUT');
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      await handle.close();
      for (const pair of [first, second]) {
        pair.client.destroy();
        pair.serverSide.destroy();
      }
    }
  });

  it('refuses a destroyed socket before starting a thread', async () => {
    const { serverSide, client } = await connectedPair();
    client.destroy();
    serverSide.destroy();
    const error = (await receiveIntoFile(serverSide, 0, 0, 1, { hashPrefix: false, idleTimeoutMs: 0 }).catch((e: unknown) => e)) as DirectReceiveError;
    expect(error.code).toBe('EBADF');
  });
});

describe.runIf(native)('receiveFile with a direct body from an HTTP server', () => {
  /** One request through a real http.Server whose handler receives the raw body natively; the raw client writes `request` in one go. */
  async function upload(request: Buffer, name: string): Promise<{ status: number; response: string; file: string }> {
    const target = path.join(dir.dir, name);
    const httpServer = http.createServer((req, res) => {
      const direct = directBodyOf(req, res);
      if (!direct) {
        res.statusCode = 500;
        res.end('no direct body');
        return;
      }
      receiveFile({ source: req, direct, finalPath: target, partialPath: `${target}.part`, overwrite: true, maxBytes: 1 << 30 }).then(
        (received) => res.end(JSON.stringify(received)),
        (error: unknown) => {
          res.statusCode = 400;
          res.end(String(error));
        },
      );
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    try {
      const client = net.connect((httpServer.address() as AddressInfo).port, '127.0.0.1');
      client.end(request);
      const answer = await new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        client.on('data', (chunk: Buffer) => chunks.push(chunk));
        client.on('error', reject);
        client.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      });
      const status = Number(answer.split(' ')[1]);
      return { status, response: answer, file: target };
    } finally {
      httpServer.closeAllConnections();
      httpServer.close();
    }
  }

  it('takes the bytes Node read with the headers, then the rest from the socket: the file and its hash are exact, the connection closes', async () => {
    // Headers and the first bytes of the body in one segment, no Expect: Node's parser has part of the body already.
    const body = randomBytes(3 * 1024 * 1024 + 11);
    const head = Buffer.from(`POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1');
    const { status, response, file } = await upload(Buffer.concat([head, body]), 'whole.bin');
    expect(status).toBe(200);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { sha256: string; size: number }).toMatchObject({ sha256: sha256(body), size: body.length });
    expect((await readFile(file)).equals(body)).toBe(true);
  });

  it('a body shorter than its Content-Length fails and publishes nothing', async () => {
    const body = randomBytes(200_000);
    const head = Buffer.from(`POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length + 5000}\r\n\r\n`, 'latin1');
    const { file } = await upload(Buffer.concat([head, body]), 'short-body.bin');
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readFile(`${file}.part`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
