import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src-main/core/errors.js';
import { LogSink } from '../../../../src-main/core/logger.js';
import type { AppEvent } from '../../../../src-main/events/event-types.js';
import { EventLog } from '../../../../src-main/events/event-log.js';
import { CACHE_COLLECTION, type CacheRow } from '../../../../src-main/netboot/files/cache-index.js';
import { DownloadCache, type CacheSettings } from '../../../../src-main/netboot/files/download-cache.js';
import { lookupFromCatalog, netbootFileProvider } from '../../../../src-main/netboot/files/netboot-file-provider.js';
import { NetbootFiles } from '../../../../src-main/netboot/files/netboot-files.js';
import { PrefetchJobs } from '../../../../src-main/netboot/files/prefetch-jobs.js';
import { Store } from '../../../../src-main/store/store.js';
import { entryView, fakeCatalog } from '../../../helpers/netboot-fake-catalog.js';
import { NetbootMirror, sha256 } from '../../../helpers/netboot-mirror.js';
import { tempDir } from '../../../helpers/test-core.js';

const log = new LogSink({ logDir: null, level: 'error', console: false }).logger();

const KERNEL = Buffer.from('debian kernel '.repeat(5000));
const INITRD = Buffer.from('debian initrd '.repeat(9000));
const FEDORA_KERNEL = Buffer.from('fedora vmlinuz '.repeat(100));

let dir: { dir: string; remove: () => Promise<void> };
let store: Store;
let events: EventLog;
let emitted: AppEvent[];
let mirror: NetbootMirror;
let settings: CacheSettings;
let cache: DownloadCache;
let files: NetbootFiles;
let bootRoot: string;
let catalog: ReturnType<typeof fakeCatalog>;

const IMAGES = 'dists/bookworm/main/installer-amd64/current/images';

beforeEach(async () => {
  dir = await tempDir('bw-netboot-files-');
  bootRoot = path.join(dir.dir, 'boot');
  await mkdir(bootRoot, { recursive: true });
  store = await Store.open({ dataDir: dir.dir });
  events = new EventLog(store);
  emitted = [];
  events.subscribe((event) => emitted.push(event));
  mirror = await new NetbootMirror().start();
  settings = { maxBytes: 64 * 1024 * 1024, offline: false, stallTimeoutMs: 5000, proxy: null };
  cache = new DownloadCache({ dir: path.join(dir.dir, 'netboot-cache'), rows: store.collection<CacheRow>(CACHE_COLLECTION), settings: () => settings, events, log });
  await cache.open();
  files = new NetbootFiles({ bootRoot, cache, offline: () => settings.offline, log });
  mirror.files.set(`debian/${IMAGES}/netboot/debian-installer/amd64/linux`, KERNEL);
  mirror.files.set(`debian/${IMAGES}/netboot/debian-installer/amd64/initrd.gz`, INITRD);
  mirror.files.set(
    `debian/${IMAGES}/SHA256SUMS`,
    Buffer.from(
      [
        `${sha256('other')}  ./cdrom/vmlinuz`,
        `${sha256(KERNEL)}  ./netboot/debian-installer/amd64/linux`,
        `${sha256(INITRD)}  ./netboot/debian-installer/amd64/initrd.gz`,
        '',
      ].join('\n'),
    ),
  );
  mirror.files.set('fedora/images/pxeboot/vmlinuz', FEDORA_KERNEL);
  catalog = fakeCatalog([
    entryView({
      distro: 'debian',
      mirror: `${mirror.base}/debian`,
      versions: [
        {
          version: '12',
          name: '12 (bookworm)',
          codename: 'bookworm',
          architectures: [
            {
              arch: 'x86_64',
              firmware: ['bios', 'uefi'],
              kernel: 'dists/{{ codename }}/main/installer-amd64/current/images/netboot/debian-installer/amd64/linux',
              initrds: ['dists/{{ codename }}/main/installer-amd64/current/images/netboot/debian-installer/amd64/initrd.gz'],
              checksums: { file: 'dists/{{ codename }}/main/installer-amd64/current/images/SHA256SUMS', algorithm: 'sha256', strip_prefix: './' },
            },
          ],
        },
      ],
    }),
    entryView({
      distro: 'fedora',
      mirror: `${mirror.base}/fedora`,
      versions: [
        {
          version: '40',
          name: '40',
          architectures: [{ arch: 'x86_64', firmware: ['uefi'], kernel: 'images/pxeboot/vmlinuz', initrds: [], sha256: { 'images/pxeboot/vmlinuz': sha256(FEDORA_KERNEL) } }],
        },
      ],
    }),
    entryView({
      distro: 'localonly',
      mirror: null,
      versions: [{ version: '1', name: '1', architectures: [{ arch: 'x86_64', firmware: ['bios'], kernel: 'linux', initrds: ['initrd.gz'] }] }],
    }),
  ]);
});

