import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecoveryReport } from '../../../src-main/store/durable-json-adapter.js';
import { GroupCommit } from '../../../src-main/store/group-commit.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

interface Probe {
  id: number;
  created_at: string;
  updated_at: string;
  name: string;
}

let dir: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});
afterEach(async () => {
  await remove();
});

describe('Store collections', () => {
  it('assigns increasing ids that are never reused, with RFC 3339 UTC timestamps', async () => {
    const store = await Store.open({ dataDir: dir });
    const probes = store.collection<Probe>('probes');
    const a = await probes.insert({ name: 'a' });
    const b = await probes.insert({ name: 'b' });
    await probes.remove(b.id);
    const c = await probes.insert({ name: 'c' });
    expect([a.id, b.id, c.id]).toEqual([1, 2, 3]);
    expect(a.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await store.close();

    const reopened = await Store.open({ dataDir: dir });
    const again = reopened.collection<Probe>('probes');
    expect(again.all().map((row) => row.name)).toEqual(['a', 'c']);
    expect((await again.insert({ name: 'd' })).id).toBe(4);
    await reopened.close();
  });

  it('update keeps id and created_at and moves updated_at', async () => {
    const store = await Store.open({ dataDir: dir });
    const probes = store.collection<Probe>('probes');
    const row = await probes.insert({ name: 'a' }, new Date('2026-01-01T00:00:00Z'));
    const updated = await probes.update(row.id, { name: 'b' }, new Date('2026-01-02T00:00:00Z'));
    expect(updated).toMatchObject({ id: row.id, name: 'b', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z' });
    expect(await probes.update(999, { name: 'x' })).toBeUndefined();
    await store.close();
  });

  it('keeps each collection in its own journal, out of the JSON files', async () => {
    const store = await Store.open({ dataDir: dir });
    await store.collection<Probe>('probes').insert({ name: 'config row' });
    await store.collection<Probe>('events', 'events').insert({ name: 'event row' });
    await store.section('general', { server_name: 'x' }).set({ server_name: 'section value' });
    await store.close();
    const config = await readFile(path.join(dir, 'config.json'), 'utf8');
    expect(config).toContain('section value');
    expect(config).not.toContain('config row');
    const journal = async (file: string, name: string) => {
      const names = (await readdir(path.join(dir, 'collections', file))).filter((entry) => entry.startsWith(`${name}.`));
      return (await Promise.all(names.map((entry) => readFile(path.join(dir, 'collections', file, entry), 'utf8')))).join('');
    };
    expect(await journal('config', 'probes')).toContain('config row');
    expect(await journal('config', 'probes')).not.toContain('event row');
    expect(await journal('events', 'events')).toContain('event row');
  });

  it('sections merge stored values over defaults', async () => {
    const store = await Store.open({ dataDir: dir });
    const section = store.section('general', { server_name: 'bootwright', port: 53 });
    expect(section.get()).toEqual({ server_name: 'bootwright', port: 53 });
    await section.set({ server_name: 'lab', port: 53 });
    await store.close();
    const reopened = await Store.open({ dataDir: dir });
    expect(reopened.section('general', { server_name: 'bootwright', port: 53, added_later: true }).get()).toEqual({
      server_name: 'lab',
      port: 53,
      added_later: true,
    });
    await reopened.close();
  });
});

describe('Store files', () => {
  it('restores the last-good copy of a corrupt file, moves the bad one aside and reports it', async () => {
    const store = await Store.open({ dataDir: dir });
    await store.collection<Probe>('probes').insert({ name: 'precious' });
    await store.close(); // refreshes the last-good copy

    await writeFile(path.join(dir, 'config.json'), '{"schema_version": 1, "collections": {"probes": {"next_id": 2, "items": [');
    const reports: RecoveryReport[] = [];
    const recovered = await Store.open({ dataDir: dir, onRecovery: (report) => reports.push(report) });
    expect(recovered.collection<Probe>('probes').all().map((row) => row.name)).toEqual(['precious']);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ restoredFrom: 'last-good' });
    const files = await readdir(dir);
    expect(files.some((name) => name.startsWith('config.json.corrupt-'))).toBe(true);
    await recovered.close();
  });

  it('never silently starts empty: with no last-good copy it reports the loss and keeps the bad file', async () => {
    await writeFile(path.join(dir, 'config.json'), 'not json at all');
    const reports: RecoveryReport[] = [];
    const store = await Store.open({ dataDir: dir, onRecovery: (report) => reports.push(report) });
    expect(reports).toEqual([expect.objectContaining({ restoredFrom: 'empty' })]);
    const bad = (await readdir(dir)).find((name) => name.startsWith('config.json.corrupt-'));
    expect(bad).toBeDefined();
    expect(await readFile(path.join(dir, bad!), 'utf8')).toBe('not json at all');
    await store.close();
  });

  it('runs ordered migrations once and records the version', async () => {
    const applied: number[] = [];
    const migrations = {
      config: [
        { version: 1, description: 'initial', up: () => void applied.push(1) },
        { version: 2, description: 'add section', up: (data: { sections: Record<string, unknown> }) => { applied.push(2); data.sections.added = { ok: true }; } },
      ],
    };
    const store = await Store.open({ dataDir: dir, migrations });
    expect(applied).toEqual([1, 2]);
    expect(store.file('config').data.schema_version).toBe(2);
    await store.close();
    const again = await Store.open({ dataDir: dir, migrations });
    expect(applied).toEqual([1, 2]);
    expect(again.file('config').data.sections.added).toEqual({ ok: true });
    await again.close();
  });

  it('refuses a file written by a newer version instead of losing its data', async () => {
    await writeFile(path.join(dir, 'config.json'), JSON.stringify({ schema_version: 99, collections: {}, sections: {} }));
    await expect(Store.open({ dataDir: dir })).rejects.toThrow(/schema version 99, newer than this build understands/);
  });

  it('ignores a leftover temporary file (a write that was never acknowledged)', async () => {
    const store = await Store.open({ dataDir: dir });
    await store.collection<Probe>('probes').insert({ name: 'kept' });
    await store.close();
    await writeFile(path.join(dir, 'config.json.tmp'), '{"half": ');
    const again = await Store.open({ dataDir: dir });
    expect(again.collection<Probe>('probes').all().map((row) => row.name)).toEqual(['kept']);
    expect((await readdir(dir)).includes('config.json.tmp')).toBe(false);
    await again.close();
  });
});

describe('GroupCommit', () => {
  it('coalesces commits made while a write is in flight into one further write', async () => {
    let writes = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const committer = new GroupCommit(async () => {
      writes += 1;
      if (writes === 1) await gate;
    });
    const first = committer.commit();
    const waiting = Array.from({ length: 50 }, () => committer.commit());
    release();
    await Promise.all([first, ...waiting]);
    expect(writes).toBe(2);
  });

  it('rejects the waiting callers when the write fails and recovers on the next commit', async () => {
    let fail = true;
    const committer = new GroupCommit(async () => {
      if (fail) throw new Error('disk full');
    });
    await expect(committer.commit()).rejects.toThrow('disk full');
    fail = false;
    await expect(committer.commit()).resolves.toBeUndefined();
  });

  it('under concurrent inserts writes far fewer times than it commits', async () => {
    let batches = 0;
    let records = 0;
    const store = await Store.open({ dataDir: dir, onJournalBatch: (_collection, count) => {
      batches += 1;
      records += count;
    } });
    const probes = store.collection<Probe>('probes');
    await Promise.all(Array.from({ length: 200 }, (_, i) => probes.insert({ name: `row ${i}` })));
    expect(probes.size).toBe(200);
    expect(records).toBe(200);
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(20);
    await store.close();
  });
});
