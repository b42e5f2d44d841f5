import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

/** A release file of a few chunks, so the download streams. */
const PAYLOAD = Buffer.alloc(256 * 1024, 7);
PAYLOAD.write('bootwright release', 0);
const PAYLOAD_SHA = createHash('sha256').update(PAYLOAD).digest('hex');

let feedServer: http.Server;
let base: string;

/** The update feed and release files, on 127.0.0.1. /hang accepts and never answers. */
function startFeedServer(): Promise<void> {
  feedServer = http.createServer((req, res) => {
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    switch (req.url) {
      case '/feed.json':
        return json({ version: '99.1.0', url: '/files/bootwright-99.1.0.bin', sha256: PAYLOAD_SHA, notes: 'Faster DHCP', published_at: '2030-01-01T00:00:00Z', channel: 'stable' });
      case '/old.json':
        return json({ version: '0.0.1', url: `${base}/files/bootwright-99.1.0.bin`, sha256: PAYLOAD_SHA });
      case '/bad-sum.json':
        return json({ version: '99.1.0', url: '/files/bootwright-99.1.0.bin', sha256: 'ab'.repeat(32) });
      case '/stalls.json':
        return json({ version: '99.1.0', url: '/hang', sha256: PAYLOAD_SHA });
      case '/no-version.json':
        return json({ url: '/files/x.bin', sha256: PAYLOAD_SHA });
      case '/not-json':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      case '/files/bootwright-99.1.0.bin':
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(PAYLOAD.length) });
        for (let offset = 0; offset < PAYLOAD.length; offset += 64 * 1024) res.write(PAYLOAD.subarray(offset, offset + 64 * 1024));
        return res.end();
      case '/hang':
        return; // never answers
      default:
        return res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    feedServer.listen(0, '127.0.0.1', () => {
      base = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
      resolve();
    });
  });
}

/** A port nothing listens on: bind one, then release it. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(startFeedServer);
afterAll(async () => {
  feedServer.closeAllConnections();
  await new Promise<void>((resolve) => feedServer.close(() => resolve()));
});

const opened: TestCore[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

interface Reply {
  status: number;
  body: { success: boolean; data: Record<string, unknown>; error?: string; code?: string };
}

async function core(feedUrl: string | null, updateTimeoutMs = 2_000): Promise<TestCore> {
  const t = await createTestCore({ authenticator: roleAuthenticator, updateTimeoutMs });
  opened.push(t);
  if (feedUrl !== null) {
    const res = await t.core.ipc.invoke({ method: 'PUT', path: '/api/v1/settings/general', body: { update_feed_url: feedUrl } });
    expect(res.status).toBe(200);
  }
  return t;
}

async function call(t: TestCore, method: 'GET' | 'POST', url: string, role: 'viewer' | 'admin' = 'admin'): Promise<Reply> {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role) });
  return { status: res.statusCode, body: res.json() };
}

describe('GET /version', () => {
  it('reports version, build and runtime', async () => {
    const t = await core(null);
    const res = await call(t, 'GET', '/version', 'viewer');
    expect(res.status).toBe(200);
    const pkg = JSON.parse(await readFile(path.resolve('package.json'), 'utf8')) as { version: string };
    expect(res.body.data).toMatchObject({ version: pkg.version, node: process.versions.node, electron: null, platform: process.platform, arch: process.arch });
    expect(Object.keys(res.body.data).sort()).toEqual(['arch', 'build_date', 'commit', 'electron', 'node', 'platform', 'version']);
  });
});

describe('POST /version/check', () => {
  it('compares the feed version with the running one', async () => {
    const t = await core(`${base}/feed.json`);
    const res = await call(t, 'POST', '/version/check');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      current: t.core.kernel.build.version,
      latest: '99.1.0',
      update_available: true,
      url: `${base}/files/bootwright-99.1.0.bin`,
      notes: 'Faster DHCP',
      published_at: '2030-01-01T00:00:00Z',
    });
    const older = await core(`${base}/old.json`);
    expect((await call(older, 'POST', '/version/check')).body.data).toMatchObject({ latest: '0.0.1', update_available: false, notes: null });
  });

  it('needs the admin role', async () => {
    const t = await core(`${base}/feed.json`);
    expect((await call(t, 'POST', '/version/check', 'viewer')).status).toBe(403);
  });

  it('answers 409 with a clear message when no feed is configured', async () => {
    const t = await core(null);
    const res = await call(t, 'POST', '/version/check');
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('update_feed_url');
  });

  it('answers 502 UPSTREAM_FAILED for invalid feeds, HTTP errors and unreachable servers', async () => {
    const cases: [string, RegExp][] = [
      [`${base}/no-version.json`, /"version" must be a semantic version/],
      [`${base}/not-json`, /not valid JSON/],
      [`${base}/missing.json`, /HTTP 404/],
      [`http://127.0.0.1:${await closedPort()}/feed.json`, /unreachable: ECONNREFUSED/],
    ];
    for (const [url, message] of cases) {
      const t = await core(url);
      const res = await call(t, 'POST', '/version/check');
      expect(res.status, url).toBe(502);
      expect(res.body.code).toBe('UPSTREAM_FAILED');
      expect(res.body.error).toMatch(message);
    }
  });

  it('gives up on a feed that never answers after the timeout', async () => {
    const t = await core(`${base}/hang`, 300);
    const res = await call(t, 'POST', '/version/check');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'UPSTREAM_FAILED', error: 'update feed did not answer within 0.3 s' });
  });
});

describe('POST /version/download', () => {
  it('downloads the release, verifies its SHA-256 and reports progress', async () => {
    const t = await core(`${base}/feed.json`);
    const res = await call(t, 'POST', '/version/download');
    expect(res.status).toBe(200);
    const file = path.join(t.dataDir, 'updates', 'bootwright-99.1.0.bin');
    expect(res.body.data).toEqual({ file, bytes: PAYLOAD.length, sha256: PAYLOAD_SHA, version: '99.1.0' });
    expect((await readFile(file)).equals(PAYLOAD)).toBe(true);
    expect(await readdir(path.join(t.dataDir, 'updates'))).toEqual(['bootwright-99.1.0.bin']);
    const kinds = t.core.kernel.events.all().map((e) => e.kind);
    expect(kinds).toContain('update.download.progress');
    expect(kinds).toContain('update.downloaded');
  });

  it('deletes the partial file and answers 502 on a checksum mismatch', async () => {
    const t = await core(`${base}/bad-sum.json`);
    const res = await call(t, 'POST', '/version/download');
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_FAILED');
    expect(res.body.error).toContain('checksum mismatch');
    expect(await readdir(path.join(t.dataDir, 'updates'))).toEqual([]);
    expect(t.core.kernel.events.all().map((e) => e.kind)).not.toContain('update.downloaded');
  });

  it('gives up on a release server that never answers and leaves no partial file', async () => {
    const t = await core(`${base}/stalls.json`, 300);
    const res = await call(t, 'POST', '/version/download');
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('update download did not answer within 0.3 s');
    expect(await readdir(path.join(t.dataDir, 'updates'))).toEqual([]);
  });

  it('answers 502 when the feed server is unreachable', async () => {
    const t = await core(`http://127.0.0.1:${await closedPort()}/feed.json`);
    const res = await call(t, 'POST', '/version/download');
    expect(res.status).toBe(502);
    expect(existsSync(path.join(t.dataDir, 'updates'))).toBe(false);
  });
});
