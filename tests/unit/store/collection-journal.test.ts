import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeJournalSnapshot } from '../../../src-main/store/journal.js';
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

const stamp = '2026-01-01T00:00:00.000Z';
const row = (id: number, name: string) => ({ id, name, created_at: stamp, updated_at: stamp });

/** config.json and auth.json as a version before journals wrote them: collections inside. */
async function writeOldFiles(): Promise<void> {
  await writeFile(path.join(dir, 'config.json'), JSON.stringify({
    schema_version: 2,
    collections: { hosts: { next_id: 7, items: [row(1, 'alpha'), row(4, 'delta')] }, empty: { next_id: 3, items: [] } },
    sections: { general: { server_name: 'kept' } },
  }));
  await writeFile(path.join(dir, 'auth.json'), JSON.stringify({
    schema_version: 1,
    collections: { users: { next_id: 2, items: [row(1, 'admin')] } },
    sections: {},
  }));
}

async function journalNames(file: string): Promise<string[]> {
  return (await readdir(path.join(dir, 'collections', file))).sort();
}

describe('collections on journals: migration from the JSON files', () => {
  it('moves collections out of config.json and auth.json once, keeping rows, id counters and sections', async () => {
    await writeOldFiles();
    const store = await Store.open({ dataDir: dir });
    expect(store.collection<Probe>('hosts').all().map((r) => r.name)).toEqual(['alpha', 'delta']);
    expect(store.collection<Probe>('hosts').nextId()).toBe(7);
    expect(store.collection<Probe>('empty').nextId()).toBe(3);
    expect(store.collection<Probe>('users', 'auth').get(1)?.name).toBe('admin');
    expect(store.section('general', { server_name: 'x' }).get().server_name).toBe('kept');
    // The JSON files no longer hold the rows; the journals' snapshots do.
    const config = JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8')) as { collections: object; sections: object };
    expect(config.collections).toEqual({});
    expect(config.sections).toEqual({ general: { server_name: 'kept' } });
    expect(await journalNames('config')).toEqual(['empty.snapshot.jsonl', 'hosts.snapshot.jsonl']);
    expect(await journalNames('auth')).toEqual(['users.snapshot.jsonl']);
    expect((await store.collection<Probe>('hosts').insert({ name: 'golf' })).id).toBe(7);
    await store.close();

    const again = await Store.open({ dataDir: dir });
    expect(again.collection<Probe>('hosts').all().map((r) => `${r.id} ${r.name}`)).toEqual(['1 alpha', '4 delta', '7 golf']);
    await again.close();
  });

  it('after a crash between the snapshot and the rewrite of config.json, takes the journal and drops the JSON copy', async () => {
    await writeOldFiles();
    // The earlier run had written the snapshot (and the journal moved on since), then died.
    await writeJournalSnapshot(path.join(dir, 'collections', 'config'), 'hosts', [
      { t: 'N', n: 9 },
      { t: 'U', r: row(1, 'alpha') },
      { t: 'U', r: row(8, 'hotel') },
    ]);
    const store = await Store.open({ dataDir: dir });
    expect(store.collection<Probe>('hosts').all().map((r) => r.name)).toEqual(['alpha', 'hotel']);
    expect(store.collection<Probe>('hosts').nextId()).toBe(9);
    // The collections without a journal yet were migrated from the JSON copy.
    expect(store.collection<Probe>('empty').nextId()).toBe(3);
    const config = JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8')) as { collections: object };
    expect(config.collections).toEqual({});
    await store.close();
  });

  it('ignores a snapshot left half written by a crash during the migration and migrates again', async () => {
    await writeOldFiles();
    const collections = path.join(dir, 'collections', 'config');
    await writeJournalSnapshot(collections, 'other', []);
    await writeFile(path.join(collections, 'hosts.snapshot.jsonl.tmp'), 'deadbeef {"t":"N","n"');
    const store = await Store.open({ dataDir: dir });
    expect(store.collection<Probe>('hosts').all().map((r) => r.name)).toEqual(['alpha', 'delta']);
    await store.close();
  });

  it('restoring an old last-good config.json (with collections) does not bring back removed rows', async () => {
    await writeOldFiles();
    const store = await Store.open({ dataDir: dir });
    await store.collection<Probe>('hosts').remove(1);
    await store.close();
    // config.json.last-good was saved from the file as read at the migration (rows inside); damage config.json.
    await writeFile(path.join(dir, 'config.json.last-good'), JSON.stringify({
      schema_version: 2,
      collections: { hosts: { next_id: 7, items: [row(1, 'alpha'), row(4, 'delta')] } },
      sections: { general: { server_name: 'kept' } },
    }));
    await writeFile(path.join(dir, 'config.json'), '{"schema_version": 2, "coll');
    const again = await Store.open({ dataDir: dir });
    expect(again.collection<Probe>('hosts').all().map((r) => r.name)).toEqual(['delta']);
    await again.close();
  });
});

