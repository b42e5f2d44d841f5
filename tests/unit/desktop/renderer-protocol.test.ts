import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_CSP } from '../../../src-main/api/http-app.js';
import { createRendererProtocolHandler, resolveRendererTarget } from '../../../src-main/desktop/renderer-protocol.js';
import { tempDir } from '../../helpers/test-core.js';

let dir: { dir: string; remove: () => Promise<void> };
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  dir = await tempDir('bootwright-renderer-');
  await mkdir(path.join(dir.dir, 'assets'));
  await writeFile(path.join(dir.dir, 'index.html'), '<!doctype html><title>index</title>');
  await writeFile(path.join(dir.dir, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(path.join(dir.dir, 'favicon.png'), Buffer.from([0x89, 0x50]));
  await mkdir(path.join(dir.dir, 'folder.d'));
  handle = createRendererProtocolHandler(dir.dir);
});

afterAll(async () => {
  await dir.remove();
});

describe('resolveRendererTarget', () => {
  it.each([
    ['app://bootwright/', { kind: 'spa' }],
    ['app://bootwright/index.html', { kind: 'spa' }],
    ['app://bootwright/services', { kind: 'spa' }],
    ['app://bootwright/services/dns?x=1', { kind: 'spa' }],
    ['app://other/', { kind: 'not-found' }],
    ['file:///etc/passwd', { kind: 'not-found' }],
    ['app://bootwright/%E0%A4%A', { kind: 'not-found' }],
    ['app://bootwright/a%00.js', { kind: 'not-found' }],
  ])('%s → %o', (url, expected) => {
    expect(resolveRendererTarget('/srv/renderer', url)).toEqual(expected);
  });

  it('maps assets inside the directory and never outside it', () => {
    expect(resolveRendererTarget('/srv/renderer', 'app://bootwright/assets/index-abc.js')).toEqual({ kind: 'file', file: path.resolve('/srv/renderer/assets/index-abc.js') });
    // Dot segments, raw or percent-encoded, are resolved against the root, never above it.
    for (const url of ['app://bootwright/../../etc/passwd.txt', 'app://bootwright/..%2f..%2fetc/passwd.txt', 'app://bootwright/assets/..%2f..%2f..%2fetc/passwd.txt']) {
      expect(resolveRendererTarget('/srv/renderer', url)).toEqual({ kind: 'file', file: path.resolve('/srv/renderer/etc/passwd.txt') });
    }
  });
});

describe('the app:// protocol handler', () => {
  it('serves index.html with the CSP for the root and for client-side routes (deep links)', async () => {
    for (const url of ['app://bootwright/', 'app://bootwright/services', 'app://bootwright/services/dns']) {
      const response = await handle(new Request(url));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP);
      expect(await response.text()).toContain('<title>index</title>');
    }
  });

  it('serves assets with their content type and no CSP header', async () => {
    const response = await handle(new Request('app://bootwright/assets/index-abc.js'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('console.log(1)');
    expect((await handle(new Request('app://bootwright/favicon.png'))).headers.get('content-type')).toBe('image/png');
  });

  it('answers 404 for missing files, other hosts and directories, 405 for writes', async () => {
    expect((await handle(new Request('app://bootwright/assets/missing.js'))).status).toBe(404);
    expect((await handle(new Request('app://evil/'))).status).toBe(404);
    expect((await handle(new Request('app://bootwright/folder.d'))).status).toBe(404);
    expect((await handle(new Request('app://bootwright/', { method: 'POST', body: 'x' }))).status).toBe(405);
  });

  it('answers HEAD without a body', async () => {
    const response = await handle(new Request('app://bootwright/', { method: 'HEAD' }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});
