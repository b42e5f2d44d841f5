import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolPresent } from '../../helpers/tools.js';
import { tftpGet } from '../tftp/tftp-client.js';
import { patternBytes, startTftpCore, type TftpCore } from '../tftp/tftp-harness.js';

/*
 * A virtual-file provider may answer with a file on disk outside the boot
 * root ({ kind: 'file', path, size, release }): HTTP /boot/ serves it like a
 * real file (Range, HEAD, ETag) and TFTP (in its worker thread) streams it;
 * both call `release` once, when the transfer is over, with the bytes sent.
 */

const run = promisify(execFile);
const hasCurl = toolPresent('curl', 'the curl checks of disk-backed virtual files');

const CONTENT = patternBytes(300_000, 7);

let t: TftpCore;
let outside: string;
let file: string;
const releases: number[] = [];
let removeProvider: () => void;

beforeAll(async () => {
  t = await startTftpCore();
  outside = await mkdtemp(path.join(os.tmpdir(), 'bw-vdisk-'));
  file = path.join(outside, 'kernel.bin');
  await writeFile(file, CONTENT);
  removeProvider = t.core.area('boot-files').files.addVirtualProvider({
    async resolve(requested) {
      if (requested !== 'cached/kernel.bin') return null;
      return { kind: 'file', path: file, size: CONTENT.length, release: (bytes) => releases.push(bytes) };
    },
  });
});
afterAll(async () => {
  removeProvider?.();
  await t?.close();
  if (outside) await rm(outside, { recursive: true, force: true });
});

/** GETs a range over a raw socket and destroys the socket as soon as Content-Length body bytes arrived; resolves with the body. */
function rangeThenHangUp(base: string, target: string, first: number, last: number): Promise<Buffer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no complete answer in 10 s')));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nRange: bytes=${first}-${last}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headerEnd = received.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(received.subarray(0, headerEnd).toString('latin1'))?.[1] ?? NaN);
      const body = received.subarray(headerEnd + 4);
      if (body.length < length) return;
      socket.destroy();
      resolve(body);
    });
  });
}

async function waitForReleases(count: number): Promise<void> {
  for (let i = 0; i < 250 && releases.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('disk-backed virtual files', () => {
  it('HTTP serves the whole file with an ETag and releases it with the bytes sent', async () => {
    releases.length = 0;
    const res = await fetch(`${t.core.url()}/boot/cached/kernel.bin`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(CONTENT.length));
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(CONTENT)).toBe(true);
    await waitForReleases(1);
    expect(releases).toEqual([CONTENT.length]);
  });

  it('HTTP answers a Range request with 206 and a HEAD without a body', async () => {
    releases.length = 0;
    const ranged = await fetch(`${t.core.url()}/boot/cached/kernel.bin`, { headers: { range: 'bytes=1000-1999' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${CONTENT.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(CONTENT.subarray(1000, 2000))).toBe(true);
    const head = await fetch(`${t.core.url()}/boot/cached/kernel.bin`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(CONTENT.length));
    await waitForReleases(2);
    expect(releases.sort((a, b) => a - b)).toEqual([0, 1000]);
  });

  it.runIf(hasCurl)('curl resumes it with a range like any boot file', async () => {
    releases.length = 0;
    const { stdout } = await run('curl', ['-sS', '-r', '299990-', `${t.core.url()}/boot/cached/kernel.bin`], { encoding: 'buffer', timeout: 20_000 });
    expect(Buffer.from(stdout).equals(CONTENT.subarray(299_990))).toBe(true);
    // The release comes when the transfer settled, maybe after curl exited.
    await waitForReleases(1);
    expect(releases).toEqual([10]);
  });

  it('HTTP counts the bytes of a client that hangs up the moment the last byte arrived', async () => {
    // curl and iPXE do this: with Content-Length read whole they close at once, maybe before the server saw its own 'finish'.
    releases.length = 0;
    const rounds = 20;
    for (let i = 0; i < rounds; i++) expect((await rangeThenHangUp(t.core.url(), '/boot/cached/kernel.bin', 1000, 1999)).equals(CONTENT.subarray(1000, 2000))).toBe(true);
    await waitForReleases(rounds);
    expect(releases).toEqual(Array.from({ length: rounds }, () => 1000));
  });

  it('TFTP (worker thread) streams it and releases it once the transfer ended', async () => {
    releases.length = 0;
    const res = await tftpGet({ port: t.port, file: 'cached/kernel.bin', options: { blksize: '1468', tsize: '0' } });
    expect(res.error).toBeNull();
    expect(res.oack?.tsize).toBe(String(CONTENT.length));
    expect(res.data.equals(CONTENT)).toBe(true);
    await waitForReleases(1);
    expect(releases).toEqual([CONTENT.length]);
  });

  it('a provider file that vanished is a 404 and a TFTP "file not found", and is released', async () => {
    const copy = await readFile(file);
    await rm(file);
    releases.length = 0;
    try {
      expect((await fetch(`${t.core.url()}/boot/cached/kernel.bin`)).status).toBe(404);
      expect((await tftpGet({ port: t.port, file: 'cached/kernel.bin' })).error).toMatchObject({ code: 1 });
      await waitForReleases(2);
      expect(releases).toEqual([0, 0]);
    } finally {
      await writeFile(file, copy);
    }
  });
});
