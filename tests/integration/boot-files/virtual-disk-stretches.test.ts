import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpBootPlugin } from '../../../src-main/boot-files/http-boot-plugin.js';
import { sendfileAvailable } from '../../../src-main/core/sendfile-transfer.js';
import type { FileStretch } from '../../../src-main/boot-files/virtual-files.js';
import { toNetascii } from '../../../src-main/tftp/server/netascii.js';
import { toolPresent } from '../../helpers/tools.js';
import { tftpGet } from '../tftp/tftp-client.js';
import { patternBytes, startTftpCore, type TftpCore } from '../tftp/tftp-harness.js';

/*
 * A provider's disk file may be a stretch of a bigger backing file (offset +
 * size: a file inside a mounted ISO) or several stretches (a multi-extent
 * file, extents not contiguous and not in file order). HTTP /boot/ — by
 * sendfile and by a read stream — and TFTP in its worker thread serve only
 * those bytes, with Range, HEAD, ETag and If-Range as for any file.
 */

const run = promisify(execFile);
const hasCurl = toolPresent('curl', 'the curl range checks of files inside a backing file');
const hasAtftp = toolPresent('atftp', 'the atftp checks of files inside a backing file');

const BACKING = patternBytes(600_000, 31);
const SINGLE = { offset: 1000, size: 200_000 };
const EXTENTS: FileStretch[] = [
  { offset: 300_000, length: 50_000 },
  { offset: 10_000, length: 70_003 },
  { offset: 450_000, length: 49_997 },
];
const SINGLE_BYTES = BACKING.subarray(SINGLE.offset, SINGLE.offset + SINGLE.size);
const MULTI_BYTES = Buffer.concat(EXTENTS.map((extent) => BACKING.subarray(extent.offset, extent.offset + extent.length)));

let t: TftpCore;
let dir: string;
let backing: string;
let streaming: { app: FastifyInstance; base: string };
let removeProvider: () => void;

