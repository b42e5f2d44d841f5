/**
 * DNS benchmark: dnsperf against three servers answering the same 1,000
 * local A records — Bootwright, dnsmasq, and a bare Node responder with as
 * many threads as Bootwright has DNS workers — then Bootwright's forwarding
 * path with a warm cache (dnsmasq as its upstream). Prints queries/s, average
 * and p99 latency, and the ratios.
 *
 *   npm run bench:dns -- [--seconds 10] [--clients 4] [--workers N] [--runs 1]
 *
 * A second bare responder answers `send`'s address lookup synchronously, the
 * one trick Bootwright's listener uses beyond the plain responder; the
 * ratio to it is what our DNS code itself costs.
 *
 * Everything listens on loopback only (127.1.0.1, 127.3.0.1, 127.4.0.1, 127.5.0.1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import packet from 'dns-packet';
import { AppCore } from '../../src-main/app/app-core.js';
import { defaultConfig } from '../../src-main/core/config.js';
import type { Nic } from '../../src-main/network/nic.js';
import { launchWorker } from '../../src-main/core/worker-host.js';
import { defaultWorkerCount, supportsReusePort } from '../../src-main/dns/server/runtime-support.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '4' },
    workers: { type: 'string' },
    runs: { type: 'string', default: '1' },
    records: { type: 'string', default: '1000' },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const RUNS = Number(args.runs);
const RECORDS = Number(args.records);
const WORKERS = supportsReusePort() ? Number(args.workers ?? defaultWorkerCount()) : 1;

const BOOTWRIGHT = '127.1.0.1';
const DNSMASQ = '127.3.0.1';
const BARE = '127.4.0.1';
const BARE_LOOKUP = '127.5.0.1';
const DOMAIN = 'bootwright.local';
const FORWARD_DOMAIN = 'example.test';

const addressOf = (i: number) => `10.${(i >> 8) & 255}.${i & 255}.1`;
const localName = (i: number) => `host${i}.${DOMAIN}`;
const forwardName = (i: number) => `ext${i}.${FORWARD_DOMAIN}`;

async function freePort(address: string): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

interface Result {
  qps: number;
  avgMs: number;
  p99Ms: number;
  lost: number;
}

/**
 * One dnsperf run. p99 comes from the per-query latencies of verbose mode,
 * written to a file and read afterwards so that parsing them does not take
 * CPU from the servers during the run.
 */
