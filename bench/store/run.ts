/**
 * Store at scale (issue 20): does a host create cost the same with 500,
 * 5,000 or 50,000 hosts stored? For each size, a fresh data directory is
 * pre-filled with that many hosts directly through the store (fast; then
 * compacted, as a long-running store would be), the built headless server
 * is started on it (the start-up time is measured: spawn to "serving"), the
 * admin logs in, and 8 concurrent clients create hosts through
 * `POST /api/v1/hosts` for a fixed time (each answer means the host is
 * durable). Prints creates/s, p50/p99/max latency, start-up time and the
 * server's RSS after the phase.
 *
 * Goal (issue 20): p50 < 20 ms and ≥ 200 creates/s at every size, the
 * 50,000 figure ≥ 0.8 × the 500 figure; start-up with 50,000 hosts < 3 s.
 *
 *   npm run bench:store                   (builds dist/main first)
 *   node --import tsx bench/store/run.ts [--seconds 10] [--clients 8] [--sizes 500,5000,50000]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Host } from '../../src-main/hosts/hosts-contract.js';
import { newHostRow } from '../../src-main/hosts/host-validation.js';
import { Store } from '../../src-main/store/store.js';
import { adminClient, ms, rssMiB, spawnServe, summarize, type Client } from '../security/harness.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '8' },
    sizes: { type: 'string', default: '500,5000,50000' },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const SIZES = args.sizes.split(',').map(Number);

interface Result {
  size: number;
  prefillSeconds: number;
  startupMs: number;
  creates: number;
  failed: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  rss: number;
}

function mac(prefix: number, n: number): string {
  const bytes = [prefix, (n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
  return ['02', ...bytes.map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

/** Writes `count` hosts straight into the store's hosts collection, as the host service stores them. */
async function prefill(dataDir: string, count: number): Promise<void> {
  const store = await Store.open({ dataDir });
  const hosts = store.collection<Host>('hosts');
  let last: Promise<void> = Promise.resolve();
  for (let n = 0; n < count; n += 1) {
    const rack = `rack${Math.floor(n / 40)}`;
    last = hosts.stage(
      newHostRow({ mac: mac(1, n), hostname: `${rack}-node${n % 40}`, group: rack, tags: ['bench'], description: 'pre-filled by bench/store', arch: 'x86_64' }),
    ).committed;
    if (n % 5000 === 4999) await last;
  }
  await last;
  // A long-running store has compacted its journal: start from the snapshot.
  await store.compactAll();
  await store.close();
}

let counter = 0;

async function client(admin: Client, until: number, latencies: number[]): Promise<number> {
  let failed = 0;
  while (Date.now() < until) {
    counter += 1;
    const started = performance.now();
    const reply = await admin.request('POST', '/api/v1/hosts', { mac: mac(2, counter), hostname: `bench-${counter}` });
    if (reply.status === 201) latencies.push(performance.now() - started);
    else {
      failed += 1;
      if (failed === 1) process.stderr.write(`create failed: ${reply.status} ${reply.body}\n`);
    }
  }
  return failed;
}

async function measure(size: number): Promise<Result> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-store-'));
  try {
    const prefillStarted = performance.now();
    await prefill(dataDir, size);
    const prefillSeconds = (performance.now() - prefillStarted) / 1000;
    // BENCH_NODE_ARGS: extra node flags for the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
    const server = await spawnServe(dataDir, (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0), 60_000);
    try {
      const admins = await Promise.all(Array.from({ length: CLIENTS }, () => adminClient(server.url)));
      // A short warm-up (JIT, first journal file), not measured.
      await Promise.all(admins.map((admin) => client(admin, Date.now() + 500, [])));
      const latencies: number[] = [];
      const started = performance.now();
      const failures = await Promise.all(admins.map((admin) => client(admin, Date.now() + SECONDS * 1000, latencies)));
      const elapsed = (performance.now() - started) / 1000;
      const rss = await rssMiB(server.pid);
      for (const admin of admins) admin.close();
      const summary = summarize(latencies);
      return {
        size,
        prefillSeconds,
        startupMs: server.startupMs,
        creates: summary.count,
        failed: failures.reduce((a, b) => a + b, 0),
        perSecond: summary.count / elapsed,
        p50: summary.p50,
        p99: summary.p99,
        max: summary.max,
        rss,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const results: Result[] = [];
for (const size of SIZES) {
  const result = await measure(size);
  results.push(result);
  process.stdout.write(
    `${String(size).padStart(6)} hosts: ${result.perSecond.toFixed(0).padStart(5)} creates/s (${result.creates} in ${SECONDS} s, ${result.failed} failed), ` +
      `p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, max ${ms(result.max)} ms; start-up ${result.startupMs.toFixed(0)} ms; ` +
      `RSS ${result.rss.toFixed(0)} MiB; pre-fill ${result.prefillSeconds.toFixed(1)} s\n`,
  );
}
const first = results[0];
const lastResult = results.at(-1);
if (first && lastResult && first !== lastResult) {
  process.stdout.write(`ratio ${lastResult.size}/${first.size} creates/s: ${(lastResult.perSecond / first.perSecond).toFixed(2)} (goal ≥ 0.8)\n`);
}
