import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpBootPlugin, type HttpBootOptions } from '../../../src-main/boot-files/http-boot-plugin.js';
import { sendfileAvailable, sendfileUnavailableReason } from '../../../src-main/core/sendfile-transfer.js';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { toolPresent } from '../../helpers/tools.js';

const run = promisify(execFile);
const hasCurl = toolPresent('curl', 'the curl tests');
const hasOpenssl = toolPresent('openssl', 'the TLS test');
const native = sendfileAvailable();
/** How a plain-TCP download goes out on this machine: sendfile where the addon loaded. */
const NATIVE_METHOD = native ? 'sendfile' : 'stream';
const hasProcFd = existsSync('/proc/self/fd');

const BIG = randomBytes(8 * 1024 * 1024 + 13);
const BIG_SHA = sha256(BIG);
/** Sparse and far larger than any socket buffers: a client that stops reading stalls the transfer. */
const HUGE_BYTES = 1024 * 1024 * 1024;

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

let t: TestCore;
let base: string;
beforeAll(async () => {
  t = await createTestCore({ nicReader: () => [] });
  const root = t.core.area('boot-files').files.root;
  await mkdir(path.join(root, 'images'), { recursive: true });
  await writeFile(path.join(root, 'images', 'initrd.img'), BIG);
  await writeFile(path.join(root, 'hello.ipxe'), '#!ipxe\necho hello\n');
  // One file per test that checks events, so a late event of one test never counts in another.
  for (const name of ['full', 'range', 'concurrent', 'cap', 'off']) await link(path.join(root, 'images', 'initrd.img'), path.join(root, 'images', `${name}.img`));
  for (const name of ['abort', 'stall', 'cap-stall', 'off-abort']) {
    await writeFile(path.join(root, 'images', `${name}.img`), '');
    await truncate(path.join(root, 'images', `${name}.img`), HUGE_BYTES);
  }
  await t.core.start();
  base = `${t.core.url()}/boot`;
});
afterAll(async () => t?.close());

/** The transfer events of one file under images/. */
function transferEvents(name: string): AppEvent[] {
  return t.core.kernel.events.all().filter((event) => event.kind.startsWith('http.transfer.') && (event.detail as { file?: string }).file === `images/${name}`);
}

/** bootwright_http_boot_bytes_sent_total now, as a number. */
async function bytesSent(): Promise<number> {
  return (await t.core.kernel.metrics.registry.getSingleMetric('bootwright_http_boot_bytes_sent_total')!.get()).values[0]?.value ?? 0;
}

/** Waits for at least `count` transfer events of one file and returns them all. */
async function eventsFor(name: string, count: number): Promise<AppEvent[]> {
  await waitFor(() => transferEvents(name).length >= count);
  return transferEvents(name);
}

function methods(events: AppEvent[]): string[][] {
  return events.map((event) => [event.kind, (event.detail as { method: string }).method]);
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Download {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  reusedSocket: boolean;
}

function download(url: string, options: { headers?: http.OutgoingHttpHeaders; agent?: http.Agent | false; method?: string } = {}): Promise<Download> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { agent: options.agent ?? false, headers: options.headers, method: options.method ?? 'GET', rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), reusedSocket: req.reusedSocket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a download and stops reading after the first bytes: resolves with the response and a way to abort it. */
function startDownload(url: string): Promise<{ res: http.IncomingMessage; abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.once('data', () => {
        res.pause();
        resolve({ res, abort: () => req.destroy() });
      });
    });
    req.on('error', () => undefined);
    req.setTimeout(10_000, () => reject(new Error('no data')));
  });
}

async function openDescriptors(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
}

