import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { StoreFileName } from '../../../src-main/store/migrations.js';
import { Store } from '../../../src-main/store/store.js';
import { WRITER_COLLECTIONS } from '../../helpers/store-writer-collections.js';
import { tempDir } from '../../helpers/test-core.js';

const ROUNDS = 12;
const writerScript = path.resolve(__dirname, '../../helpers/store-writer.ts');

/** Runs the writer until `killAfterAcks` acknowledgements were seen (or it exits), then SIGKILLs it. */
function runWriterAndKill(dataDir: string, killAfterAcks: number): Promise<Acks> {
  return new Promise((resolve, reject) => {
    const acked: Acks = { inserted: emptySets(), removed: emptySets(), removing: emptySets() };
    // One process (node with the tsx loader), so SIGKILL hits the writer itself, not a wrapper.
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let count = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const [word, key, id] = line.split(' ');
      if (!key || !id) return;
      const kind = word === 'ack' ? 'inserted' : word === 'del' ? 'removed' : word === 'rm' ? 'removing' : null;
      if (!kind) return;
      acked[kind].get(key)?.add(Number(id));
      if (kind !== 'inserted') return;
      count += 1;
      if (count === killAfterAcks) child.kill('SIGKILL');
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      if (signal !== 'SIGKILL') reject(new Error(`writer exited by itself (code ${code}): ${stderr}`));
      else resolve(acked);
    });
  });
}

describe('store durability', () => {
  it(`keeps every acknowledged insert and removal in ${WRITER_COLLECTIONS.length} collection journals across ${ROUNDS} kill -9 at random moments, through compactions`, async () => {
    const { dir, remove } = await tempDir();
    try {
      const ever: Acks = { inserted: emptySets(), removed: emptySets(), removing: emptySets() };
      let compacted = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        // Kill after a varying number of acknowledgements, i.e. in the middle of later writes
        // (and, with the writer's small compaction threshold, now and then in a compaction).
        const acked = await runWriterAndKill(dir, 20 + Math.floor(Math.random() * 600));
        for (const kind of ['inserted', 'removed', 'removing'] as const) {
          for (const [key, ids] of acked[kind]) for (const id of ids) ever[kind].get(key)!.add(id);
        }
        if ((await readdir(path.join(dir, 'collections', 'config'))).includes('hosts.snapshot.jsonl')) compacted += 1;

        const store = await Store.open({ dataDir: dir });
        for (const key of WRITER_COLLECTIONS) {
          const [file, name] = key.split('/') as [StoreFileName, string];
          const collection = store.collection(name, file);
          const present = new Set(collection.all().map((row) => row.id));
          const removed = ever.removed.get(key)!;
          // A removal under way when the writer was killed may or may not have happened.
          const removing = ever.removing.get(key)!;
          const missing = [...ever.inserted.get(key)!].filter((id) => !present.has(id) && !removing.has(id));
          expect(missing, `round ${round}: acknowledged ${key} rows lost`).toEqual([]);
          const back = [...removed].filter((id) => present.has(id));
          expect(back, `round ${round}: acknowledged removals of ${key} undone`).toEqual([]);
          // Ids are never reused: the counter is past every id ever handed out.
          expect(collection.nextId()).toBeGreaterThan(Math.max(0, ...ever.inserted.get(key)!));
        }
        await store.close();
      }
      const total = WRITER_COLLECTIONS.reduce((sum, key) => sum + ever.inserted.get(key)!.size, 0);
      expect(total).toBeGreaterThan(ROUNDS * 20);
      // The loop went through compactions (the writer compacts every 20 records per collection).
      expect(compacted).toBeGreaterThan(0);
    } finally {
      await remove();
    }
  }, 180_000);
});

interface Acks {
  inserted: Map<string, Set<number>>;
  removed: Map<string, Set<number>>;
  /** Removals started (acknowledged or not). */
  removing: Map<string, Set<number>>;
}

function emptySets(): Map<string, Set<number>> {
  return new Map(WRITER_COLLECTIONS.map((key) => [key, new Set<number>()]));
}
