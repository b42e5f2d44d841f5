import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src-main/audit/audit-log.js';
import { EventLog } from '../../../src-main/events/event-log.js';
import { Store } from '../../../src-main/store/store.js';
import { collectionOnDisk } from '../../helpers/store-journal.js';
import { tempDir } from '../../helpers/test-core.js';

/*
 * The event log on its journal (collections/events/events.*.jsonl): an event
 * is one appended record whatever the log holds, retention and compaction
 * keep the files bounded, a restart finds what was written, and the
 * events.json / audit.json of versions that kept the rows inside are moved.
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});
afterEach(async () => {
  await remove();
});

const eventsOnDisk = () => collectionOnDisk(dir, 'events', 'events');

describe('the events journal', () => {
  it('writes one record per event whatever the log holds, and never rewrites events.json', async () => {
    const store = await Store.open({ dataDir: dir });
    const log = new EventLog(store, { maxCount: 20_000, maxAgeDays: 30 });
    for (let n = 0; n < 5000; n += 1) log.emit({ kind: 'test.fill', message: `fill ${n}` });
    await log.durable();
    const file = path.join(dir, 'events.json');
    const before = { text: await readFile(file, 'utf8'), mtime: (await stat(file)).mtimeMs };
    const written = store.recordsWritten('events');
    log.emit({ kind: 'test.one', message: 'one more', mac: '52-54-00-00-00-01' });
    await log.durable();
    expect(store.recordsWritten('events') - written).toBe(1);
    expect(await readFile(file, 'utf8')).toBe(before.text);
    expect((await stat(file)).mtimeMs).toBe(before.mtime);
    await store.close();
  });

  it('finds every event after a restart, and ids continue', async () => {
    const store = await Store.open({ dataDir: dir });
    const log = new EventLog(store);
    const emitted = Array.from({ length: 50 }, (_, n) => log.emit({ kind: 'test.n', message: String(n), mac: '52:54:00:00:00:02', detail: { n } }));
    await log.durable();
    await store.close();

    const again = await Store.open({ dataDir: dir });
    const reopened = new EventLog(again);
    expect(reopened.all()).toEqual(emitted);
    expect(reopened.emit({ kind: 'test.next', message: 'next' }).id).toBe(51);
    await again.close();
  });

  it('keeps the files bounded: pruned events leave the journal at compaction, and a restart agrees', async () => {
    const store = await Store.open({ dataDir: dir, compactAfter: 50 });
    const log = new EventLog(store, { maxCount: 100, maxAgeDays: 30 });
    for (let n = 1; n <= 2000; n += 1) log.emit({ kind: 'test.n', message: `event ${n}` });
    await log.durable();
    expect(log.all().length).toBeLessThanOrEqual(110);
    expect(log.all().at(-1)?.message).toBe('event 2000');
    await store.compactAll();
    const files = (await readdir(path.join(dir, 'collections', 'events'))).filter((name) => name.startsWith('events.'));
    expect(files).toContain('events.snapshot.jsonl');
    // The snapshot holds what the log keeps (plus the id counter), not the 2,000 events.
    const lines = (await eventsOnDisk()).split('\n').filter((line) => line.includes('"t":"U"'));
    expect(lines).toHaveLength(log.all().length);
    const kept = log.all().map((event) => event.id);
    await store.close();

    const again = await Store.open({ dataDir: dir });
    const reopened = new EventLog(again, { maxCount: 100, maxAgeDays: 30 });
    expect(reopened.all().map((event) => event.id)).toEqual(kept);
    expect(reopened.emit({ kind: 'test.next', message: 'next' }).id).toBe(2001);
    await again.close();
  });

  it('prunes only the oldest prefix on a write and the rest by age in the full prune (a clock set back)', async () => {
    const store = await Store.open({ dataDir: dir });
    const log = new EventLog(store, { maxCount: 10, maxAgeDays: 1 });
    const now = new Date();
    const old = new Date(now.getTime() - 3 * 86_400_000);
    for (let n = 0; n < 10; n += 1) log.emit({ kind: 'test.new', message: `n${n}` }, now);
    log.emit({ kind: 'test.old', message: 'clock set back' }, old);
    // 12 > 11 (10 % slack): the write-triggered prune takes the two oldest by position and stops at the first
    // event within the age limit, so the old one behind it stays.
    log.emit({ kind: 'test.new', message: 'after' }, now);
    await log.durable();
    expect(log.all().map((event) => event.message)).toEqual(['n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9', 'clock set back', 'after']);
    expect(await log.prune(now)).toBe(1);
    expect(log.all().some((event) => event.kind === 'test.old')).toBe(false);
    await store.close();
  });

  it('survives a failed write: no unhandled rejection (the server would stop), the store reports it', async () => {
    const errors: string[] = [];
    const store = await Store.open({ dataDir: dir, onJournalError: (collection, err) => errors.push(`${collection}: ${err.message}`) });
    const log = new EventLog(store);
    // The journal file this run would create is a directory: its first batch fails.
    await mkdir(path.join(dir, 'collections', 'events', 'events.1.jsonl'), { recursive: true });
    log.emit({ kind: 'test.lost', message: 'cannot be written' });
    await expect(log.durable()).rejects.toThrow();
    expect(errors.join('\n')).toMatch(/^events\/events: /);
    await store.close();
  });
});

describe('migration from the events.json and audit.json of earlier versions', () => {
  const stamp = '2026-01-01T00:00:00.000Z';
  const event = (id: number) => ({ id, kind: 'dhcp.discover', level: 'info', message: `old ${id}`, mac: '52:54:00:00:00:03', ip: null, host_id: null, detail: { arch: 7 }, created_at: stamp, updated_at: stamp });
  const audit = (id: number) => ({
    id, user: 'admin', via: 'http', remote_address: '127.0.0.1', method: 'POST', path: '/api/v1/hosts', action: 'hosts.create', resource_type: 'hosts',
    resource_id: String(id), outcome: 'success', status: 201, request_id: `r${id}`, authenticated: true, count: 1, aggregate: null, created_at: stamp, updated_at: stamp,
  });

  it('moves the rows into the journals on first start, keeps their ids, and drops them from the JSON files', async () => {
    const events = Array.from({ length: 3000 }, (_, n) => event(n + 1));
    await writeFile(path.join(dir, 'events.json'), JSON.stringify({ schema_version: 1, collections: { events: { next_id: 3001, items: events } }, sections: {} }));
    await writeFile(path.join(dir, 'audit.json'), JSON.stringify({ schema_version: 1, collections: { audit_logs: { next_id: 43, items: [audit(41), audit(42)] } }, sections: {} }));

    const store = await Store.open({ dataDir: dir });
    const log = new EventLog(store);
    const trail = new AuditLog(store);
    // Retention applies to the migrated rows as to any (they are 30+ days old only after 2026-01-31).
    expect(log.all()).toHaveLength(3000);
    expect(log.all()[0]).toEqual(events[0]);
    expect(trail.all().map((row) => row.id)).toEqual([41, 42]);
    expect(log.emit({ kind: 'test.after', message: 'after the migration' }).id).toBe(3001);
    await log.durable();
    for (const name of ['events.json', 'audit.json']) {
      expect(JSON.parse(await readFile(path.join(dir, name), 'utf8')).collections).toEqual({});
    }
    expect(await readdir(path.join(dir, 'collections', 'audit'))).toContain('audit_logs.snapshot.jsonl');
    await store.close();

    // Once: the second start reads the journals (the JSON files hold no rows to move any more).
    const again = await Store.open({ dataDir: dir });
    expect(new EventLog(again).all()).toHaveLength(3001);
    expect(new AuditLog(again).all()).toHaveLength(2);
    await again.close();
  });
});