describe('collections on journals: compaction', () => {
  it('compacts a busy collection into its snapshot and keeps the id counter past a removed last row', async () => {
    const store = await Store.open({ dataDir: dir, compactAfter: 50 });
    const probes = store.collection<Probe>('probes');
    const rows: Probe[] = [];
    for (let i = 0; i < 20; i += 1) rows.push(await probes.insert({ name: `p${i}` }));
    for (let round = 0; round < 5; round += 1) {
      await Promise.all(rows.map((r) => probes.update(r.id, { name: `p${r.id} round ${round}` })));
    }
    await probes.remove(20);
    await store.compactAll();
    const names = await journalNames('config');
    expect(names).toContain('probes.snapshot.jsonl');
    expect(names.filter((name) => /^probes\.\d+\.jsonl$/.test(name)).length).toBeLessThanOrEqual(1);
    await store.close();

    const again = await Store.open({ dataDir: dir });
    const reopened = again.collection<Probe>('probes');
    expect(reopened.size).toBe(19);
    expect(reopened.get(3)?.name).toBe('p3 round 4');
    expect(reopened.nextId()).toBe(21);
    expect((await reopened.insert({ name: 'new' })).id).toBe(21);
    await again.close();
  });

  it('replays a batch whole or not at all: a batch torn by a crash leaves none of its inserts and updates', async () => {
    const store = await Store.open({ dataDir: dir });
    const probes = store.collection<Probe>('probes');
    await probes.insert({ name: 'single' });
    const batch = await probes.writeMany(Array.from({ length: 100 }, (_, i) => ({ name: `bulk ${i}` })), [{ id: 1, patch: { name: 'changed by the batch' } }]);
    expect(batch.inserted.map((r) => r.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    expect(batch.updated.map((r) => r.name)).toEqual(['changed by the batch']);
    // The process dies here (no close, no compaction); the batch's line was torn half way by the crash:
    // its second half is still the zero-filled stretch the journal writes into.
    const [journal] = (await journalNames('config')).filter((name) => /^probes\.\d+\.jsonl$/.test(name));
    const file = path.join(dir, 'collections', 'config', journal!);
    const bytes = await readFile(file);
    const end = bytes.indexOf(0) === -1 ? bytes.length : bytes.indexOf(0);
    const lastLine = bytes.lastIndexOf(10, end - 2) + 1;
    expect(bytes.subarray(lastLine, end).toString('utf8')).toContain('"t":"B"');
    bytes.fill(0, lastLine + Math.floor((end - lastLine) / 2), end);
    await writeFile(file, bytes);

    const again = await Store.open({ dataDir: dir });
    const reopened = again.collection<Probe>('probes');
    expect(reopened.all().map((r) => r.name)).toEqual(['single']);
    await again.close();
  });

  it('does not rewrite config.json for a row write', async () => {
    const store = await Store.open({ dataDir: dir });
    await store.section('general', { server_name: 'x' }).set({ server_name: 'y' });
    const before = await readFile(path.join(dir, 'config.json'), 'utf8');
    const probes = store.collection<Probe>('probes');
    for (let i = 0; i < 10; i += 1) await probes.insert({ name: `p${i}` });
    expect(store.recordsWritten('config')).toBe(10);
    expect(await readFile(path.join(dir, 'config.json'), 'utf8')).toBe(before);
    await store.close();
  });
});
