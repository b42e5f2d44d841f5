import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Nic } from '../../../src-main/network/nic.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { bearerHeaders } from '../../helpers/auth.js';
import { tftpGet } from './tftp-client.js';
import { freeUdpPort, loopbackNics, patternBytes, startTftpCore } from './tftp-harness.js';

const opened: TestCore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

type Json = { success: boolean; data: Record<string, unknown>; code?: string; error?: string; details?: { field: string }[] };
async function call(t: TestCore, method: 'GET' | 'PUT', body?: unknown) {
  const res = await t.core.ipc.invoke({ method, path: '/api/v1/services/tftp', body });
  return { status: res.status, body: res.body as Json };
}

describe('GET/PUT /services/tftp', () => {
  it('shows the defaults: port 69, the boot root, blksize 1468, windowsize 64', async () => {
    const t = await createTestCore({ nicReader: loopbackNics() });
    opened.push(t);
    const res = await call(t, 'GET');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      enabled: true,
      port: 69,
      root: path.join(t.dataDir, 'boot'),
      max_blksize: 1468,
      max_windowsize: 64,
      timeout: 2,
      retries: 5,
    });
  });

  it('validates every field and changes nothing on a bad one', async () => {
    const t = await createTestCore({ nicReader: loopbackNics() });
    opened.push(t);
    for (const [body, field] of [
      [{ port: 0 }, 'body.port'],
      [{ port: 70000 }, 'body.port'],
      [{ max_blksize: 65465 }, 'body.max_blksize'],
      [{ max_blksize: 511 }, 'body.max_blksize'],
      [{ max_windowsize: 65 }, 'body.max_windowsize'],
      [{ timeout: 0 }, 'body.timeout'],
      [{ retries: 21 }, 'body.retries'],
      [{ port: '69' }, 'body.port'],
      [{ root: 'relative/dir' }, 'body.root'],
      [{ root: '/does/not/exist/bw' }, 'body.root'],
      [{ unknown: 1 }, 'body'],
    ] as const) {
      const res = await call(t, 'PUT', { max_windowsize: 8, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(field);
    }
    expect((await call(t, 'GET')).body.data).toMatchObject({ max_windowsize: 64, port: 69 });
  });

  it('needs the operator role to change settings', async () => {
    const t = await createTestCore({ nicReader: loopbackNics() });
    opened.push(t);
    const res = await t.core.http.inject({ method: 'PUT', url: '/api/v1/services/tftp', headers: await bearerHeaders(t.core, 'viewer'), payload: { retries: 3 } });
    expect(res.statusCode).toBe(403);
    const read = await t.core.http.inject({ method: 'GET', url: '/api/v1/services/tftp', headers: await bearerHeaders(t.core, 'viewer') });
    expect(read.statusCode).toBe(200);
  });

  it('restarts the running server on a change: a new root and port take effect', async () => {
    const t = await startTftpCore({ files: { 'a.bin': 'in the boot root' } });
    opened.push(t);
    // Inside the built-in allowed root <data-dir>/images (served roots must lie in an allowed root).
    const other = path.join(t.dataDir, 'images', 'other');
    await mkdir(other, { recursive: true });
    await writeFile(path.join(other, 'a.bin'), 'in the other root');
    const port = await freeUdpPort();
    const res = await call(t, 'PUT', { root: other, port, max_blksize: 4096 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ root: other, port, max_blksize: 4096, enabled: true });
    expect(t.core.kernel.services.get('tftp')).toMatchObject({ state: 'running', listen: [`udp 127.0.0.1:${port}`] });
    expect((await tftpGet({ port, file: 'a.bin' })).data.toString()).toBe('in the other root');
    expect((await tftpGet({ port, file: 'a.bin', options: { blksize: '9000' } })).oack).toEqual({ blksize: '4096' });
    // The bundled boot loaders were copied into the new root at the restart.
    expect((await tftpGet({ port, file: 'undionly.kpxe' })).error).toBeNull();
    // null puts the boot root back.
    expect((await call(t, 'PUT', { root: null })).body.data).toMatchObject({ root: t.root });
    expect((await tftpGet({ port, file: 'a.bin' })).data.toString()).toBe('in the boot root');
  });

  it('enabled: false stops the server and clears auto-start; true starts it again', async () => {
    const t = await startTftpCore({ files: { 'a.bin': 'x' } });
    opened.push(t);
    expect((await call(t, 'PUT', { enabled: false })).body.data).toMatchObject({ enabled: false });
    expect(t.core.kernel.services.get('tftp')).toMatchObject({ state: 'stopped', auto_start: false });
    expect((await call(t, 'PUT', { enabled: true })).body.data).toMatchObject({ enabled: true });
    expect(t.core.kernel.services.get('tftp')).toMatchObject({ state: 'running', auto_start: true });
    expect((await tftpGet({ port: t.port, file: 'a.bin' })).data.toString()).toBe('x');
  });
});

describe('TFTP follows the served interfaces', () => {
  it('binds new addresses and releases removed ones without a restart', async () => {
    let addresses = ['127.0.0.1'];
    const nics = (): Nic[] => loopbackNics(addresses)();
    const t = await createTestCore({ nicReader: nics, autoStartServices: ['tftp'] });
    opened.push(t);
    const port = await freeUdpPort();
    await t.core.area('tftp').settings.update({ port });
    await t.core.area('boot-files').files.ensureRoot();
    await writeFile(path.join(t.core.area('boot-files').files.root, 'a.bin'), 'hello');
    await t.core.start();
    expect(t.core.kernel.services.get('tftp').listen).toEqual([`udp 127.0.0.1:${port}`]);
    addresses = ['127.0.0.1', '127.0.0.2'];
    t.core.kernel.network.refresh();
    await expect.poll(() => t.core.kernel.services.get('tftp').listen.sort()).toEqual([`udp 127.0.0.1:${port}`, `udp 127.0.0.2:${port}`]);
    expect((await tftpGet({ host: '127.0.0.2', port, file: 'a.bin' })).data.toString()).toBe('hello');
    addresses = ['127.0.0.2'];
    t.core.kernel.network.refresh();
    await expect.poll(() => t.core.kernel.services.get('tftp').listen).toEqual([`udp 127.0.0.2:${port}`]);
  });

  it('fails to start with a clear message when its port is taken', async () => {
    const dgram = await import('node:dgram');
    const blocker = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => blocker.bind(0, '127.0.0.1', resolve));
    const t = await createTestCore({ nicReader: loopbackNics(), autoStartServices: ['tftp'] });
    opened.push(t);
    await t.core.area('tftp').settings.update({ port: blocker.address().port });
    await t.core.start();
    expect(t.core.kernel.services.get('tftp')).toMatchObject({
      state: 'failed',
      last_error: expect.stringContaining(`listen udp 127.0.0.1:${blocker.address().port}: address already in use`),
    });
    await new Promise<void>((resolve) => blocker.close(resolve));
  });
});

describe('TFTP on the main thread', () => {
  it('serves the same way without a worker thread (the fallback)', async () => {
    const content = patternBytes(70_000, 5);
    const t = await startTftpCore({ threading: 'inline', files: { 'f.bin': content } });
    opened.push(t);
    const res = await tftpGet({ port: t.port, file: 'f.bin', options: { blksize: '1468', windowsize: '8', tsize: '0' } });
    expect(res.data.equals(content)).toBe(true);
    expect((await tftpGet({ port: t.port, file: '../x' })).error).toMatchObject({ code: 2 });
  });
});
