/**
 * Child process for the durability test: writes rows to several collections
 * in several store files as fast as it can, with a small compaction
 * threshold so journals are compacted while it runs, and prints
 * "ack <collection> <id>" (insert) or "del <collection> <id>" (remove) only
 * after the write resolved (= acknowledged); "rm <collection> <id>" before
 * a removal starts (it may take effect without being acknowledged). Every
 * seventh write is a bulk insert of 25 rows (insertMany, as imports use),
 * each of them acknowledged only once the whole batch resolved. The parent
 * kills it with SIGKILL at a random moment.
 */
import { Store } from '../../src-main/store/store.js';
import type { StoreFileName } from '../../src-main/store/migrations.js';
import { WRITER_COLLECTIONS } from './store-writer-collections.js';

interface ProbeRow {
  id: number;
  created_at: string;
  updated_at: string;
  payload: string;
}


const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: store-writer <data-dir>');
const store = await Store.open({ dataDir, compactAfter: 20 });
const targets = WRITER_COLLECTIONS.map((key) => {
  const [file, name] = key.split('/') as [StoreFileName, string];
  return { key, collection: store.collection<ProbeRow>(name, file) };
});
process.stdout.write('ready\n');
let n = 0;
// Several writers at once, so commits coalesce as they do under load.
async function writer(lane: number): Promise<void> {
  for (;;) {
    n += 1;
    const target = targets[n % targets.length]!;
    if (n % 7 === 0) {
      const rows = await target.collection.insertMany(Array.from({ length: 25 }, (_, i) => ({ payload: `lane ${lane} #${n} bulk ${i} ${'x'.repeat(100)}` })));
      process.stdout.write(rows.map((bulk) => `ack ${target.key} ${bulk.id}\n`).join(''));
      continue;
    }
    const row = await target.collection.insert({ payload: `lane ${lane} #${n} ${'x'.repeat(200)}` });
    process.stdout.write(`ack ${target.key} ${row.id}\n`);
    // Every fifth row is removed again: deletes must survive too (and not come back).
    if (n % 5 === 0) {
      process.stdout.write(`rm ${target.key} ${row.id}\n`);
      await target.collection.remove(row.id);
      process.stdout.write(`del ${target.key} ${row.id}\n`);
    }
  }
}
await Promise.all([writer(1), writer(2), writer(3), writer(4)]);