async function dnsperf(server: string, port: number, queryFile: string, seconds: number): Promise<Result> {
  const output = path.join(path.dirname(queryFile), 'dnsperf.out');
  const file = await open(output, 'w');
  try {
    const child = spawn('dnsperf', ['-s', server, '-p', String(port), '-d', queryFile, '-l', String(seconds), '-c', String(CLIENTS), '-v'], {
      stdio: ['ignore', file.fd, 'inherit'],
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new Error(`dnsperf exited with ${code}`);
  } finally {
    await file.close();
  }
  let latencies = new Float64Array(1 << 20);
  let count = 0;
  let qps = 0;
  let avgMs = 0;
  let lost = 0;
  const lines = createInterface({ input: createReadStream(output) });
  for await (const line of lines) {
    if (line.startsWith('> ')) {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = Number(line.slice(line.lastIndexOf(' ') + 1));
    } else if (line.includes('Queries per second:')) qps = Number(line.split(':')[1]);
    else if (line.includes('Average Latency (s):')) avgMs = Number(line.split(':')[1]!.trim().split(' ')[0]) * 1000;
    else if (line.includes('Queries lost:')) lost = Number(line.split(':')[1]!.trim().split(' ')[0]);
  }
  await rm(output, { force: true });
  const sorted = latencies.subarray(0, count).sort();
  const p99Ms = count > 0 ? sorted[Math.min(count - 1, Math.floor(count * 0.99))]! * 1000 : NaN;
  return { qps, avgMs, p99Ms, lost };
}

interface Target {
  name: string;
  server: string;
  port: number;
  queries: string;
}

/** Runs every target once per round, `RUNS` rounds (so drift in machine load hits all alike); keeps each target's best run. */
async function measure(targets: Target[]): Promise<[string, Result][]> {
  const best = new Map<string, Result>();
  for (let run = 0; run < RUNS; run++) {
    for (const target of targets) {
      const result = await dnsperf(target.server, target.port, target.queries, SECONDS);
      const top = best.get(target.name);
      if (!top || result.qps > top.qps) best.set(target.name, result);
    }
  }
  return targets.map((target) => [target.name, best.get(target.name)!]);
}

function fakeNics(): Nic[] {
  return [
    {
      name: 'bwbench0',
      mac: '02:00:00:00:00:01',
      mtu: 1500,
      up: true,
      link: 'up',
      internal: false,
      addresses: [{ address: BOOTWRIGHT, family: 'ipv4', prefix: 16, cidr: `${BOOTWRIGHT}/16`, subnet: '127.1.0.0/16' }],
    },
  ];
}

async function startBootwright(dataDir: string, upstream: string): Promise<{ core: AppCore; port: number }> {
  const core = await AppCore.create({
    config: { ...defaultConfig(dataDir), listen: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' },
    fileLog: false,
    rendererDir: null,
    nicReader: fakeNics,
    dnsWorkers: WORKERS,
  });
  const port = await freePort(BOOTWRIGHT);
  await core.area('dns').settings.update({ port, upstream });
  for (let i = 0; i < RECORDS; i++) await core.area('dns').records.create({ name: `host${i}`, type: 'A', value: addressOf(i) });
  const status = await core.kernel.services.start('dns');
  if (status.state !== 'running') throw new Error(`Bootwright DNS did not start: ${status.last_error}`);
  return { core, port };
}

async function startDnsmasq(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const hosts = path.join(dir, 'hosts');
  const lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) lines.push(`${addressOf(i)} ${localName(i)}`, `${addressOf(i)} ${forwardName(i)}`);
  await writeFile(hosts, `${lines.join('\n')}\n`);
  const port = await freePort(DNSMASQ);
  const child = spawn('dnsmasq', [
    '--no-daemon',
    '--conf-file=/dev/null',
    `--port=${port}`,
    `--listen-address=${DNSMASQ}`,
    '--bind-interfaces',
    '--no-resolv',
    '--no-hosts',
    `--addn-hosts=${hosts}`,
    '--local-ttl=3600',
    '--cache-size=10000',
    '--user=root',
    '--pid-file=',
  ], { stdio: 'ignore' });
  await waitForAnswer(DNSMASQ, port, localName(0));
  return { child, port };
}

async function startBare(address: string, literalLookup: boolean): Promise<{ workers: Worker[]; port: number }> {
  const table: [string, Uint8Array][] = [];
  for (let i = 0; i < RECORDS; i++) {
    const question = packet.encode({ type: 'query', id: 0, flags: packet.RECURSION_DESIRED, questions: [{ type: 'A', name: localName(i) }] });
    const response = packet.encode({
      type: 'response',
      id: 0,
      flags: packet.AUTHORITATIVE_ANSWER | packet.RECURSION_DESIRED,
      questions: [{ type: 'A', name: localName(i) }],
      answers: [{ type: 'A', name: localName(i), ttl: 300, data: addressOf(i) }],
    });
    table.push([question.toString('latin1', 12), new Uint8Array(response)]);
  }
  const port = await freePort(address);
  const workers: Worker[] = [];
  for (let i = 0; i < WORKERS; i++) {
    const worker = launchWorker(new URL('./bare-responder.ts', import.meta.url), { workerData: { address, port, reusePort: WORKERS > 1, literalLookup, table } });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    workers.push(worker);
  }
  return { workers, port };
}

async function waitForAnswer(server: string, port: number, name: string): Promise<void> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      const answered = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 100);
        socket.once('message', () => {
          clearTimeout(timer);
          resolve(true);
        });
        socket.send(packet.encode({ type: 'query', id: attempt, questions: [{ type: 'A', name }] }), port, server);
      });
      if (answered) return;
    }
    throw new Error(`${server}:${port} does not answer`);
  } finally {
    socket.close();
  }
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bootwright-dns-bench-'));
  const localQueries = path.join(dir, 'local-queries');
  const forwardQueries = path.join(dir, 'forward-queries');
  await writeFile(localQueries, Array.from({ length: RECORDS }, (_, i) => `${localName(i)} A`).join('\n') + '\n');
  await writeFile(forwardQueries, Array.from({ length: RECORDS }, (_, i) => `${forwardName(i)} A`).join('\n') + '\n');

  const dnsmasq = await startDnsmasq(dir);
  const bootwright = await startBootwright(path.join(dir, 'data'), `${DNSMASQ}:${dnsmasq.port}`);
  const bare = await startBare(BARE, false);
  const bareLookup = await startBare(BARE_LOOKUP, true);
  try {
    await waitForAnswer(BOOTWRIGHT, bootwright.port, localName(0));
    console.log(`node ${process.versions.node}, ${os.availableParallelism()} cores; ${WORKERS} DNS worker thread(s)${supportsReusePort() ? '' : ' (this Node has no SO_REUSEPORT for dgram: one worker)'}`);
    console.log(`dnsperf -c ${CLIENTS}, ${SECONDS} s per run, best of ${RUNS}; ${RECORDS} local A records\n`);

    // Warm the forward cache with one pass over the names first.
    await dnsperf(BOOTWRIGHT, bootwright.port, forwardQueries, 2);
    const results = await measure([
      { name: 'dnsmasq (local records)', server: DNSMASQ, port: dnsmasq.port, queries: localQueries },
      { name: `bare Node responder, ${WORKERS} thread(s)`, server: BARE, port: bare.port, queries: localQueries },
      { name: `bare Node + literal lookup, ${WORKERS} thread(s)`, server: BARE_LOOKUP, port: bareLookup.port, queries: localQueries },
      { name: `Bootwright, ${WORKERS} worker(s)`, server: BOOTWRIGHT, port: bootwright.port, queries: localQueries },
      { name: 'Bootwright forwarding, warm cache', server: BOOTWRIGHT, port: bootwright.port, queries: forwardQueries },
    ]);

    const dnsmasqQps = results[0]![1].qps;
    const bareQps = results[1]![1].qps;
    const bareLookupQps = results[2]![1].qps;
    const header = ['server', 'queries/s', 'avg ms', 'p99 ms', 'lost', 'vs dnsmasq', 'vs bare', 'vs bare+lookup'];
    const rows = results.map(([name, r]) => [
      name,
      fmt(r.qps),
      fmt(r.avgMs, 3),
      fmt(r.p99Ms, 3),
      String(r.lost),
      fmt(r.qps / dnsmasqQps, 2),
      fmt(r.qps / bareQps, 2),
      fmt(r.qps / bareLookupQps, 2),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows) console.log(line(row));
  } finally {
    for (const worker of [...bare.workers, ...bareLookup.workers]) await worker.terminate();
    await bootwright.core.stop();
    dnsmasq.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
