import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import type { CacheStats, EntryFilesCheck, PrefetchJob } from '../../../src-main/netboot/netboot-contract.js';
import { bearerHeaders } from '../../helpers/auth.js';
import { NetbootMirror } from '../../helpers/netboot-mirror.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { INITRD, KERNEL, netbootFixture } from './files-fixture.js';

/* The files routes over the real API: check-files, cache-stats, prefetch jobs, DELETE /netboot/cache. */

let mirror: NetbootMirror;
let t: TestCore;
let operator: { authorization: string };
let viewer: { authorization: string };
const events: AppEvent[] = [];

beforeAll(async () => {
  mirror = await new NetbootMirror().start();
  t = await createTestCore({ netboot: { catalogReader: netbootFixture(mirror) } });
  operator = await bearerHeaders(t.core, 'operator');
  viewer = await bearerHeaders(t.core, 'viewer');
  t.core.kernel.events.subscribe((event) => events.push(event));
});
afterAll(async () => {
  await t?.close();
  await mirror?.close();
});

async function api<T>(method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() as { success: boolean; data: T; code?: string; error?: string } };
}

describe('GET /netboot/check-files', () => {
  it('checks every entry, version and architecture of the catalog without filters', async () => {
    const res = await api<EntryFilesCheck[]>('GET', '/netboot/check-files', viewer);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c) => `${c.distro}/${c.version}/${c.arch}:${c.availability}`)).toEqual([
      'debian/12/x86_64:remote',
      'fedora/40/x86_64:remote',
      'fedora/40/arm64:remote',
      'memtest/7/x86_64:missing',
    ]);
    expect(res.body.data[3]?.problem).toMatch(/has no mirror: put memtest.efi at .*netboot\/memtest\/7\/x86_64\//);
  });

  it('filters by distro, version and arch; an unknown distro or version is a 404', async () => {
    const res = await api<EntryFilesCheck[]>('GET', '/netboot/check-files?distro=fedora&arch=arm64', viewer);
    expect(res.body.data.map((c) => c.arch)).toEqual(['arm64']);
    expect((await api('GET', '/netboot/check-files?distro=nosuch', viewer)).status).toBe(404);
    expect((await api('GET', '/netboot/check-files?distro=debian&version=99', viewer)).status).toBe(404);
    expect((await api('GET', '/netboot/check-files?colour=red', viewer)).status).toBe(400);
  });

  it('says local for a file under the boot root', async () => {
    const root = t.core.area('boot-files').files.root;
    await mkdir(path.join(root, 'netboot/memtest/7/x86_64'), { recursive: true });
    await writeFile(path.join(root, 'netboot/memtest/7/x86_64/memtest.efi'), 'MZ');
    const res = await api<EntryFilesCheck[]>('GET', '/netboot/check-files?distro=memtest', viewer);
    expect(res.body.data[0]).toMatchObject({ availability: 'local', problem: null });
  });
});

describe('prefetch and the cache', () => {
  it('refuses a prefetch by a viewer', async () => {
    expect((await api('POST', '/netboot/prefetch', viewer, { distro: 'debian', version: '12', arch: 'x86_64' })).status).toBe(403);
  });

  it('prefetches in the background (202 + job), with progress and done events; check-files then says cached', async () => {
    const started = await api<PrefetchJob>('POST', '/netboot/prefetch', operator, { distro: 'debian', version: '12', arch: 'x86_64' });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ distro: 'debian', version: '12', arch: 'x86_64', state: 'running' });
    let job = started.body.data;
    for (let i = 0; i < 250 && job.state === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = (await api<PrefetchJob>('GET', `/netboot/prefetch/${started.body.data.id}`, viewer)).body.data;
    }
    expect(job).toMatchObject({ state: 'done', bytes_done: KERNEL.length + INITRD.length, bytes_total: KERNEL.length + INITRD.length, error: null });
    const kinds = events.filter((e) => e.kind.startsWith('netboot.prefetch')).map((e) => e.kind);
    expect(kinds).toContain('netboot.prefetch.progress');
    expect(kinds.at(-1)).toBe('netboot.prefetch.done');
    const check = await api<EntryFilesCheck[]>('GET', '/netboot/check-files?distro=debian', viewer);
    expect(check.body.data[0]?.availability).toBe('cached');
    const stats = await api<CacheStats>('GET', '/netboot/cache-stats', viewer);
    // Misses count requests: kernel and initrd each asked for SHA256SUMS at once (one shared download).
    expect(stats.body.data).toMatchObject({ entries: 3, misses: 4, hits: 0, size_bytes: expect.any(Number), max_bytes: 20480 * 1024 * 1024, offline: false });
    expect(stats.body.data.dir).toBe(path.join(t.dataDir, 'netboot-cache'));
  });

  it('404 for an unknown prefetch job and an unknown entry', async () => {
    expect((await api('GET', '/netboot/prefetch/00000000-0000-0000-0000-000000000000', viewer)).status).toBe(404);
    expect((await api('POST', '/netboot/prefetch', operator, { distro: 'nosuch', version: '1', arch: 'x86_64' })).status).toBe(404);
  });

  it('refuses a prefetch at once when offline, naming the files and what to do', async () => {
    await t.core.kernel.settings.update({ netboot: { offline: true } });
    try {
      const res = await api('POST', '/netboot/prefetch', operator, { distro: 'fedora', version: '40', arch: 'arm64' });
      expect(res.status).toBe(409);
      expect(res.body.error).toContain('vmlinuz');
      expect(res.body.error).toContain('POST /netboot/prefetch');
    } finally {
      await t.core.kernel.settings.update({ netboot: { offline: false } });
    }
  });

  it('DELETE /netboot/cache empties it (operator only)', async () => {
    expect((await api('DELETE', '/netboot/cache', viewer)).status).toBe(403);
    const res = await api<CacheStats>('DELETE', '/netboot/cache', operator);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ entries: 0, size_bytes: 0 });
    const check = await api<EntryFilesCheck[]>('GET', '/netboot/check-files?distro=debian', viewer);
    expect(check.body.data[0]?.availability).toBe('remote');
  });
});
