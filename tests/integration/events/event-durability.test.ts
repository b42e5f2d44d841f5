import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../src-main/events/event-log.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

const ROUNDS = 8;
const MAX_COUNT = 500;
const writerScript = path.resolve(__dirname, '../../helpers/event-writer.ts');

/** Runs the writer until `killAfterAcks` events were acknowledged, then SIGKILLs it; returns the acknowledged ids. */
function runWriterAndKill(dataDir: string, killAfterAcks: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const acked: number[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, dataDir, String(MAX_COUNT)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [word, id] = line.split(' ');
      if (word !== 'ack' || !id) return;
      acked.push(Number(id));
      if (acked.length === killAfterAcks) child.kill('SIGKILL');
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

describe('event log durability', () => {
  it(`keeps every acknowledged event retention keeps across ${ROUNDS} kill -9 during a storm, through prunes and compactions`, async () => {
    const { dir, remove } = await tempDir();
    try {
      let everMax = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const acked = await runWriterAndKill(dir, 50 + Math.floor(Math.random() * 3000));
        const store = await Store.open({ dataDir: dir });
        const log = new EventLog(store, { maxCount: MAX_COUNT, maxAgeDays: 30 });
        const ids = log.all().map((event) => event.id);
        const present = new Set(ids);
        // An acknowledged event may be gone only if retention pruned it: then at least MAX_COUNT newer events are there.
        const lost = acked.filter((id) => !present.has(id) && ids.filter((other) => other > id).length < MAX_COUNT);
        expect(lost, `round ${round}: acknowledged events lost`).toEqual([]);
        // Rows stay in id order and ids are never reused.
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        const maxAcked = Math.max(0, ...acked);
        expect(log.emit({ kind: 'test.probe', message: 'after restart' }).id).toBeGreaterThan(Math.max(maxAcked, everMax));
        everMax = Math.max(everMax, maxAcked);
        await log.durable();
        await store.close();
      }
      expect(everMax).toBeGreaterThan(ROUNDS * 50);
    } finally {
      await remove();
    }
  }, 180_000);
});
