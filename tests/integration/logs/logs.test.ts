import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { SseClient } from '../events/sse-client.js';
import { as, stubAuthenticator } from '../events/stub-auth.js';

let t: TestCore | null = null;

afterEach(async () => {
  await t?.close();
  t = null;
});

const DAY = 86_400_000;

interface FileRow {
  name: string;
  size: number;
  modified_at: string;
  current: boolean;
}

/** A core (file logging off) with hand-made files in <data-dir>/logs, each `ageDays` old. */
async function coreWithLogFiles(files: { name: string; bytes: number; ageDays: number }[]): Promise<{ core: TestCore; logDir: string }> {
  t = await createTestCore({ authenticator: stubAuthenticator });
  const logDir = path.join(t.dataDir, 'logs');
  await mkdir(logDir, { recursive: true });
  const now = Date.now();
  for (const file of files) {
    const target = path.join(logDir, file.name);
    await writeFile(target, 'x'.repeat(file.bytes));
    const time = new Date(now - file.ageDays * DAY);
    await utimes(target, time, time);
  }
  return { core: t, logDir };
}

const FILES = [
  { name: 'bootwright.log', bytes: 1000, ageDays: 40 },
  { name: 'bootwright-2024-01-01T00-00-00.000Z.log', bytes: 3000, ageDays: 30 },
  { name: 'bootwright-2024-02-01T00-00-00.000Z.log', bytes: 2000, ageDays: 20 },
  { name: 'bootwright-2024-03-01T00-00-00.000Z.log', bytes: 1500, ageDays: 5 },
  { name: 'bootwright-2024-03-02T00-00-00.000Z.log', bytes: 500, ageDays: 1 },
];

async function cleanup(core: TestCore, payload: object) {
  return core.core.http.inject({
    method: 'POST',
    url: '/api/v1/logs/cleanup',
    headers: { ...as('operator'), 'content-type': 'application/json' },
    payload,
  });
}

describe('log files', () => {
  it('lists the log files newest first and marks the current one', async () => {
    const { core } = await coreWithLogFiles(FILES);
    await writeFile(path.join(core.dataDir, 'logs', 'notes.txt'), 'not a log');
    const response = await core.core.http.inject({ method: 'GET', url: '/api/v1/logs/files', headers: as('viewer') });
    expect(response.statusCode).toBe(200);
    const rows = response.json<{ data: FileRow[] }>().data;
    expect(rows.map((row) => row.name)).toEqual([
      'bootwright-2024-03-02T00-00-00.000Z.log',
      'bootwright-2024-03-01T00-00-00.000Z.log',
      'bootwright-2024-02-01T00-00-00.000Z.log',
      'bootwright-2024-01-01T00-00-00.000Z.log',
      'bootwright.log',
    ]);
    expect(rows.filter((row) => row.current).map((row) => row.name)).toEqual(['bootwright.log']);
    expect(rows[0]).toMatchObject({ size: 500, current: false });
    expect(Date.parse(rows[0]!.modified_at)).not.toBeNaN();
  });

  it('reports disk usage of the logs and of the data directory\'s file system', async () => {
    const { core } = await coreWithLogFiles(FILES);
    const response = await core.core.http.inject({ method: 'GET', url: '/api/v1/logs/disk-usage', headers: as('viewer') });
    const usage = response.json<{ data: { bytes: number; files: number; fs_free_bytes: number; fs_total_bytes: number } }>().data;
    expect(usage).toMatchObject({ bytes: 8000, files: 5 });
    expect(usage.fs_total_bytes).toBeGreaterThan(0);
    expect(usage.fs_free_bytes).toBeLessThanOrEqual(usage.fs_total_bytes);
  });

  it('lists nothing when there is no logs directory yet', async () => {
    t = await createTestCore({ authenticator: stubAuthenticator });
    const response = await t.core.http.inject({ method: 'GET', url: '/api/v1/logs/files', headers: as('viewer') });
    expect(response.json()).toEqual({ success: true, data: [] });
  });
});