afterEach(async () => {
  await cache.close();
  await mirror.close();
  await store.close();
  await dir.remove();
});

describe('NetbootFiles.check', () => {
  it('says remote for a mirror entry not yet cached, without touching the network', async () => {
    const check = await files.check(catalog.resolve('debian', '12', 'x86_64'));
    expect(check).toMatchObject({ distro: 'debian', version: '12', arch: 'x86_64', availability: 'remote', problem: null });
    expect(check.files.map((f) => [f.role, f.availability, f.location])).toEqual([
      ['kernel', 'remote', mirror.url(`debian/${IMAGES}/netboot/debian-installer/amd64/linux`)],
      ['initrd', 'remote', mirror.url(`debian/${IMAGES}/netboot/debian-installer/amd64/initrd.gz`)],
    ]);
    expect(mirror.requests).toHaveLength(0);
  });

  it('says local for a file under the boot root at its served path, cached after a download, and the worst wins', async () => {
    const resolved = catalog.resolve('debian', '12', 'x86_64');
    await mkdir(path.join(bootRoot, 'netboot/debian/12/x86_64'), { recursive: true });
    await writeFile(path.join(bootRoot, 'netboot/debian/12/x86_64/linux'), 'a local kernel');
    let check = await files.check(resolved);
    expect(check.files.map((f) => f.availability)).toEqual(['local', 'remote']);
    expect(check.files[0]).toMatchObject({ location: path.join(bootRoot, 'netboot/debian/12/x86_64/linux'), size_bytes: 14 });
    expect(check.availability).toBe('remote');
    await files.ensure(resolved);
    check = await files.check(resolved);
    expect(check.files.map((f) => f.availability)).toEqual(['local', 'cached']);
    expect(check.files[1]?.size_bytes).toBe(INITRD.length);
    expect(check.availability).toBe('cached');
    // The local kernel was not downloaded.
    expect(mirror.requests.filter((r) => r.path.endsWith('/linux'))).toHaveLength(0);
  });

  it('says missing when offline and not cached, with a problem naming the files and what to do', async () => {
    settings = { ...settings, offline: true };
    const check = await files.check(catalog.resolve('debian', '12', 'x86_64'));
    expect(check.availability).toBe('missing');
    expect(check.problem).toContain('cannot boot offline');
    expect(check.problem).toContain('linux, initrd.gz');
    expect(check.problem).toContain('POST /netboot/prefetch');
    expect(check.problem).toContain(path.join(bootRoot, 'netboot/debian/12/x86_64'));
    const err = await files.ensure(catalog.resolve('debian', '12', 'x86_64')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe(check.problem);
    expect(mirror.requests).toHaveLength(0);
  });

  it('says missing for an entry without a mirror until the files are put under the boot root', async () => {
    const resolved = catalog.resolve('localonly', '1', 'x86_64');
    const before = await files.check(resolved);
    expect(before.availability).toBe('missing');
    expect(before.problem).toMatch(/has no mirror: put linux, initrd.gz at .*netboot\/localonly\/1\/x86_64\//);
    await mkdir(path.join(bootRoot, 'netboot/localonly/1/x86_64'), { recursive: true });
    await writeFile(path.join(bootRoot, 'netboot/localonly/1/x86_64/linux'), 'k');
    await writeFile(path.join(bootRoot, 'netboot/localonly/1/x86_64/initrd.gz'), 'i');
    const after = await files.check(resolved);
    expect(after).toMatchObject({ availability: 'local', problem: null });
  });

  it('says image for a file an OS image holds', async () => {
    const image = path.join(dir.dir, 'image-linux');
    await writeFile(image, 'from an image');
    const withImages = new NetbootFiles({
      bootRoot,
      cache,
      offline: () => true,
      log,
      images: { find: async (_resolved, file) => (file.role === 'kernel' ? { location: 'image 3: /install/vmlinuz', absolute: image, size: 13 } : null) },
    });
    const check = await withImages.check(catalog.resolve('fedora', '40', 'x86_64'));
    expect(check.files[0]).toMatchObject({ availability: 'image', location: 'image 3: /install/vmlinuz', size_bytes: 13 });
    expect(check.availability).toBe('image');
  });
});

describe('NetbootFiles.ensure and checksums', () => {
  it('downloads the entry\'s files verified against the published SHA256SUMS (fetched once through the cache)', async () => {
    await files.ensure(catalog.resolve('debian', '12', 'x86_64'));
    const kernel = cache.lookup(mirror.url(`debian/${IMAGES}/netboot/debian-installer/amd64/linux`));
    expect(kernel?.sha256).toBe(sha256(KERNEL));
    expect(mirror.requestsFor(`debian/${IMAGES}/SHA256SUMS`)).toHaveLength(1);
  });

  it('refuses a file whose published checksum differs, naming both digests; nothing becomes visible', async () => {
    mirror.files.set(`debian/${IMAGES}/netboot/debian-installer/amd64/initrd.gz`, Buffer.from('tampered'));
    const err = await files.ensure(catalog.resolve('debian', '12', 'x86_64')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toContain('checksum mismatch');
    expect((err as AppError).message).toContain(sha256(INITRD));
    expect((err as AppError).message).toContain(sha256('tampered'));
    expect((err as AppError).message).toContain('SHA256SUMS');
    expect(cache.lookup(mirror.url(`debian/${IMAGES}/netboot/debian-installer/amd64/initrd.gz`))).toBeUndefined();
  });

  it('verifies against the catalog\'s own sha256 map', async () => {
    mirror.files.set('fedora/images/pxeboot/vmlinuz', Buffer.from('not the kernel'));
    const err = await files.ensure(catalog.resolve('fedora', '40', 'x86_64')).catch((e: unknown) => e);
    expect((err as AppError).message).toContain('(the catalog)');
    mirror.files.set('fedora/images/pxeboot/vmlinuz', FEDORA_KERNEL);
    await files.ensure(catalog.resolve('fedora', '40', 'x86_64'));
  });
});

describe('the boot-files provider of netboot/<distro>/<version>/<arch>/<name>', () => {
  const client = { ip: '127.0.0.1', protocol: 'http' as const, query: new URLSearchParams() };

  it('maps a served path to the entry\'s file, downloads it on demand and holds it until released', async () => {
    const provider = netbootFileProvider(files, lookupFromCatalog((d, v, a) => catalog.resolve(d, v, a)));
    const answer = await provider.resolve('netboot/debian/12/x86_64/initrd.gz', client);
    expect(answer).toMatchObject({ kind: 'file', size: INITRD.length });
    expect((await readFile(answer?.path ?? '')).equals(INITRD)).toBe(true);
    answer?.release?.(INITRD.length);
    expect(cache.stats()).toMatchObject({ bytes_served: INITRD.length });
  });

  it('steps aside for unknown entries, other paths and files under the boot root', async () => {
    const provider = netbootFileProvider(files, lookupFromCatalog((d, v, a) => catalog.resolve(d, v, a)));
    expect(await provider.resolve('netboot/nosuch/1/x86_64/linux', client)).toBeNull();
    expect(await provider.resolve('netboot/debian/11/x86_64/linux', client)).toBeNull();
    expect(await provider.resolve('netboot/debian/12/sparc/linux', client)).toBeNull();
    expect(await provider.resolve('netboot/debian/12/x86_64/vmlinuz', client)).toBeNull();
    expect(await provider.resolve('ipxe/entry.ipxe', client)).toBeNull();
    await mkdir(path.join(bootRoot, 'netboot/debian/12/x86_64'), { recursive: true });
    await writeFile(path.join(bootRoot, 'netboot/debian/12/x86_64/linux'), 'local');
    expect(await provider.resolve('netboot/debian/12/x86_64/linux', client)).toBeNull();
    expect(mirror.requests).toHaveLength(0);
  });

  it('answers nothing (a plain not-found) when offline and not cached', async () => {
    settings = { ...settings, offline: true };
    const provider = netbootFileProvider(files, lookupFromCatalog((d, v, a) => catalog.resolve(d, v, a)));
    expect(await provider.resolve('netboot/debian/12/x86_64/linux', client)).toBeNull();
    expect(mirror.requests).toHaveLength(0);
  });
});

describe('prefetch jobs', () => {
  it('runs in the background with progress events, then done', async () => {
    const jobs = new PrefetchJobs(files, events);
    const job = await jobs.start(catalog.resolve('debian', '12', 'x86_64'));
    expect(job).toMatchObject({ distro: 'debian', version: '12', arch: 'x86_64', state: 'running' });
    // Asking again while it runs returns the same job.
    expect((await jobs.start(catalog.resolve('debian', '12', 'x86_64'))).id).toBe(job.id);
    await jobs.settle();
    expect(jobs.get(job.id)).toMatchObject({ state: 'done', bytes_done: KERNEL.length + INITRD.length, bytes_total: KERNEL.length + INITRD.length, error: null });
    const kinds = emitted.map((event) => event.kind).filter((kind) => kind.startsWith('netboot.prefetch'));
    expect(kinds[0]).toBe('netboot.prefetch.progress');
    expect(kinds.at(-1)).toBe('netboot.prefetch.done');
    const progress = emitted.find((event) => event.kind === 'netboot.prefetch.progress');
    expect(progress?.detail).toMatchObject({ job_id: job.id, bytes_done: expect.any(Number) });
    expect(cache.stats().entries).toBe(3);
  });

  it('throttles progress events', async () => {
    const jobs = new PrefetchJobs(files, events, () => 0);
    await jobs.start(catalog.resolve('debian', '12', 'x86_64'));
    await jobs.settle();
    // The clock never moved: only the first progress report became an event.
    expect(emitted.filter((event) => event.kind === 'netboot.prefetch.progress')).toHaveLength(1);
  });

  it('ends failed with an event when a download fails', async () => {
    mirror.files.delete(`debian/${IMAGES}/netboot/debian-installer/amd64/initrd.gz`);
    const jobs = new PrefetchJobs(files, events);
    const job = await jobs.start(catalog.resolve('debian', '12', 'x86_64'));
    await jobs.settle();
    expect(jobs.get(job.id)).toMatchObject({ state: 'failed', error: expect.stringContaining('404') });
    expect(emitted.some((event) => event.kind === 'netboot.prefetch.failed' && event.level === 'error')).toBe(true);
  });

  it('refuses at once, without a job, when offline', async () => {
    settings = { ...settings, offline: true };
    const jobs = new PrefetchJobs(files, events);
    const err = await jobs.start(catalog.resolve('debian', '12', 'x86_64')).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('INVALID_STATE');
    expect((err as AppError).message).toContain('cannot boot offline');
    expect(() => jobs.get('00000000-0000-0000-0000-000000000000')).toThrow(/not found/);
  });
});
