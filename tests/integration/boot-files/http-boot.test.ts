import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { toolPresent } from '../../helpers/tools.js';

const run = promisify(execFile);
const hasCurl = toolPresent('curl', 'the curl tests');

const BIG = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 17 }, (_, i) => (i * 31 + (i >> 8)) & 0xff));

let t: TestCore;
let base: string;
let root: string;
beforeAll(async () => {
  t = await createTestCore({ nicReader: () => [] });
  root = t.core.area('boot-files').files.root;
  await mkdir(path.join(root, 'images'), { recursive: true });
  await writeFile(path.join(root, 'images', 'initrd.img'), BIG);
  // Sparse, larger than any socket buffers: a client that aborts after the first chunk really misses the end
  // (a small file can be wholly in the kernel's buffers, sent, before the abort arrives).
  await writeFile(path.join(root, 'images', 'large.img'), '');
  await truncate(path.join(root, 'images', 'large.img'), 1024 * 1024 * 1024);
  await writeFile(path.join(root, 'hello.ipxe'), '#!ipxe\necho hello\n');
  await writeFile(path.join(root, 'empty.bin'), '');
  await writeFile(path.join(path.dirname(root), 'secret.txt'), 'secret');
  await symlink(path.join(path.dirname(root), 'secret.txt'), path.join(root, 'escape.txt'));
  await t.core.start();
  base = `${t.core.url()}/boot`;
});
afterAll(async () => t?.close());

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('HTTP boot files under /boot/ (public)', () => {
  it('serves a file without credentials, with Content-Length, type, ETag and Accept-Ranges', async () => {
    const res = await fetch(`${base}/hello.ipxe`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('18');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(await res.text()).toBe('#!ipxe\necho hello\n');
  });

  it('streams a large file intact with its exact length', async () => {
    const res = await fetch(`${base}/images/initrd.img`);
    expect(res.headers.get('content-length')).toBe(String(BIG.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(BIG)).toBe(true);
  });

  it('reports a whole transfer as http.transfer.completed and an abandoned one as http.transfer.failed', async () => {
    const kinds = () => t.core.kernel.events.all().filter((event) => event.kind.startsWith('http.transfer.'));
    const before = kinds().length;
    await (await fetch(`${base}/images/initrd.img`)).arrayBuffer();
    await waitFor(() => kinds().length > before);
    expect(kinds().at(-1)).toMatchObject({ kind: 'http.transfer.completed', ip: '127.0.0.1', detail: { file: 'images/initrd.img', bytes: BIG.length, range: false } });

    const aborted = new AbortController();
    const partial = await fetch(`${base}/images/large.img`, { signal: aborted.signal });
    const reader = partial.body!.getReader();
    await reader.read();
    aborted.abort();
    await waitFor(() => kinds().at(-1)?.kind === 'http.transfer.failed');
    expect(kinds().at(-1)).toMatchObject({ level: 'warn', detail: { file: 'images/large.img' } });
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await fetch(`${base}/images/initrd.img`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(BIG.length));
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=1048570-1048599', 1048570, 1048599],
    ['bytes=-100', BIG.length - 100, BIG.length - 1],
    ['bytes=3145700-', 3145700, BIG.length - 1],
    ['bytes=3145700-999999999', 3145700, BIG.length - 1],
  ])('answers Range %s with 206 and the exact bytes', async (range, start, end) => {
    const res = await fetch(`${base}/images/initrd.img`, { headers: { range } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${BIG.length}`);
    expect(res.headers.get('content-length')).toBe(String(end - start + 1));
    expect(Buffer.from(await res.arrayBuffer()).equals(BIG.subarray(start, end + 1))).toBe(true);
  });

  it('answers an unsatisfiable range with 416, and ignores malformed or multiple ranges', async () => {
    const past = await fetch(`${base}/images/initrd.img`, { headers: { range: `bytes=${BIG.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${BIG.length}`);
    for (const range of ['bytes=5-1', 'items=0-5', 'bytes=0-1,5-9', 'bytes=abc']) {
      const res = await fetch(`${base}/hello.ipxe`, { headers: { range } });
      expect(res.status, range).toBe(200);
      expect(await res.text()).toBe('#!ipxe\necho hello\n');
    }
  });

  it('honours If-Range only with the current ETag, and If-None-Match with 304', async () => {
    const etag = (await fetch(`${base}/hello.ipxe`, { method: 'HEAD' })).headers.get('etag')!;
    expect((await fetch(`${base}/hello.ipxe`, { headers: { range: 'bytes=0-5', 'if-range': etag } })).status).toBe(206);
    expect((await fetch(`${base}/hello.ipxe`, { headers: { range: 'bytes=0-5', 'if-range': '"stale"' } })).status).toBe(200);
    expect((await fetch(`${base}/hello.ipxe`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it.runIf(existsSync('/proc/self/fd'))('closes the file when a client goes away mid-download', async () => {
    const openFiles = async () => (await readdir('/proc/self/fd')).length;
    const before = await openFiles();
    for (let i = 0; i < 5; i++) {
      const controller = new AbortController();
      const res = await fetch(`${base}/images/initrd.img`, { signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.read().catch(() => undefined);
    }
    await expect.poll(openFiles, { timeout: 5000 }).toBeLessThanOrEqual(before + 1);
  });

  it('serves an empty file with Content-Length 0', async () => {
    const res = await fetch(`${base}/empty.bin`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('0');
  });

  // Raw URLs through inject: fetch would resolve dot segments before sending.
  it.each([
    ['..%2fsecret.txt', [403]],
    ['images/..%2f..%2fsecret.txt', [403]],
    ['%2fetc%2fpasswd', [403]],
    ['images%5c..%5c..%5csecret.txt', [403]],
    ['hello.ipxe%00.png', [403]],
    ['escape.txt', [403]],
    // Dot segments in the URL path itself are resolved by the router: they leave /boot/ and find nothing.
    ['%2e%2e/secret.txt', [403, 404]],
    ['../secret.txt', [403, 404]],
    ['missing.bin', [404]],
    ['images', [404]],
    ['', [404]],
  ])('confines /boot/%s', async (suffix, statuses) => {
    const res = await t.core.http.inject({ method: 'GET', url: `/boot/${suffix}` });
    expect(statuses).toContain(res.statusCode);
    expect(res.body).not.toContain('secret');
  });

  it('serves virtual files per request with the query, before the disk, never cached', async () => {
    let count = 0;
    const remove = t.core.area('boot-files').files.addVirtualProvider({
      async resolve(file, client) {
        if (file !== 'test/generated.ipxe' && file !== 'hello.ipxe') return null;
        count++;
        return { content: Buffer.from(`#!ipxe\necho ${client.protocol} ${client.query.get('mac') ?? '-'} ${count}\n`), contentType: 'text/plain; charset=utf-8' };
      },
    });
    try {
      const first = await fetch(`${base}/test/generated.ipxe?mac=52:54:00:aa:bb:cc`);
      expect(first.headers.get('cache-control')).toBe('no-store');
      expect(await first.text()).toBe('#!ipxe\necho http 52:54:00:aa:bb:cc 1\n');
      expect(await (await fetch(`${base}/test/generated.ipxe`)).text()).toBe('#!ipxe\necho http - 2\n');
      expect(await (await fetch(`${base}/hello.ipxe`)).text()).toContain('echo http');
      const head = await fetch(`${base}/test/generated.ipxe`, { method: 'HEAD' });
      expect(head.headers.get('content-length')).toBe(String('#!ipxe\necho http - 4\n'.length));
      const partial = await fetch(`${base}/test/generated.ipxe`, { headers: { range: 'bytes=0-5' } });
      expect(partial.status).toBe(206);
      expect(await partial.text()).toBe('#!ipxe');
    } finally {
      remove();
    }
  });

  it('answers 500 when a provider fails, without leaking the error', async () => {
    const remove = t.core.area('boot-files').files.addVirtualProvider({
      async resolve(file) {
        if (file === 'test/broken.ipxe') throw new Error('secret template detail');
        return null;
      },
    });
    try {
      const res = await fetch(`${base}/test/broken.ipxe`);
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('secret');
    } finally {
      remove();
    }
  });

  it.runIf(hasCurl)('works with curl: full download, resumed download and HEAD', async () => {
    const full = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', `${base}/images/initrd.img`]);
    expect(full.stdout).toBe(`200 ${BIG.length}`);
    const ranged = await run('curl', ['-sS', '-r', '100-199', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', `${base}/images/initrd.img`]);
    expect(ranged.stdout).toBe('206 100');
    const head = await run('curl', ['-sS', '-I', `${base}/images/initrd.img`]);
    expect(head.stdout).toMatch(new RegExp(`content-length: ${BIG.length}`, 'i'));
    const traversal = await run('curl', ['-sS', '--path-as-is', '-o', '/dev/null', '-w', '%{http_code}', `${base}/../secret.txt`]);
    expect(['403', '404']).toContain(traversal.stdout);
  });
});
