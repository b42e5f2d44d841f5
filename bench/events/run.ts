/**
 * Events at scale (issue 17): how many events a second the event log takes,
 * sustained, with the log full (20,000 events, so retention prunes and the
 * journal compacts as in a long-running server), from emit to durable.
 *
 * Variants, each on a fresh data directory:
 * - `rewrite`: what events.json did before the collection journals — every
 *   group commit rewrites the whole log (temp file, fsync, rename), as
 *   DurableJsonAdapter does; the reference.
 * - `journal-0ms`: the events journal writing a batch per turn of the event loop.
 * - `journal-1ms`: the same gathering appends for a millisecond (the default since issue 17).
 *
 * Each variant emits for `--seconds` in slices of `--slice` events per turn
 * of the event loop (a boot storm's packet handlers emit a few at a time),
 * then waits until every event is durable; events/s = emitted / that time.
 * Also printed: CPU time per event and how long the event loop was blocked
 * at worst (what a DHCP reply waiting behind a whole-file rewrite feels).
 *
 *   npm run bench:events
 *   node --import tsx bench/events/run.ts [--seconds 10] [--slice 50] [--rate 0] [--variants rewrite,journal-0ms,journal-1ms]
 *
 * `--rate 2000` offers 2,000 events/s instead of as many as possible: then
 * the CPU per event shows what a boot storm costs (the whole-file rewrite
 * pays a full rewrite for every few events when they come spread out).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { EventLog } from '../../src-main/events/event-log.js';
import { GroupCommit } from '../../src-main/store/group-commit.js';
import { writeAtomicLines } from '../../src-main/store/journal-files.js';
import { Store } from '../../src-main/store/store.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    slice: { type: 'string', default: '50' },
    prefill: { type: 'string', default: '20000' },
    variants: { type: 'string', default: 'rewrite,journal-0ms,journal-1ms' },
    rate: { type: 'string', default: '0' },
  },
});
const SECONDS = Number(args.seconds);
const SLICE = Number(args.slice);
const PREFILL = Number(args.prefill);
/** Offered events per second; 0: as fast as the process can. */
const RATE = Number(args.rate);

/** What a DHCP event looks like (the size of the detail matters for the write cost). */
function input(n: number) {
  const mac = `52:54:00:${((n >> 16) & 255).toString(16).padStart(2, '0')}:${((n >> 8) & 255).toString(16).padStart(2, '0')}:${(n & 255).toString(16).padStart(2, '0')}`;
  return {
    kind: 'dhcp.discover',
    message: `DHCPDISCOVER from ${mac}`,
    mac,
    detail: { arch: 7, arch_name: 'x86-64 UEFI', vendor_class: 'PXEClient:Arch:00007:UNDI:003016', ipxe: false, hostname: null, interface: 'eth0', subnet: '10.0.0.0/24', mode: 'server' },
  };
}

interface Sink {
  emit(n: number): void;
  durable(): Promise<void>;
  close(): Promise<void>;
}

async function journalSink(dir: string, windowMs: number): Promise<Sink> {
  const store = await Store.open({ dataDir: dir, batchWindowMs: { events: windowMs } });
  const log = new EventLog(store);
  for (let n = 0; n < PREFILL; n += 1) log.emit(input(n));
  await log.durable();
  await store.compactAll();
  return { emit: (n) => void log.emit(input(n)), durable: () => log.durable(), close: () => store.close() };
}

/** The pre-journal events.json: every commit rewrites all rows (bounded at 20,000 as retention did). */
async function rewriteSink(dir: string): Promise<Sink> {
  const file = path.join(dir, 'events.json');
  const rows: object[] = [];
  let nextId = 1;
  const commit = new GroupCommit(() => {
    // Serialised synchronously at the start of each write, as lowdb's adapter does.
    const text = JSON.stringify({ schema_version: 1, collections: { events: { next_id: nextId, items: rows } }, sections: {} });
    return writeAtomicLines(file, [text]);
  });
  const add = (n: number) => {
    const at = new Date().toISOString();
    rows.push({ id: nextId, ...input(n), level: 'info', ip: null, host_id: null, created_at: at, updated_at: at });
    nextId += 1;
    if (rows.length > 22_000) rows.splice(0, rows.length - 20_000);
    void commit.commit().catch(() => undefined);
  };
  for (let n = 0; n < PREFILL; n += 1) add(n);
  await commit.commit();
  return { emit: add, durable: () => commit.commit(), close: () => commit.idle() };
}

interface Result {
  name: string;
  emitted: number;
  seconds: number;
  perSecond: number;
  /** CPU time of the process per event (user + system). */
  cpuMicros: number;
  /** The longest the event loop was blocked (a DHCP reply waits that long). */
  maxLagMs: number;
  p99LagMs: number;
}

async function runVariant(name: string): Promise<Result> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-events-'));
  try {
    const sink = name === 'rewrite' ? await rewriteSink(dir) : await journalSink(dir, Number(/^journal-(\d+)ms$/.exec(name)?.[1] ?? 'NaN'));
    let emitted = 0;
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const until = started + SECONDS * 1000;
    while (performance.now() < until) {
      for (let i = 0; i < SLICE; i += 1) sink.emit(PREFILL + emitted + i);
      emitted += SLICE;
      // Let the journal's I/O callbacks run between slices, as between a server's packets; at a fixed
      // offered rate, sleep until the next slice is due.
      const due = started + (emitted / RATE) * 1000;
      if (RATE > 0 && due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      else await new Promise((resolve) => setImmediate(resolve));
    }
    await sink.durable();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    lag.disable();
    await sink.close();
    return { name, emitted, seconds, perSecond: emitted / seconds, cpuMicros: (used.user + used.system) / emitted, maxLagMs: lag.max / 1e6, p99LagMs: lag.percentile(99) / 1e6 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const results = [];
for (const name of args.variants.split(',')) {
  if (name !== 'rewrite' && !/^journal-\d+ms$/.test(name)) throw new Error(`unknown variant ${name}`);
  const result = await runVariant(name);
  results.push(result);
  console.log(
    `${name.padEnd(12)} ${Math.round(result.perSecond).toString().padStart(8)} events/s durable (${result.emitted} in ${result.seconds.toFixed(1)} s), ` +
      `${result.cpuMicros.toFixed(1)} µs CPU/event, event loop blocked p99 ${result.p99LagMs.toFixed(1)} ms, max ${result.maxLagMs.toFixed(1)} ms`,
  );
}
console.log(`\n${PREFILL} events stored first; ${SLICE} events per turn of the event loop; ${RATE > 0 ? `${RATE} events/s offered` : 'as fast as possible'}; ${SECONDS} s per variant.`);