describe('POST /logs/cleanup', () => {
  it('deletes archives older than N days, never the current file', async () => {
    const { core, logDir } = await coreWithLogFiles(FILES);
    const response = await cleanup(core, { older_than_days: 10 });
    expect(response.statusCode).toBe(200);
    const result = response.json<{ data: { deleted: FileRow[]; bytes_freed: number; remaining_bytes: number; remaining_files: number } }>().data;
    expect(result.deleted.map((file) => file.name).sort()).toEqual([
      'bootwright-2024-01-01T00-00-00.000Z.log',
      'bootwright-2024-02-01T00-00-00.000Z.log',
    ]);
    expect(result).toMatchObject({ bytes_freed: 5000, remaining_bytes: 3000, remaining_files: 3 });
    expect((await readdir(logDir)).sort()).toEqual([
      'bootwright-2024-03-01T00-00-00.000Z.log',
      'bootwright-2024-03-02T00-00-00.000Z.log',
      'bootwright.log',
    ]);
  });

  it('deletes the oldest archives until the total fits, counting but keeping the current file', async () => {
    const { core, logDir } = await coreWithLogFiles(FILES);
    // 8000 bytes in all; the limit is 3500 bytes: the two oldest archives (5000) go, leaving 3000.
    const response = await cleanup(core, { max_total_mb: 3500 / (1024 * 1024) });
    const result = response.json<{ data: { deleted: FileRow[]; remaining_bytes: number } }>().data;
    expect(result.deleted.map((file) => file.name)).toEqual([
      'bootwright-2024-01-01T00-00-00.000Z.log',
      'bootwright-2024-02-01T00-00-00.000Z.log',
    ]);
    expect(result.remaining_bytes).toBe(3000);
    const zero = await cleanup(core, { max_total_mb: 0 });
    expect(zero.json<{ data: { remaining_files: number } }>().data.remaining_files).toBe(1);
    expect(await readdir(logDir)).toEqual(['bootwright.log']);
  });

  it('needs at least one criterion and valid values', async () => {
    const { core, logDir } = await coreWithLogFiles(FILES);
    for (const [payload, field] of [
      [{}, 'body'],
      [{ older_than_days: -1 }, 'body.older_than_days'],
      [{ max_total_mb: '5' }, 'body.max_total_mb'],
      [{ older_than_days: 1, everything: true }, 'body.everything'],
    ] as const) {
      const response = await cleanup(core, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field }] });
    }
    const empty = await core.core.http.inject({ method: 'POST', url: '/api/v1/logs/cleanup', headers: as('operator') });
    expect(empty.statusCode).toBe(400);
    expect(await readdir(logDir)).toHaveLength(5);
  });

  it('is for operators', async () => {
    const { core } = await coreWithLogFiles(FILES);
    const response = await core.core.http.inject({
      method: 'POST',
      url: '/api/v1/logs/cleanup',
      headers: { ...as('viewer'), 'content-type': 'application/json' },
      payload: { older_than_days: 1 },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /logs/stream', () => {
  it('delivers log lines written after subscribing, filtered by level and service', async () => {
    t = await createTestCore({ authenticator: stubAuthenticator, config: { logLevel: 'debug' } });
    await t.core.start();
    const client = await SseClient.open(`${t.core.url()}/api/v1/logs/stream?level=warn&service=probe,dhcp`);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream');
    const logs = t.core.kernel.logs;
    logs.logger('probe').info('below the level');
    logs.logger('other').error('another service');
    logs.logger('probe').warn('wanted line', { password: 'hunter2', lease: 7 });
    const frame = await client.nextEvent();
    expect(frame.id).toBeUndefined();
    expect(frame.event).toBe('log');
    expect(JSON.parse(frame.data!)).toMatchObject({
      level: 'warn',
      scope: 'probe',
      message: 'wanted line',
      context: { password: '[redacted]', lease: 7 },
    });
    logs.logger('dhcp').error('second service');
    expect(JSON.parse((await client.nextEvent()).data!)).toMatchObject({ scope: 'dhcp', message: 'second service' });
    client.close();
  });

  it('rejects an unknown level', async () => {
    t = await createTestCore({ authenticator: stubAuthenticator });
    await t.core.start();
    const response = await fetch(`${t.core.url()}/api/v1/logs/stream?level=loud`);
    expect(response.status).toBe(400);
  });

  it('delivers the same log messages over the IPC stream hub', async () => {
    t = await createTestCore({ authenticator: stubAuthenticator });
    const received: unknown[] = [];
    const close = t.core.streams.subscribe({ stream: 'logs', params: { level: 'error', service: 'probe' } }, (message) => received.push(message));
    t.core.kernel.logs.logger('probe').warn('below the level');
    t.core.kernel.logs.logger('probe').error('wanted');
    close();
    t.core.kernel.logs.logger('probe').error('after close');
    expect(received).toMatchObject([{ event: 'log', data: { scope: 'probe', message: 'wanted', level: 'error' } }]);
    expect(() => t!.core.streams.subscribe({ stream: 'logs', params: { colour: 'red' } }, () => undefined)).toThrow(/params\.colour/);
  });
});
