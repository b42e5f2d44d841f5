import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { NetbootMirror } from '../../helpers/netboot-mirror.js';
import { toolPresent } from '../../helpers/tools.js';
import { freeUdpPort, loopbackNics } from '../tftp/tftp-harness.js';
import { FEDORA_KERNEL, INITRD, KERNEL, netbootFixture } from './files-fixture.js';

/*
 * Booting machines fetch entries' files at netboot/<distro>/<version>/<arch>/<name>
 * over HTTP /boot/ and TFTP: from the boot root when a technician put them
 * there, else from the download cache, downloaded from the (local) mirror on
 * demand. Real clients: curl and atftp, through a real core.
 */

const run = promisify(execFile);
const hasCurl = toolPresent('curl', 'the netboot HTTP serving tests');
const hasAtftp = toolPresent('atftp', 'the netboot TFTP serving tests');

let mirror: NetbootMirror;
let t: TestCore;
let tftpPort: number;
let out: string;
let boot: string;

beforeAll(async () => {
  mirror = await new NetbootMirror().start();
  const catalogReader = netbootFixture(mirror);
  t = await createTestCore({ nicReader: loopbackNics(), autoStartServices: ['tftp'], netboot: { catalogReader } });
  tftpPort = await freeUdpPort();
  await t.core.area('tftp').settings.update({ port: tftpPort });
  await t.core.start();
  if (t.core.kernel.services.get('tftp').state !== 'running') throw new Error('tftp did not start');
  boot = `${t.core.url()}/boot`;
  out = await mkdtemp(path.join(os.tmpdir(), 'bw-netboot-serve-'));
});
afterAll(async () => {
  await t?.close();
  await mirror?.close();
  if (out) await rm(out, { recursive: true, force: true });
});

function stats() {
  return t.core.area('netboot').files.cacheStats();
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.runIf(hasCurl)('HTTP /boot/ serves netboot files from the cache', () => {
  it('downloads a file on demand for a Range request and answers 206 with exactly that range', async () => {
    const { stdout } = await run('curl', ['-sS', '--fail', '-r', '1000-1999', `${boot}/netboot/debian/12/x86_64/linux`], { encoding: 'buffer', timeout: 30_000 });
    expect(Buffer.from(stdout).equals(KERNEL.subarray(1000, 2000))).toBe(true);
    // Downloaded once, with the checksum file, and verified.
    expect(mirror.requests.filter((r) => r.path.endsWith('/amd64/linux'))).toHaveLength(1);
    expect(mirror.requests.filter((r) => r.path.endsWith('/SHA256SUMS'))).toHaveLength(1);
    await waitFor(() => stats().bytes_served >= 1000);
    expect(stats()).toMatchObject({ misses: 2, bytes_served: 1000, bytes_downloaded: expect.any(Number) });
  });

  it('serves the whole cached file (a hit) with Content-Length and an ETag, counting the bytes served', async () => {
    const before = stats();
    const file = path.join(out, 'linux');
    const { stdout } = await run('curl', ['-sS', '--fail', '-D', '-', '-o', file, `${boot}/netboot/debian/12/x86_64/linux`], { timeout: 30_000 });
    expect(stdout).toMatch(new RegExp(`content-length: ${KERNEL.length}`, 'i'));
    expect(stdout).toMatch(/etag: "[0-9a-f]+-[0-9a-f]+"/i);
    expect((await readFile(file)).equals(KERNEL)).toBe(true);
    await waitFor(() => stats().bytes_served >= before.bytes_served + KERNEL.length);
    expect(stats().hits).toBe(before.hits + 1);
    expect(stats().bytes_served).toBe(before.bytes_served + KERNEL.length);
    expect(mirror.requests.filter((r) => r.path.endsWith('/amd64/linux'))).toHaveLength(1);
  });

  it('answers HEAD without a body and without downloading twice', async () => {
    const res = await fetch(`${boot}/netboot/debian/12/x86_64/linux`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(KERNEL.length));
  });

  it('serves a real file under the boot root instead, without asking the mirror', async () => {
    const root = t.core.area('boot-files').files.root;
    await mkdir(path.join(root, 'netboot/fedora/40/x86_64'), { recursive: true });
    await writeFile(path.join(root, 'netboot/fedora/40/x86_64/vmlinuz'), 'a technician\'s own kernel');
    try {
      const res = await fetch(`${boot}/netboot/fedora/40/x86_64/vmlinuz`);
      expect(await res.text()).toBe('a technician\'s own kernel');
      expect(mirror.requests.filter((r) => r.path.includes('/fedora/'))).toHaveLength(0);
    } finally {
      await rm(path.join(root, 'netboot/fedora/40/x86_64/vmlinuz'));
    }
    const res = await fetch(`${boot}/netboot/fedora/40/x86_64/vmlinuz`);
    expect(Buffer.from(await res.arrayBuffer()).equals(FEDORA_KERNEL)).toBe(true);
  });

  it('answers 404 for an unknown entry and for an entry without a mirror', async () => {
    expect((await fetch(`${boot}/netboot/nosuch/1/x86_64/linux`)).status).toBe(404);
    expect((await fetch(`${boot}/netboot/memtest/7/x86_64/memtest.efi`)).status).toBe(404);
  });
});

describe.runIf(hasAtftp)('TFTP serves netboot files from the cache', () => {
  it('atftp gets an initrd downloaded on demand, intact', async () => {
    const local = path.join(out, 'initrd.gz');
    await run('atftp', ['--option', 'blksize 1468', '--option', 'tsize enable', '--tftp-timeout', '2', '-g', '-r', 'netboot/debian/12/x86_64/initrd.gz', '-l', local, '127.0.0.1', String(tftpPort)], {
      timeout: 60_000,
    });
    expect((await readFile(local)).equals(INITRD)).toBe(true);
    expect(t.core.area('netboot').files.cache.lookup(mirror.url('debian/dists/bookworm/main/installer-amd64/current/images/netboot/debian-installer/amd64/initrd.gz'))).toBeDefined();
    await waitFor(() => stats().bytes_served >= INITRD.length);
  });
});

describe('offline mode', () => {
  it('never downloads: an uncached file is a plain 404 at once, cached files still serve', async () => {
    await t.core.kernel.settings.update({ netboot: { offline: true } });
    try {
      const requests = mirror.requests.length;
      expect((await fetch(`${boot}/netboot/fedora/40/arm64/vmlinuz`)).status).toBe(404);
      expect(mirror.requests.length).toBe(requests);
      const cached = await fetch(`${boot}/netboot/debian/12/x86_64/linux`, { headers: { range: 'bytes=0-9' } });
      expect(cached.status).toBe(206);
      expect(Buffer.from(await cached.arrayBuffer()).equals(KERNEL.subarray(0, 10))).toBe(true);
      expect(stats().offline).toBe(true);
    } finally {
      await t.core.kernel.settings.update({ netboot: { offline: false } });
    }
  });
});