beforeAll(async () => {
  t = await startTftpCore({ settings: { max_blksize: 65464 } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'bw-stretch-'));
  backing = path.join(dir, 'backing.iso');
  await writeFile(backing, BACKING);
  removeProvider = t.core.area('boot-files').files.addVirtualProvider({
    async resolve(requested) {
      switch (requested) {
        case 'in/single.bin':
          return { kind: 'file', path: backing, size: SINGLE.size, offset: SINGLE.offset };
        case 'in/multi.bin':
          return { kind: 'file', path: backing, size: MULTI_BYTES.length, extents: EXTENTS };
        case 'in/empty.bin':
          return { kind: 'file', path: backing, size: 0, offset: 5 };
        case 'in/past-end.bin':
          // An ISO replaced by a shorter one under a mount: the stretch runs past the file.
          return { kind: 'file', path: backing, size: 20_000, offset: BACKING.length - 10_000 };
        default:
          return null;
      }
    },
  });
  // The same boot files through a plugin that never uses sendfile: the read-stream path.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(
    httpBootPlugin(
      { bootFiles: t.core.area('boot-files').files, metrics: t.core.kernel.metrics, events: t.core.kernel.events, log: t.core.kernel.log },
      { sendfile: { enabled: false } },
    ),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  streaming = { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/boot` };
});
afterAll(async () => {
  removeProvider?.();
  await streaming?.app.close();
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function body(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

const servers = () => [
  [sendfileAvailable() ? 'sendfile' : 'stream (no addon)', `${t.core.url()}/boot`],
  ['stream', streaming.base],
];

describe('HTTP /boot/ serving stretches of a backing file', () => {
  it.each(['sendfile', 'stream'])('sends the whole single-stretch and multi-extent files byte for byte (%s)', async (which) => {
    const base = servers()[which === 'sendfile' ? 0 : 1]![1]!;
    for (const [name, expected] of [['single', SINGLE_BYTES], ['multi', MULTI_BYTES]] as const) {
      const res = await fetch(`${base}/in/${name}.bin`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(expected.length));
      expect((await body(res)).equals(expected), name).toBe(true);
    }
  });

  // Edges: first byte, last byte, suffix, across each extent boundary, open-ended from inside the last extent.
  const EDGES: Array<[string, number, number]> = [
    ['0-0', 0, 0],
    ['-1', MULTI_BYTES.length - 1, MULTI_BYTES.length - 1],
    ['49999-50000', 49_999, 50_000],
    ['120002-120003', 120_002, 120_003],
    ['40000-130000', 40_000, 130_000],
    ['150000-', 150_000, MULTI_BYTES.length - 1],
    [`0-${MULTI_BYTES.length + 100}`, 0, MULTI_BYTES.length - 1],
  ];
  it.each(['sendfile', 'stream'])('answers ranges at the edges of the extents with exactly those bytes (%s)', async (which) => {
    const base = servers()[which === 'sendfile' ? 0 : 1]![1]!;
    for (const [range, start, end] of EDGES) {
      const res = await fetch(`${base}/in/multi.bin`, { headers: { range: `bytes=${range}` } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${MULTI_BYTES.length}`);
      expect((await body(res)).equals(MULTI_BYTES.subarray(start, end + 1)), range).toBe(true);
    }
    const single = await fetch(`${base}/in/single.bin`, { headers: { range: `bytes=${SINGLE.size - 10}-` } });
    expect(single.status).toBe(206);
    expect((await body(single)).equals(SINGLE_BYTES.subarray(SINGLE.size - 10))).toBe(true);
  });

  it('refuses a range starting at the end of the inner file (416), not of the backing file', async () => {
    const res = await fetch(`${t.core.url()}/boot/in/single.bin`, { headers: { range: `bytes=${SINGLE.size}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${SINGLE.size}`);
  });

  it('answers HEAD with the inner size and gives each inner file its own strong ETag that If-Range honours', async () => {
    const head = await fetch(`${t.core.url()}/boot/in/multi.bin`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(MULTI_BYTES.length));
    const single = await fetch(`${t.core.url()}/boot/in/single.bin`, { method: 'HEAD' });
    const multiTag = head.headers.get('etag');
    expect(multiTag).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);
    expect(single.headers.get('etag')).not.toBe(multiTag);
    const current = await fetch(`${t.core.url()}/boot/in/multi.bin`, { headers: { range: 'bytes=10-19', 'if-range': multiTag ?? '' } });
    expect(current.status).toBe(206);
    expect((await body(current)).equals(MULTI_BYTES.subarray(10, 20))).toBe(true);
    const stale = await fetch(`${t.core.url()}/boot/in/multi.bin`, { headers: { range: 'bytes=10-19', 'if-range': '"0-0-0"' } });
    expect(stale.status).toBe(200);
    expect((await body(stale)).equals(MULTI_BYTES)).toBe(true);
    const notModified = await fetch(`${t.core.url()}/boot/in/multi.bin`, { headers: { 'if-none-match': multiTag ?? '' } });
    expect(notModified.status).toBe(304);
  });

  it('serves an empty inner file as 0 bytes and a stretch past the backing file as 404', async () => {
    const empty = await fetch(`${t.core.url()}/boot/in/empty.bin`);
    expect(empty.status).toBe(200);
    expect((await body(empty)).length).toBe(0);
    expect((await fetch(`${t.core.url()}/boot/in/past-end.bin`)).status).toBe(404);
  });

  it.runIf(hasCurl)('curl fetches ranges of the multi-extent file like any boot file', async () => {
    for (const [range, start, end] of [['49990-50009', 49_990, 50_009], ['169000-', 169_000, MULTI_BYTES.length - 1]] as const) {
      const { stdout } = await run('curl', ['-sS', '-r', range, `${t.core.url()}/boot/in/multi.bin`], { encoding: 'buffer', timeout: 20_000 });
      expect(Buffer.from(stdout).equals(MULTI_BYTES.subarray(start, end + 1)), range).toBe(true);
    }
  });
});

describe('TFTP serving stretches of a backing file (worker thread)', () => {
  it.each([['512'], ['1468'], ['8192'], ['65464']])('sends both files byte for byte with blksize %s and tsize the inner size', async (blksize) => {
    for (const [name, expected] of [['single', SINGLE_BYTES], ['multi', MULTI_BYTES]] as const) {
      const res = await tftpGet({ port: t.port, file: `in/${name}.bin`, options: { blksize, tsize: '0' } });
      expect(res.error, name).toBeNull();
      expect(res.oack?.tsize).toBe(String(expected.length));
      expect(res.data.equals(expected), `${name} blksize ${blksize}`).toBe(true);
    }
  });

  it('answers a stretch past the backing file with "file not found"', async () => {
    expect((await tftpGet({ port: t.port, file: 'in/past-end.bin' })).error).toMatchObject({ code: 1 });
  });

  it('sends netascii from the stretches too', async () => {
    const res = await tftpGet({ port: t.port, file: 'in/single.bin', mode: 'netascii' });
    expect(res.error).toBeNull();
    expect(res.data.equals(toNetascii(SINGLE_BYTES))).toBe(true);
  });

  it.runIf(hasAtftp)('atftp downloads the multi-extent file intact with blksize 1468 and 65464', async () => {
    for (const blksize of ['1468', '65464']) {
      const local = path.join(dir, `atftp-${blksize}`);
      await run('atftp', ['--option', `blksize ${blksize}`, '--option', 'tsize enable', '--tftp-timeout', '2', '-g', '-r', 'in/multi.bin', '-l', local, '127.0.0.1', String(t.port)], {
        timeout: 30_000,
      });
      expect((await readFile(local)).equals(MULTI_BYTES), `blksize ${blksize}`).toBe(true);
    }
  });
});
