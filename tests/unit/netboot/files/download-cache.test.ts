import http from 'node:http';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src-main/core/errors.js';
import { LogSink } from '../../../../src-main/core/logger.js';
import type { AppEvent } from '../../../../src-main/events/event-types.js';
import { EventLog } from '../../../../src-main/events/event-log.js';
import { CACHE_COLLECTION, type CacheRow } from '../../../../src-main/netboot/files/cache-index.js';
import { DownloadCache, type CacheSettings } from '../../../../src-main/netboot/files/download-cache.js';
import { Store } from '../../../../src-main/store/store.js';
import { NetbootMirror, sha256 } from '../../../helpers/netboot-mirror.js';
import { tempDir } from '../../../helpers/test-core.js';

const log = new LogSink({ logDir: null, level: 'error', console: false }).logger();

function bytes(size: number, seed: number): Buffer {
  return Buffer.from(Array.from({ length: size }, (_, i) => (i * seed + (i >> 7)) & 0xff));
}

let dir: { dir: string; remove: () => Promise<void> };
let store: Store;
let events: EventLog;
let emitted: AppEvent[];
let mirror: NetbootMirror;
let settings: CacheSettings;
let headersSeen: { url: string; headers: Record<string, string> }[];
let clock: number;
let cache: DownloadCache;

async function openCache(): Promise<DownloadCache> {
  const opened = new DownloadCache({
    dir: path.join(dir.dir, 'netboot-cache'),
    rows: store.collection<CacheRow>(CACHE_COLLECTION),
    settings: () => settings,
    events,
    log,
    now: () => new Date(clock),
    onRequest: (url, headers) => headersSeen.push({ url, headers }),
  });
  await opened.open();
  return opened;
}

beforeEach(async () => {
  dir = await tempDir('bw-netboot-cache-');
  store = await Store.open({ dataDir: dir.dir });
  events = new EventLog(store);
  emitted = [];
  events.subscribe((event) => emitted.push(event));
  mirror = await new NetbootMirror().start();
  settings = { maxBytes: 64 * 1024 * 1024, offline: false, stallTimeoutMs: 5_000, proxy: null };
  headersSeen = [];
  clock = Date.parse('2026-01-01T00:00:00Z');
  cache = await openCache();
});

afterEach(async () => {
  await cache.close();
  await mirror.close();
  await store.close();
  await dir.remove();
});

