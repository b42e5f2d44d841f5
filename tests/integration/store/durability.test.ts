import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

const ROUNDS = 12;
const writerScript = path.resolve(__dirname, '../../helpers/store-writer.ts');

/** Runs the writer until `killAfterAcks` acknowledgements were seen (or it exits), then SIGKILLs it. */
function runWriterAndKill(dataDir: string, killAfterAcks: number): Promise<Map<string, Set<number>>> {
  return new Promise((resolve, reject) => {
    const acked = new Map<string, Set<number>>([['config', new Set()], ['events', new Set()]]);
    // One process (node with the tsx loader), so SIGKILL hits the writer itself, not a wrapper.
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let count = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const [word, file, id] = line.split(' ');
      if (word !== 'ack' || !file || !id) return;
      acked.get(file)?.add(Number(id));
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
  it(`keeps every acknowledged write across ${ROUNDS} kill -9 at random moments`, async () => {
    const { dir, remove } = await tempDir();
    try {
      const everAcked = new Map<string, Set<number>>([['config', new Set()], ['events', new Set()]]);
      for (let round = 0; round < ROUNDS; round += 1) {
        // Kill after a varying number of acknowledgements, i.e. in the middle of later writes.
        const acked = await runWriterAndKill(dir, 20 + Math.floor(Math.random() * 400));
        for (const [file, ids] of acked) for (const id of ids) everAcked.get(file)!.add(id);

        const store = await Store.open({ dataDir: dir });
        for (const file of ['config', 'events'] as const) {
          const present = new Set(store.collection('probe', file).all().map((row) => row.id));
          const missing = [...everAcked.get(file)!].filter((id) => !present.has(id));
          expect(missing, `round ${round}: acknowledged ${file} rows lost`).toEqual([]);
          // Ids are never reused: the counter is past every id ever handed out.
          const counter = store.file(file).data.collections.probe?.next_id ?? 1;
          expect(counter).toBeGreaterThan(Math.max(0, ...present));
        }
        await store.close();
      }
      expect(everAcked.get('config')!.size + everAcked.get('events')!.size).toBeGreaterThan(ROUNDS * 20);
    } finally {
      await remove();
    }
  }, 120_000);
});
