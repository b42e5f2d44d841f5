import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogSink } from '../../../src-main/core/logger.js';
import { archiveLogFile, archiveName, CURRENT_LOG_NAME, isArchiveName } from '../../../src-main/core/log-rotation.js';
import { tempDir } from '../../helpers/test-core.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function logsDir(): Promise<string> {
  const { dir, remove } = await tempDir('bootwright-logs-');
  cleanups.push(remove);
  return dir;
}

describe('log rotation', () => {
  it('names archives by UTC time without colons', () => {
    const time = new Date('2024-05-01T12:34:56.789Z');
    expect(archiveName(time)).toBe('bootwright-2024-05-01T12-34-56.789Z.log');
    expect(archiveName(time, 2)).toBe('bootwright-2024-05-01T12-34-56.789Z-2.log');
    expect(isArchiveName(archiveName(time, 2))).toBe(true);
    expect(isArchiveName(CURRENT_LOG_NAME)).toBe(false);
  });

  it('never overwrites an existing archive', async () => {
    const dir = await logsDir();
    const time = new Date('2024-05-01T12:00:00.000Z');
    const current = path.join(dir, CURRENT_LOG_NAME);
    await writeFile(path.join(dir, archiveName(time)), 'older archive\n');
    await writeFile(current, 'current content\n');
    const moved = archiveLogFile(current, time);
    expect(path.basename(moved)).toBe(archiveName(time, 1));
    expect(await readFile(moved, 'utf8')).toBe('current content\n');
    expect(await readFile(path.join(dir, archiveName(time)), 'utf8')).toBe('older archive\n');
    expect((await readdir(dir)).sort()).toEqual([archiveName(time), archiveName(time, 1)].sort());
  });

  it('keeps every rotated file of the log sink, losing no line', async () => {
    const dir = await logsDir();
    const sink = new LogSink({ logDir: dir, level: 'info', console: false, maxFileBytes: 400 });
    const log = sink.logger('rotation');
    const lines = 40;
    for (let n = 0; n < lines; n += 1) log.info(`line-${String(n).padStart(3, '0')} ${'x'.repeat(40)}`);
    const names = await readdir(dir);
    const archives = names.filter(isArchiveName);
    expect(names).toContain(CURRENT_LOG_NAME);
    expect(archives.length).toBeGreaterThan(2);
    expect(names.filter((name) => name !== CURRENT_LOG_NAME && !isArchiveName(name))).toEqual([]);
    let text = '';
    for (const name of names) text += await readFile(path.join(dir, name), 'utf8');
    const written = [...text.matchAll(/line-(\d{3})/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    expect(written).toEqual(Array.from({ length: lines }, (_, n) => n));
  });
});