describe('DownloadCache downloads and verifies', () => {
  it('downloads a file once, verifies it, and serves it from the cache afterwards (a hit)', async () => {
    const content = bytes(200_000, 3);
    mirror.files.set('debian/linux', content);
    const first = await cache.get(mirror.url('debian/linux'), { expected: { algorithm: 'sha256', hex: sha256(content), source: 'test' } });
    expect((await readFile(first.path)).equals(content)).toBe(true);
    expect(first.sha256).toBe(sha256(content));
    const second = await cache.get(mirror.url('debian/linux'));
    expect(second.path).toBe(first.path);
    expect(mirror.requestsFor('debian/linux')).toHaveLength(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1, size_bytes: content.length, bytes_downloaded: content.length, downloads_active: 0 });
    // The file is named by the URL's SHA-256; nothing else is left behind.
    expect(await readdir(cache.dir)).toEqual([path.basename(first.path)]);
    expect(path.basename(first.path)).toBe(sha256(mirror.url('debian/linux')));
  });

  it('deletes a download whose checksum does not match and fails naming the URL and both digests', async () => {
    const content = bytes(50_000, 5);
    mirror.files.set('bad/initrd.gz', content);
    const wrong = 'a'.repeat(64);
    const url = mirror.url('bad/initrd.gz');
    const err = await cache.get(url, { expected: { algorithm: 'sha256', hex: wrong, source: 'SHA256SUMS' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    const message = (err as AppError).message;
    expect(message).toContain(url);
    expect(message).toContain(wrong);
    expect(message).toContain(sha256(content));
    expect(await readdir(cache.dir)).toEqual([]);
    expect(cache.lookup(url)).toBeUndefined();
    expect(cache.stats().entries).toBe(0);
  });

  it('verifies against a sha512 digest too', async () => {
    const content = bytes(10_000, 7);
    mirror.files.set('x/file', content);
    const { createHash } = await import('node:crypto');
    const hex = createHash('sha512').update(content).digest('hex');
    const got = await cache.get(mirror.url('x/file'), { expected: { algorithm: 'sha512', hex, source: 'SHA512SUMS' } });
    expect(got.sha256).toBe(sha256(content));
  });

  it('resumes a download cut mid-body with Range and If-Range, and the result verifies', async () => {
    const content = bytes(400_000, 11);
    mirror.files.set('cut/initrd', content);
    mirror.behaviour.set('cut/initrd', { cutAfter: 150_000 });
    const got = await cache.get(mirror.url('cut/initrd'), { expected: { algorithm: 'sha256', hex: sha256(content), source: 'test' } });
    expect((await readFile(got.path)).equals(content)).toBe(true);
    const requests = mirror.requestsFor('cut/initrd');
    expect(requests).toHaveLength(2);
    expect(requests[0]?.headers.range).toBeUndefined();
    expect(requests[1]?.headers.range).toMatch(/^bytes=\d+-$/);
    const resumedAt = Number(/\d+/.exec(String(requests[1]?.headers.range))?.[0]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(requests[1]?.headers['if-range']).toMatch(/^"[0-9a-f]+"$/);
    // Only what was missing came the second time.
    expect(cache.stats().bytes_downloaded).toBe(content.length);
  });

  it('keeps a download cut on every attempt and resumes it on the next request', async () => {
    const content = bytes(300_000, 13);
    mirror.files.set('flaky/linux', content);
    // Each of the first call's four attempts gets 50 KB more, then the connection drops.
    mirror.behaviour.set('flaky/linux', { cutAfter: 50_000, cutTimes: 4 });
    const url = mirror.url('flaky/linux');
    const err = await cache.get(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('UPSTREAM_FAILED');
    expect(cache.lookup(url)).toBeUndefined();
    expect(mirror.requestsFor('flaky/linux')).toHaveLength(4);
    const got = await cache.get(url, { expected: { algorithm: 'sha256', hex: sha256(content), source: 'test' } });
    expect((await readFile(got.path)).equals(content)).toBe(true);
    // Each request after the first resumes past the one before. Not at exactly 50 KB steps: what
    // arrived after the last chunk the writer took is dropped with the broken connection, and on a
    // loaded machine that can be part of a cut's 50 KB.
    const starts = mirror.requestsFor('flaky/linux').map((request) => /^bytes=(\d+)-$/.exec(String(request.headers.range ?? ''))?.[1]);
    expect(starts[0]).toBeUndefined();
    const resumed = starts.slice(1).map(Number);
    expect(resumed).toHaveLength(4);
    for (const [i, start] of resumed.entries()) {
      expect(start).toBeGreaterThan(i === 0 ? 0 : resumed[i - 1]!);
      expect(start).toBeLessThanOrEqual(50_000 * (i + 1));
    }
  });

  it('restarts cleanly from byte 0 when the server ignores Range', async () => {
    const content = bytes(300_000, 17);
    mirror.files.set('norange/linux', content);
    mirror.behaviour.set('norange/linux', { cutAfter: 100_000, noRange: true });
    const got = await cache.get(mirror.url('norange/linux'), { expected: { algorithm: 'sha256', hex: sha256(content), source: 'test' } });
    expect((await readFile(got.path)).equals(content)).toBe(true);
    const requests = mirror.requestsFor('norange/linux');
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers.range).toBeDefined();
    // The second answer was a 200 with everything: the file is exactly the content, not prefix + content.
    expect(got.size).toBe(content.length);
  });

  it('shares one download between concurrent requests for a URL', async () => {
    const content = bytes(100_000, 19);
    mirror.files.set('shared/initrd', content);
    let open: () => void = () => undefined;
    mirror.behaviour.set('shared/initrd', { gate: new Promise<void>((resolve) => (open = resolve)) });
    const waiting = Array.from({ length: 5 }, () => cache.get(mirror.url('shared/initrd')));
    await waitFor(() => mirror.requestsFor('shared/initrd').length >= 1);
    expect(cache.stats().downloads_active).toBe(1);
    open();
    const results = await Promise.all(waiting);
    expect(new Set(results.map((r) => r.path)).size).toBe(1);
    expect(mirror.requestsFor('shared/initrd')).toHaveLength(1);
    expect(cache.stats()).toMatchObject({ misses: 5, hits: 0, downloads_active: 0 });
  });

  it('fails at once when offline, naming the file and what to do, without any request', async () => {
    settings = { ...settings, offline: true };
    mirror.files.set('off/linux', bytes(10, 1));
    const url = mirror.url('off/linux');
    const err = await cache.get(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_STATE');
    expect((err as AppError).message).toContain(url);
    expect((err as AppError).message).toMatch(/offline/);
    expect(mirror.requests).toHaveLength(0);
    expect(cache.stats()).toMatchObject({ misses: 1, offline: true });
  });

  it('fails a stalled download after the stall timeout', async () => {
    settings = { ...settings, stallTimeoutMs: 300 };
    mirror.files.set('stall/linux', bytes(100_000, 23));
    mirror.behaviour.set('stall/linux', { stallAfter: 1000 });
    const err = await cache.get(mirror.url('stall/linux')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toMatch(/nothing received|broke|closed/);
    expect(cache.lookup(mirror.url('stall/linux'))).toBeUndefined();
  });

  it('refuses a redirect to file:// and caps redirects', async () => {
    mirror.behaviour.set('evil', { redirect: 'file:///etc/passwd' });
    const err = await cache.get(mirror.url('evil')).catch((e: unknown) => e);
    expect((err as AppError).message).toContain('file:///etc/passwd');
    expect((err as AppError).message).toMatch(/only http and https/);
    for (let i = 0; i < 7; i++) mirror.behaviour.set(`loop${i}`, { redirect: mirror.url(`loop${i + 1}`) });
    const loop = await cache.get(mirror.url('loop0')).catch((e: unknown) => e);
    expect((loop as AppError).message).toMatch(/more than 5 redirects/);
    expect(mirror.requests.filter((r) => r.path.startsWith('/loop'))).toHaveLength(6);
  });

  it('follows an http redirect to the file', async () => {
    const content = bytes(1000, 29);
    mirror.files.set('real/linux', content);
    mirror.behaviour.set('moved/linux', { redirect: '/real/linux' });
    const got = await cache.get(mirror.url('moved/linux'));
    expect((await readFile(got.path)).equals(content)).toBe(true);
  });

  it('rejects a Content-Length beyond the cache limit before writing it', async () => {
    settings = { ...settings, maxBytes: 100_000 };
    mirror.files.set('big/iso', bytes(150_000, 31));
    const err = await cache.get(mirror.url('big/iso')).catch((e: unknown) => e);
    expect((err as AppError).message).toMatch(/150000 bytes, more than the cache size limit/);
    expect(await readdir(cache.dir)).toEqual([]);
  });
});

describe('DownloadCache eviction and stats', () => {
  async function fill(name: string, size: number): Promise<string> {
    mirror.files.set(name, bytes(size, name.length));
    const url = mirror.url(name);
    await cache.get(url);
    clock += 1000;
    return url;
  }

  it('evicts the least recently used files beyond the size limit, with an event each', async () => {
    settings = { ...settings, maxBytes: 250_000 };
    const a = await fill('a', 100_000);
    const b = await fill('b', 100_000);
    await cache.get(a); // a is now more recent than b
    clock += 1000;
    const c = await fill('c', 100_000);
    expect(cache.lookup(b)).toBeUndefined();
    expect(cache.lookup(a)).toBeDefined();
    expect(cache.lookup(c)).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 2, size_bytes: 200_000, evictions: 1 });
    const evicted = emitted.filter((event) => event.kind === 'netboot.cache.evicted');
    expect(evicted.map((event) => (event.detail as { url: string }).url)).toEqual([b]);
    expect(existsSync(cache.filePath(b))).toBe(false);
  });

  it('never evicts a file being served; evicts it once released, when the limit shrinks', async () => {
    const a = await fill('a', 100_000);
    const b = await fill('b', 100_000);
    const held = await cache.get(a, { lease: true });
    settings = { ...settings, maxBytes: 150_000 };
    await cache.enforceLimit();
    expect(cache.lookup(a)).toBeDefined();
    expect(cache.lookup(b)).toBeUndefined();
    settings = { ...settings, maxBytes: 50_000 };
    await cache.enforceLimit();
    expect(cache.lookup(a)).toBeDefined();
    held.release?.(100_000);
    await cache.enforceLimit();
    expect(cache.lookup(a)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ bytes_served: 100_000, evictions: 2, entries: 0, size_bytes: 0 });
  });

  it('clear() empties the cache except files in use', async () => {
    const a = await fill('a', 1000);
    const b = await fill('b', 1000);
    const held = await cache.get(b, { lease: true });
    await cache.clear();
    expect(cache.lookup(a)).toBeUndefined();
    expect(cache.lookup(b)).toBeDefined();
    held.release?.(0);
  });

  it('keeps its index across a restart and drops rows whose file vanished, and orphan files', async () => {
    const a = await fill('a', 1000);
    const b = await fill('b', 1000);
    await cache.close();
    await writeFile(path.join(cache.dir, 'f'.repeat(64)), 'orphan');
    const { rm } = await import('node:fs/promises');
    await rm(cache.filePath(b));
    cache = await openCache();
    expect(cache.lookup(a)).toMatchObject({ size: 1000 });
    expect(cache.lookup(b)).toBeUndefined();
    expect(existsSync(path.join(cache.dir, 'f'.repeat(64)))).toBe(false);
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 0, misses: 0 });
  });

  it('downloads through an HTTP proxy with absolute-URI requests', async () => {
    const content = bytes(5000, 37);
    mirror.files.set('proxied/linux', content);
    const seen: string[] = [];
    const proxy = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const target = new URL(req.url ?? '');
      const upstream = http.request({ host: target.hostname, port: target.port, path: target.pathname, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const address = proxy.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      settings = { ...settings, proxy: `http://127.0.0.1:${port}` };
      const got = await cache.get(mirror.url('proxied/linux'));
      expect((await readFile(got.path)).equals(content)).toBe(true);
      expect(seen).toEqual([mirror.url('proxied/linux')]);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('downloads again a copy older than maxAgeMs while online, then trusts the new copy', async () => {
    mirror.files.set('SHA256SUMS', Buffer.from('old'));
    const url = mirror.url('SHA256SUMS');
    await cache.get(url, { maxAgeMs: 60_000 });
    clock += 30_000;
    await cache.get(url, { maxAgeMs: 60_000 });
    expect(mirror.requestsFor('SHA256SUMS')).toHaveLength(1);
    mirror.files.set('SHA256SUMS', Buffer.from('new'));
    clock += 60_000;
    const fresh = await cache.get(url, { maxAgeMs: 60_000 });
    expect(await readFile(fresh.path, 'utf8')).toBe('new');
    clock += 1000;
    await cache.get(url, { maxAgeMs: 60_000 });
    expect(mirror.requestsFor('SHA256SUMS')).toHaveLength(2);
    // Offline, an old copy is better than none.
    settings = { ...settings, offline: true };
    clock += 3_600_000;
    expect(await readFile((await cache.get(url, { maxAgeMs: 60_000 })).path, 'utf8')).toBe('new');
  });

  it('reports a proxy that refuses the CONNECT tunnel of an https download', async () => {
    const seen: string[] = [];
    const proxy = http.createServer();
    proxy.on('connect', (req, socket) => {
      seen.push(`${req.method} ${req.url}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const address = proxy.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      settings = { ...settings, proxy: `http://127.0.0.1:${port}` };
      const err = await cache.get('https://mirror.invalid/debian/linux').catch((e: unknown) => e);
      expect((err as AppError).message).toMatch(/refused CONNECT mirror\.invalid:443: 403/);
      expect(seen).toEqual(['CONNECT mirror.invalid:443']);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('reports progress with bytes done and the total', async () => {
    const content = bytes(300_000, 41);
    mirror.files.set('progress/initrd', content);
    const reports: [number, number | null][] = [];
    await cache.get(mirror.url('progress/initrd'), { onProgress: (done, total) => reports.push([done, total]) });
    expect(reports.at(-1)).toEqual([content.length, content.length]);
    expect(reports.length).toBeGreaterThan(1);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!condition()) throw new Error('condition not met in time');
}
