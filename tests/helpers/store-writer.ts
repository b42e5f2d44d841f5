/**
 * Child process for the durability test: inserts rows as fast as it can and
 * prints "ack <id>" only after each insert's commit resolved (= acknowledged).
 * The parent kills it with SIGKILL at a random moment.
 */
import { Store } from '../../src-main/store/store.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: store-writer <data-dir>');
const store = await Store.open({ dataDir });
const rows = store.collection<{ id: number; created_at: string; updated_at: string; payload: string }>('probe');
const events = store.collection<{ id: number; created_at: string; updated_at: string; n: number }>('probe', 'events');
process.stdout.write('ready\n');
let n = 0;
// Several writers at once, so commits coalesce as they do under load.
async function writer(lane: number): Promise<void> {
  for (;;) {
    n += 1;
    const target = n % 2 === 0 ? rows : events;
    const row =
      target === rows
        ? await rows.insert({ payload: `lane ${lane} #${n} ${'x'.repeat(200)}` })
        : await events.insert({ n });
    process.stdout.write(`ack ${target === rows ? 'config' : 'events'} ${row.id}\n`);
  }
}
await Promise.all([writer(1), writer(2), writer(3), writer(4)]);
