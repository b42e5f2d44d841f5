import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../../src-main/core/errors.js';
import { ImageMounts } from '../../../../src-main/os-images/mount/image-mounts.js';
import { toolPresent } from '../../../helpers/tools.js';
import { tftpGet } from '../../tftp/tftp-client.js';
import { patternBytes, startTftpCore, type TftpCore } from '../../tftp/tftp-harness.js';
import { packImage, type PackedImage } from './packed-tree.js';

/*
 * ImageMounts in a real core: an "ISO-like" file (several files' bytes at
 * known offsets, one file split in two extents out of order) with a tree
 * over it, mounted under iso/<slug>/ and served over HTTP /boot/ (sendfile,
 * ranges) and TFTP (worker thread), straight from that file.
 */

const run = promisify(execFile);
const hasCurl = toolPresent('curl', 'the curl checks of mounted images');
const hasAtftp = toolPresent('atftp', 'the atftp checks of mounted images');

const KERNEL = patternBytes(700_001, 3);
const INITRD = patternBytes(1_500_000, 4);
const BIG = patternBytes(24 * 1024 * 1024, 5);
const CONFIG = Buffer.from('default linux\nlabel linux\n  kernel /boot/vmlinuz\n');

let t: TftpCore;
let dir: string;
let image: PackedImage;
let mounts: ImageMounts;
let base: string;