/** A server with the boot plugin alone, on the test core's boot root, with the sendfile settings a test needs. */
async function pluginServer(options: HttpBootOptions): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(httpBootPlugin({ bootFiles: t.core.area('boot-files').files, metrics: t.core.kernel.metrics, events: t.core.kernel.events, log: t.core.kernel.log }, options));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/boot` };
}

/**
 * Sends a GET over a raw socket and stops reading once the response began (so its transfer is under way):
 * the rest piles up in the socket buffers.
 */
function stalledClient(url: string): Promise<net.Socket> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname, () => {
      socket.write(`GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\n\r\n`);
      socket.once('data', () => {
        socket.pause();
        resolve(socket);
      });
    });
    socket.on('error', reject);
  });
}

describe('HTTP boot over sendfile(2)', () => {
  it('has the native addon loaded (required on CI)', (context) => {
    if (!native && process.env.CI !== 'true') {
      console.warn(`sendfile addon not available, the other tests exercise the streaming path: ${sendfileUnavailableReason()}`);
      context.skip();
    }
    expect(sendfileUnavailableReason()).toBeNull();
    expect(native).toBe(true);
  });

  it.runIf(hasCurl)('sends a multi-MB file whole to curl (SHA-256) and reports the method', async () => {
    const { stdout } = await run('curl', ['-sS', '-D', '-', '-o', '-', `${base}/images/full.img`], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    const split = stdout.indexOf('\r\n\r\n');
    const head = stdout.subarray(0, split).toString('latin1');
    const body = stdout.subarray(split + 4);
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(new RegExp(`content-length: ${BIG.length}\r\n`, 'i'));
    expect(head).toMatch(/content-type: application\/octet-stream/i);
    expect(head).toMatch(/etag: "[0-9a-f]+-[0-9a-f]+"/i);
    expect(head).toMatch(/x-request-id: /i);
    expect(sha256(body)).toBe(BIG_SHA);
    const events = await eventsFor('full.img', 1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'http.transfer.completed', ip: '127.0.0.1', detail: { bytes: BIG.length, range: false, method: NATIVE_METHOD } });
  });

  it.runIf(hasCurl)('answers a Range request with 206 and the exact bytes', async () => {
    const { stdout } = await run('curl', ['-sS', '-r', '1000-2500999', '-w', '\n%{http_code} %{size_download}', '-o', '-', `${base}/images/range.img`], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    const tail = stdout.lastIndexOf('\n');
    expect(stdout.subarray(tail + 1).toString()).toBe('206 2500000');
    expect(stdout.subarray(0, tail).equals(BIG.subarray(1000, 2501000))).toBe(true);
    expect((await eventsFor('range.img', 1))[0]).toMatchObject({ kind: 'http.transfer.completed', detail: { bytes: 2500000, range: true, method: NATIVE_METHOD } });

    const res = await download(`${base}/images/range.img`, { headers: { range: `bytes=-77` } });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${BIG.length - 77}-${BIG.length - 1}/${BIG.length}`);
    expect(res.body.equals(BIG.subarray(BIG.length - 77))).toBe(true);
    expect((await eventsFor('range.img', 2))[1]).toMatchObject({ kind: 'http.transfer.completed', detail: { bytes: 77, range: true, method: NATIVE_METHOD } });
  });

  it.runIf(hasCurl)('sends whole files to an HTTP/1.0 client, which closes the connection after each', async () => {
    const dir = await tempDir();
    try {
      const file = path.join(dir.dir, 'body');
      const { stdout } = await run('curl', ['-sS', '--http1.0', '-w', '%{http_code} %{size_download}', '-o', file, `${base}/images/initrd.img`]);
      expect(stdout).toBe(`200 ${BIG.length}`);
      expect(sha256(await readFile(file))).toBe(BIG_SHA);
    } finally {
      await dir.remove();
    }
  });

  it.runIf(hasCurl)('answers HEAD with the headers of GET and no body', async () => {
    const { stdout } = await run('curl', ['-sS', '-I', `${base}/images/initrd.img`]);
    expect(stdout).toMatch(/^HTTP\/1\.1 200 /);
    expect(stdout).toMatch(new RegExp(`content-length: ${BIG.length}\r\n`, 'i'));
    const res = await download(`${base}/images/initrd.img`, { method: 'HEAD' });
    expect(res.headers['content-length']).toBe(String(BIG.length));
    expect(res.body.length).toBe(0);
  });

  it.runIf(hasCurl)('keeps the connection alive: curl fetches two files over one connection', async () => {
    const dir = await tempDir();
    try {
      const first = path.join(dir.dir, 'first');
      const second = path.join(dir.dir, 'second');
      const { stdout } = await run('curl', ['-sS', '-w', '%{http_code} %{num_connects}\n', '-o', first, '-o', second, `${base}/images/initrd.img`, `${base}/hello.ipxe`]);
      // One connection opened for the first transfer, none for the second: it reused the first.
      expect(stdout).toBe('200 1\n200 0\n');
      expect(sha256(await readFile(first))).toBe(BIG_SHA);
      expect(await readFile(second, 'utf8')).toBe('#!ipxe\necho hello\n');
    } finally {
      await dir.remove();
    }
  });

  it('keeps the connection alive: a Node keep-alive agent reuses its socket after a full download', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await download(`${base}/images/initrd.img`, { agent });
      const second = await download(`${base}/images/initrd.img`, { agent, headers: { range: 'bytes=5-9' } });
      const third = await download(`${base}/hello.ipxe`, { agent });
      expect(sha256(first.body)).toBe(BIG_SHA);
      expect(second).toMatchObject({ status: 206, reusedSocket: true });
      expect(second.body.equals(BIG.subarray(5, 10))).toBe(true);
      expect(third).toMatchObject({ status: 200, reusedSocket: true });
      expect(third.body.toString()).toBe('#!ipxe\necho hello\n');
    } finally {
      agent.destroy();
    }
  });

  it('sends 30 concurrent downloads intact', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => download(`${base}/images/concurrent.img`)));
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(sha256(result.body)).toBe(BIG_SHA);
    }
    expect(methods(await eventsFor('concurrent.img', 30))).toEqual(Array.from({ length: 30 }, () => ['http.transfer.completed', NATIVE_METHOD]));
  });

  it('counts each response once in bootwright_http_boot_responses_total', async () => {
    // Read as numbers at once: prom-client hands out its live sample objects.
    const count = async (status: string) => {
      const metric = await t.core.kernel.metrics.registry.getSingleMetric('bootwright_http_boot_responses_total')!.get();
      return metric.values.find((value) => value.labels.status === status)?.value ?? 0;
    };
    const [ok, partial] = [await count('200'), await count('206')];
    await download(`${base}/images/initrd.img`);
    await download(`${base}/images/initrd.img`, { headers: { range: 'bytes=0-0' } });
    await download(`${base}/hello.ipxe`);
    await expect.poll(async () => (await count('200')) - ok).toBe(2);
    await expect.poll(async () => (await count('206')) - partial).toBe(1);
  });

  it('adds the body bytes of whole transfers to bootwright_http_boot_bytes_sent_total (the dashboard\'s HTTP throughput)', async () => {
    const before = await bytesSent();
    const whole = await download(`${base}/images/initrd.img`);
    const ranged = await download(`${base}/images/initrd.img`, { headers: { range: 'bytes=100-199' } });
    expect(ranged.body.length).toBe(100);
    await expect.poll(async () => (await bytesSent()) - before).toBe(whole.body.length + 100);
  });

  it.runIf(hasProcFd)('reports a client that aborts mid-transfer as failed and closes every descriptor', async () => {
    // One warm-up download, so lazily opened descriptors (the addon, the event log) are in the baseline.
    const helloDone = () => t.core.kernel.events.all().filter((event) => event.kind === 'http.transfer.completed' && (event.detail as { file?: string }).file === 'hello.ipxe').length;
    const warmUps = helloDone();
    await download(`${base}/hello.ipxe`);
    // Its bytes are counted when the transfer settles, which may be after the client has them.
    await waitFor(() => helloDone() > warmUps);
    const baseline = await openDescriptors();
    const bytesBefore = await bytesSent();
    for (let i = 0; i < 5; i++) {
      const { abort } = await startDownload(`${base}/images/abort.img`);
      abort();
    }
    const events = await eventsFor('abort.img', 5);
    expect(events).toHaveLength(5);
    for (const event of events) {
      expect(event).toMatchObject({ kind: 'http.transfer.failed', level: 'warn', detail: { bytes: HUGE_BYTES, method: NATIVE_METHOD } });
    }
    // An aborted transfer adds nothing to the delivered bytes.
    expect(await bytesSent()).toBe(bytesBefore);
    // File descriptors and the addon's duplicated sockets are all closed again (and no SIGPIPE took the process down).
    await expect.poll(openDescriptors, { timeout: 5000 }).toBeLessThanOrEqual(baseline);
    expect(sha256((await download(`${base}/images/initrd.img`)).body)).toBe(BIG_SHA);
  });

  it.runIf(native)('cuts a client that stops reading after the idle timeout', async () => {
    const server = await pluginServer({ sendfile: { idleTimeoutMs: 300 } });
    try {
      const socket = await stalledClient(`${server.base}/images/stall.img`);
      const [event] = await eventsFor('stall.img', 1);
      expect(event).toMatchObject({ kind: 'http.transfer.failed', detail: { method: 'sendfile' } });
      // The server closed the connection: reading now drains what was buffered and then ends, far short of the file.
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.resume();
      });
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThan(HUGE_BYTES);
    } finally {
      await server.app.close();
    }
  });

  it.runIf(native)('streams through Node beyond the cap of concurrent native transfers', async () => {
    const server = await pluginServer({ sendfile: { maxConcurrent: 2 } });
    const stalled: net.Socket[] = [];
    try {
      // Two clients that never read hold both native slots.
      for (let i = 0; i < 2; i++) stalled.push(await stalledClient(`${server.base}/images/cap-stall.img`));
      const res = await download(`${server.base}/images/cap.img`);
      expect(sha256(res.body)).toBe(BIG_SHA);
      expect(methods(await eventsFor('cap.img', 1))).toEqual([['http.transfer.completed', 'stream']]);
      for (const socket of stalled) socket.destroy();
      expect(methods(await eventsFor('cap-stall.img', 2))).toEqual([
        ['http.transfer.failed', 'sendfile'],
        ['http.transfer.failed', 'sendfile'],
      ]);
      // Slots free again: the next download goes native.
      await download(`${server.base}/images/cap.img`);
      expect(methods(await eventsFor('cap.img', 2))[1]).toEqual(['http.transfer.completed', 'sendfile']);
    } finally {
      for (const socket of stalled) socket.destroy();
      await server.app.close();
    }
  });

  it('streams when sendfile is turned off, with ranges, keep-alive and abort reporting', async () => {
    const server = await pluginServer({ sendfile: { enabled: false } });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const whole = await download(`${server.base}/images/off.img`, { agent });
      const part = await download(`${server.base}/images/off.img`, { agent, headers: { range: 'bytes=100-199' } });
      expect(sha256(whole.body)).toBe(BIG_SHA);
      expect(part).toMatchObject({ status: 206, reusedSocket: true });
      expect(part.body.equals(BIG.subarray(100, 200))).toBe(true);
      expect(methods(await eventsFor('off.img', 2))).toEqual([
        ['http.transfer.completed', 'stream'],
        ['http.transfer.completed', 'stream'],
      ]);
      const { abort } = await startDownload(`${server.base}/images/off-abort.img`);
      abort();
      expect(methods(await eventsFor('off-abort.img', 1))).toEqual([['http.transfer.failed', 'stream']]);
    } finally {
      agent.destroy();
      await server.app.close();
    }
  });
});

