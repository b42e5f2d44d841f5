/**
 * Child process for the event durability test: emits events through the
 * EventLog as a boot storm does (many per turn, nobody waiting), with a
 * small retention and compaction threshold so pruning and compactions run
 * while it is killed, and prints "ack <id>" for each event once
 * `durable()` resolved after it. The parent kills it with SIGKILL.
 */
import { EventLog } from '../../src-main/events/event-log.js';
import { Store } from '../../src-main/store/store.js';

const dataDir = process.argv[2];
const maxCount = Number(process.argv[3] ?? '500');
if (!dataDir) throw new Error('usage: event-writer <data-dir> [max-count]');
const store = await Store.open({ dataDir, compactAfter: 200 });
const log = new EventLog(store, { maxCount, maxAgeDays: 30 });
process.stdout.write('ready\n');
for (let n = 0; ; n += 1) {
  const ids: number[] = [];
  for (let i = 0; i < 1 + (n % 40); i += 1) {
    ids.push(log.emit({ kind: 'test.storm', message: `event ${n}.${i}`, mac: '52:54:00:00:00:09', detail: { n, i, pad: 'x'.repeat(100) } }).id);
  }
  await log.durable();
  process.stdout.write(ids.map((id) => `ack ${id}\n`).join(''));
}
