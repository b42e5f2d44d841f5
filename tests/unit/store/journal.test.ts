import { cp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type JournalReplay } from '../../../src-main/store/journal.js';
import { decodeLine, encodeLine } from '../../../src-main/store/journal-lines.js';
import { tempDir } from '../../helpers/test-core.js';

/** A minimal keyed model on the journal: upserts and deletes, as the store's collections use it. */
type KvRecord = { t: 'S'; k: string; v: number } | { t: 'X'; k: string };

const isKv = (value: unknown): value is KvRecord => {
  const record = value as Partial<{ t: string; k: unknown; v: unknown }> | null;
  return typeof record === 'object' && record !== null && typeof record.k === 'string' && (record.t === 'X' || (record.t === 'S' && typeof record.v === 'number'));
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function dir(): Promise<string> {
  const temp = await tempDir('bw-journal-');
  cleanups.push(temp.remove);
  return temp.dir;
}

/** Opens the journal in `where` like a process start: replay into a map, then ready to append. */
async function openKv(where: string, compactAfter = 1_000_000): Promise<{ journal: Journal<KvRecord>; state: Map<string, number>; replay: JournalReplay }> {
  const journal = new Journal<KvRecord>({ dir: where, name: 'kv', isRecord: isKv, compactAfter, preallocateBytes: 64 * 1024 });
  const state = new Map<string, number>();
  const replay = await journal.replay((record) => {
    if (record.t === 'S') state.set(record.k, record.v);
    else state.delete(record.k);
  });
  journal.open(function* () {
    for (const [k, v] of state) yield { t: 'S', k, v } as KvRecord;
  }, () => state.size);
  return { journal, state, replay };
}

function set(kv: { journal: Journal<KvRecord>; state: Map<string, number> }, k: string, v: number): void {
  kv.state.set(k, v);
  kv.journal.append({ t: 'S', k, v });
}

async function journalFiles(where: string): Promise<string[]> {
  return (await readdir(where)).filter((name) => /^kv\.\d+\.jsonl$/.test(name)).sort();
}

describe('journal lines', () => {
  it('carry a checksum that a torn or changed line fails', () => {
    const line = encodeLine({ t: 'S', k: 'a', v: 12345 }).slice(0, -1);
    expect(decodeLine(line)).toEqual({ ok: true, value: { t: 'S', k: 'a', v: 12345 } });
    // Cut after a digit: still valid JSON, a different value; the checksum says no.
    expect(decodeLine(line.replace('12345}', '12}'))).toMatchObject({ ok: false, reason: 'checksum' });
    expect(decodeLine(line.slice(0, 20))).toMatchObject({ ok: false });
    // Lines from before checksums (the old lease journal) are still read.
    expect(decodeLine('{"t":"S","k":"b","v":1}')).toEqual({ ok: true, value: { t: 'S', k: 'b', v: 1 } });
  });
});

describe('journal', () => {
  it('replays what was durable across a reopen without close (a crash), into a new generation', async () => {
    const where = await dir();
    const first = await openKv(where);
    for (let i = 0; i < 100; i += 1) set(first, `k${i}`, i);
    first.state.delete('k5');
    first.journal.append({ t: 'X', k: 'k5' });
    await first.journal.durable();
    const second = await openKv(where);
    expect(second.state.size).toBe(99);
    expect(second.state.get('k99')).toBe(99);
    expect(second.replay).toMatchObject({ records: 101, skipped: 0, journals: 1 });
    expect(second.journal.generation).toBe(first.journal.generation + 1);
    await first.journal.close();
    await second.journal.close();
  });

  it('stops a journal at a torn tail and never appends after it', async () => {
    const where = await dir();
    const first = await openKv(where);
    set(first, 'a', 1);
    set(first, 'b', 2);
    await first.journal.durable();
    const [file] = await journalFiles(where);
    const full = path.join(where, file!);
    const end = (await readFile(full)).indexOf(0);
    const handle = await open(full, 'r+');
    // Half of a third record, where the crash cut the batch.
    await handle.write(encodeLine({ t: 'S', k: 'c', v: 3 }).slice(0, 15), end);
    await handle.close();
    const second = await openKv(where);
    expect([...second.state]).toEqual([['a', 1], ['b', 2]]);
    expect(second.replay.skipped).toBe(1);
    set(second, 'd', 4);
    await second.journal.durable();
    expect(await journalFiles(where)).toHaveLength(2);
    const third = await openKv(where);
    expect([...third.state]).toEqual([['a', 1], ['b', 2], ['d', 4]]);
    for (const kv of [first, second, third]) await kv.journal.close();
  });

  it('does not apply a line whose checksum fails, nor what follows it in that journal', async () => {
    const where = await dir();
    const first = await openKv(where);
    set(first, 'a', 1);
    set(first, 'b', 22222);
    set(first, 'c', 3);
    await first.journal.durable();
    const [file] = await journalFiles(where);
    const full = path.join(where, file!);
    const text = await readFile(full, 'utf8');
    // A damaged sector: one digit changed, same length, still valid JSON.
    await writeFile(full, text.replace('22222', '22822'));
    const second = await openKv(where);
    expect([...second.state]).toEqual([['a', 1]]);
    expect(second.replay.skipped).toBe(2);
    await first.journal.close();
    await second.journal.close();
  });

  it('skips a damaged snapshot line but reads the rest of the snapshot', async () => {
    const where = await dir();
    const first = await openKv(where);
    for (const [k, v] of [['a', 1], ['b', 22222], ['c', 3]] as const) set(first, k, v);
    await first.journal.durable();
    await first.journal.compact();
    expect(await journalFiles(where)).toEqual([]);
    await first.journal.close();
    const snapshot = path.join(where, 'kv.snapshot.jsonl');
    await writeFile(snapshot, (await readFile(snapshot, 'utf8')).replace('22222', '22822'));
    const second = await openKv(where);
    expect([...second.state]).toEqual([['a', 1], ['c', 3]]);
    expect(second.replay.skipped).toBe(1);
    await second.journal.close();
  });

  it('replays the same state whichever compaction step a crash stopped at', async () => {
    const where = await dir();
    // Before: journal generation 1 holds the first writes.
    const live = await openKv(where);
    for (let i = 0; i < 50; i += 1) set(live, `k${i}`, i);
    for (let i = 0; i < 50; i += 2) set(live, `k${i}`, 1000 + i);
    await live.journal.durable();
    const before = await copyOf(where);
    // The compaction (rotate, snapshot, delete), then writes to the new generation.
    await live.journal.compact();
    for (let i = 50; i < 60; i += 1) set(live, `k${i}`, i);
    live.state.delete('k1');
    live.journal.append({ t: 'X', k: 'k1' });
    await live.journal.durable();
    const after = await copyOf(where);
    const expected = [...live.state].sort();
    await live.journal.close();

    const newJournal = (await journalFiles(after)).at(-1)!;
    const snapshot = 'kv.snapshot.jsonl';
    const steps: Record<string, (target: string) => Promise<void>> = {
      'switched generation, no snapshot yet': async (target) => {
        await cp(before, target, { recursive: true });
        await cp(path.join(after, newJournal), path.join(target, newJournal));
      },
      'snapshot half written (temporary file)': async (target) => {
        await cp(before, target, { recursive: true });
        await cp(path.join(after, newJournal), path.join(target, newJournal));
        const text = await readFile(path.join(after, snapshot), 'utf8');
        await writeFile(path.join(target, `${snapshot}.tmp`), text.slice(0, Math.floor(text.length / 2)));
      },
      'snapshot renamed, old journals not yet deleted': async (target) => {
        await cp(before, target, { recursive: true });
        await cp(path.join(after, newJournal), path.join(target, newJournal));
        await cp(path.join(after, snapshot), path.join(target, snapshot));
      },
      'old journals deleted': async (target) => {
        await cp(after, target, { recursive: true });
      },
    };
    for (const [step, build] of Object.entries(steps)) {
      const target = await dir();
      await rm(target, { recursive: true, force: true });
      await build(target);
      const reopened = await openKv(target);
      expect([...reopened.state].sort(), step).toEqual(expected);
      // And it goes on: a write after the recovery survives the next start.
      set(reopened, 'later', 1);
      await reopened.journal.durable();
      await reopened.journal.compact();
      const again = await openKv(target);
      expect(again.state.get('later'), step).toBe(1);
      expect(again.state.size, step).toBe(expected.length + 1);
      await reopened.journal.close();
      await again.journal.close();
    }
  });

  it('compacts by itself when the journal outgrows the live state, and drops the journals it covers', async () => {
    const where = await dir();
    const kv = await openKv(where, 100);
    for (let round = 0; round < 10; round += 1) {
      for (let i = 0; i < 20; i += 1) set(kv, `k${i}`, round);
      await kv.journal.durable();
    }
    // The compaction runs after a batch; wait for it by asking for one more.
    await kv.journal.compact();
    const names = await readdir(where);
    expect(names).toContain('kv.snapshot.jsonl');
    expect((await journalFiles(where)).length).toBeLessThanOrEqual(1);
    const again = await openKv(where);
    expect(again.state.size).toBe(20);
    expect(again.state.get('k3')).toBe(9);
    await kv.journal.close();
    await again.journal.close();
  });

  it('reads a snapshot and journal written before checksums (the old lease journal format)', async () => {
    const where = await dir();
    await writeFile(path.join(where, 'kv.snapshot.jsonl'), '{"t":"H","v":1,"next":3}\n{"t":"S","k":"a","v":1}\n{"t":"S","k":"old","v":0}\n');
    // Generation 2 is covered by the snapshot; 3 is replayed, its torn last line skipped.
    await writeFile(path.join(where, 'kv.2.jsonl'), '{"t":"S","k":"covered","v":2}\n');
    await writeFile(path.join(where, 'kv.3.jsonl'), '{"t":"S","k":"b","v":2}\n{"t":"X","k":"old"}\n{"t":"S","k":"c"\0\0\0');
    const kv = await openKv(where);
    expect([...kv.state]).toEqual([['a', 1], ['b', 2]]);
    expect(kv.replay.skipped).toBe(1);
    expect(kv.journal.generation).toBe(4);
    await kv.journal.close();
  });

  it('answers a failed write with an error and writes the records again with the next batch', async () => {
    const where = await dir();
    const kv = await openKv(where);
    set(kv, 'a', 1);
    await kv.journal.durable();
    // The directory disappears under the journal: the next generation cannot be created.
    await kv.journal.compact();
    await rm(where, { recursive: true, force: true });
    set(kv, 'b', 2);
    await expect(kv.journal.durable()).rejects.toThrow();
    await cp(await dir(), where, { recursive: true });
    set(kv, 'c', 3);
    await kv.journal.durable();
    const again = await openKv(where);
    expect([...again.state].sort()).toEqual([['b', 2], ['c', 3]]);
    await kv.journal.close();
    await again.journal.close();
  });
});

async function copyOf(where: string): Promise<string> {
  const target = await dir();
  await cp(where, target, { recursive: true });
  return target;
}