describe.runIf(hasOpenssl)('HTTP boot over TLS', () => {
  let tls: TestCore;
  let tlsBase: string;
  let certs: { dir: string; remove: () => Promise<void> };
  beforeAll(async () => {
    certs = await tempDir();
    const key = path.join(certs.dir, 'key.pem');
    const cert = path.join(certs.dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', key, '-out', cert], {
      stdio: 'ignore',
    });
    tls = await createTestCore({ nicReader: () => [], config: { tlsCert: cert, tlsKey: key } });
    await mkdir(path.join(tls.core.area('boot-files').files.root, 'images'), { recursive: true });
    await writeFile(path.join(tls.core.area('boot-files').files.root, 'images', 'initrd.img'), BIG);
    await tls.core.start();
    tlsBase = `${tls.core.url()}/boot`;
  });
  afterAll(async () => {
    await tls?.close();
    await certs?.remove();
  });

  it('falls back to streaming (sendfile would bypass the encryption) and still sends whole files and ranges', async () => {
    expect(tlsBase).toMatch(/^https:/);
    const events = () => tls.core.kernel.events.all().filter((event) => event.kind.startsWith('http.transfer.'));
    const whole = await download(`${tlsBase}/images/initrd.img`);
    expect(whole.status).toBe(200);
    expect(sha256(whole.body)).toBe(BIG_SHA);
    const part = await download(`${tlsBase}/images/initrd.img`, { headers: { range: 'bytes=4096-8191' } });
    expect(part.status).toBe(206);
    expect(part.body.equals(BIG.subarray(4096, 8192))).toBe(true);
    await waitFor(() => events().length >= 2);
    expect(methods(events())).toEqual([
      ['http.transfer.completed', 'stream'],
      ['http.transfer.completed', 'stream'],
    ]);
  });
});