beforeAll(async () => {
  t = await startTftpCore({ settings: { max_blksize: 65464 } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'bw-mounts-'));
  image = await packImage(path.join(dir, 'debian.iso'), {
    'boot/vmlinuz': KERNEL,
    'boot/initrd.gz': { split: INITRD },
    'boot/big.img': BIG,
    'isolinux/isolinux.cfg': CONFIG,
    'docs/with space & <b>.txt': Buffer.from('spaced'),
    current: { symlink: 'boot' },
    'boot/kernel-link': { symlink: '/boot/vmlinuz' },
    'boot/escape': { symlink: '../../../etc/passwd' },
    'boot/loop-a': { symlink: 'loop-b' },
    'boot/loop-b': { symlink: 'loop-a' },
  });
  mounts = new ImageMounts(t.core.area('boot-files').files);
  mounts.mount({ id: 7, slug: 'debian-12', file: image.file, tree: image.tree });
  base = `${t.core.url()}/boot/iso/debian-12`;
});
afterAll(async () => {
  mounts?.close();
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

describe('a mounted image over HTTP', () => {
  it('serves files straight from their extents, a split file included', async () => {
    for (const [name, expected] of [['boot/vmlinuz', KERNEL], ['boot/initrd.gz', INITRD], ['isolinux/isolinux.cfg', CONFIG]] as const) {
      const res = await get(`${base}/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.body.equals(expected), name).toBe(true);
    }
  });

  it('serves the ISO file itself at iso/<slug>.iso, with ranges', async () => {
    const whole = await readFile(image.file);
    const res = await get(`${t.core.url()}/boot/iso/debian-12.iso`);
    expect(res.status).toBe(200);
    expect(res.body.equals(whole)).toBe(true);
    const ranged = await get(`${t.core.url()}/boot/iso/debian-12.iso`, { range: 'bytes=4096-8191' });
    expect(ranged.status).toBe(206);
    expect(ranged.body.equals(whole.subarray(4096, 8192))).toBe(true);
  });

  it.runIf(hasCurl)('answers curl ranges across the split file\'s extents', async () => {
    const half = Math.floor(INITRD.length / 2);
    for (const [range, start, end] of [[`${half - 5}-${half + 4}`, half - 5, half + 4], ['-7', INITRD.length - 7, INITRD.length - 1], ['0-0', 0, 0]] as const) {
      const { stdout } = await run('curl', ['-sS', '-r', range, `${base}/boot/initrd.gz`], { encoding: 'buffer', timeout: 20_000 });
      expect(Buffer.from(stdout).equals(INITRD.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('follows symlinks inside the image (relative and absolute) and refuses links out of it or in a loop', async () => {
    expect((await get(`${base}/current/vmlinuz`)).body.equals(KERNEL)).toBe(true);
    expect((await get(`${base}/boot/kernel-link`)).body.equals(KERNEL)).toBe(true);
    expect((await get(`${base}/boot/escape`)).status).toBe(404);
    expect((await get(`${base}/boot/loop-a`)).status).toBe(404);
  });

  it('takes percent-encoded names (decoded by the HTTP layer) and refuses encoded ".."', async () => {
    const res = await get(`${base}/docs/with%20space%20%26%20%3Cb%3E.txt`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('spaced');
    // Sent as written (fetch would collapse %2e%2e itself): the HTTP layer decodes it to "..", which is refused.
    expect(await rawStatus('/boot/iso/debian-12/boot/%2e%2e/%2e%2e/%2e%2e/etc/passwd')).toBe(403);
    expect(await rawStatus('/boot/iso/debian-12/boot/..%2f..%2f..%2fetc/passwd')).toBe(403);
    expect((await get(`${base}/nothing-here`)).status).toBe(404);
  });

  it('answers a directory with an HTML index whose names are escaped and links encoded', async () => {
    for (const url of [`${base}/docs`, `${base}/docs/`]) {
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const page = res.body.toString();
      expect(page).toContain('Index of /boot/iso/debian-12/docs/');
      expect(page).toContain('href="/boot/iso/debian-12/docs/with%20space%20%26%20%3Cb%3E.txt"');
      expect(page).toContain('>with space &#38; &#60;b&#62;.txt</a>');
      expect(page).not.toContain('<b>');
    }
    const root = (await get(`${base}/`)).body.toString();
    expect(root).toContain('href="/boot/iso/debian-12/boot/"');
    expect(root).toContain('href="/boot/iso/debian-12/isolinux/"');
  });

  it('tells the profile file checks that paths under a mounted slug are served', async () => {
    const files = t.core.area('boot-files').files;
    expect(await files.presence('iso/debian-12/boot/vmlinuz')).toBe('virtual');
    expect(await files.presence('iso/debian-12.iso')).toBe('virtual');
    expect(await files.presence('iso/other/boot/vmlinuz')).toBe('missing');
  });
});

describe('a mounted image over TFTP', () => {
  it.each([['512'], ['1468'], ['65464']])('sends the files byte for byte with blksize %s', async (blksize) => {
    for (const [name, expected] of [['boot/vmlinuz', KERNEL], ['boot/initrd.gz', INITRD]] as const) {
      const res = await tftpGet({ port: t.port, file: `iso/debian-12/${name}`, options: { blksize, tsize: '0' } });
      expect(res.error, name).toBeNull();
      expect(res.oack?.tsize).toBe(String(expected.length));
      expect(res.data.equals(expected), name).toBe(true);
    }
  });

  it('answers a directory and a link out of the image with "file not found"', async () => {
    expect((await tftpGet({ port: t.port, file: 'iso/debian-12/boot' })).error).toMatchObject({ code: 1 });
    expect((await tftpGet({ port: t.port, file: 'iso/debian-12/boot/escape' })).error).toMatchObject({ code: 1 });
  });

  it.runIf(hasAtftp)('atftp downloads the split initrd intact', async () => {
    const local = path.join(dir, 'atftp-initrd');
    await run('atftp', ['--option', 'blksize 1468', '--option', 'tsize enable', '--tftp-timeout', '2', '-g', '-r', 'iso/debian-12/boot/initrd.gz', '-l', local, '127.0.0.1', String(t.port)], { timeout: 30_000 });
    expect((await readFile(local)).equals(INITRD)).toBe(true);
  });
});

/** The status of a GET of `urlPath` sent byte for byte as given. */
function rawStatus(urlPath: string): Promise<number> {
  const { hostname, port } = new URL(t.core.url());
  return new Promise((resolve, reject) => {
    http
      .get({ host: hostname, port, path: urlPath }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .once('error', reject);
  });
}

/** A GET that reads the first bytes of the body, then waits until `resume` is called before reading on. */
function slowGet(url: string): Promise<{ status: number; resume: () => Promise<Buffer> }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (res) => {
      const chunks: Buffer[] = [];
      res.once('data', (chunk: Buffer) => {
        chunks.push(chunk);
        res.pause();
        resolve({
          status: res.statusCode ?? 0,
          resume: () =>
            new Promise<Buffer>((done, fail) => {
              res.on('data', (more: Buffer) => chunks.push(more));
              res.once('end', () => done(Buffer.concat(chunks)));
              res.once('error', fail);
              res.resume();
            }),
        });
      });
    });
    request.once('error', reject);
  });
}

describe('mounting and unmounting', () => {
  it('stops serving the slug\'s paths at once on unmount, while a transfer under way finishes whole', async () => {
    const started = await slowGet(`${base}/boot/big.img`);
    expect(started.status).toBe(200);
    mounts.unmount(7);
    expect(mounts.mounted()).toEqual([]);
    expect((await get(`${base}/boot/vmlinuz`)).status).toBe(404);
    expect((await get(`${t.core.url()}/boot/iso/debian-12.iso`)).status).toBe(404);
    expect((await tftpGet({ port: t.port, file: 'iso/debian-12/boot/vmlinuz' })).error).toMatchObject({ code: 1 });
    // The tree may close too: the transfer reads from its own descriptor of the ISO file.
    await image.tree.close();
    const body = await started.resume();
    expect(body.length).toBe(BIG.length);
    expect(body.equals(BIG)).toBe(true);
    image.tree.closed = false;
  });

  it('serves a remount under a new slug there only, and refuses a slug another image holds', async () => {
    mounts.mount({ id: 7, slug: 'bookworm', file: image.file, tree: image.tree });
    mounts.mount({ id: 7, slug: 'debian-12', file: image.file, tree: image.tree });
    expect((await get(`${t.core.url()}/boot/iso/bookworm/boot/vmlinuz`)).status).toBe(404);
    expect((await get(`${base}/boot/vmlinuz`)).body.equals(KERNEL)).toBe(true);
    let refused: unknown = null;
    try {
      mounts.mount({ id: 8, slug: 'debian-12', file: image.file, tree: image.tree });
    } catch (err) {
      refused = err;
    }
    expect(isAppError(refused) && refused.code === 'CONFLICT').toBe(true);
    expect(mounts.mounted()).toEqual([7]);
  });
});
