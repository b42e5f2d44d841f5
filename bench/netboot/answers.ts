/**
 * Install tasks under a boot storm: 200 machines with install tasks, each at
 * its own address (127.0.0.0/8 is all loopback), through the built headless
 * server. Each round is what the machines do: all fetch their boot script
 * (the task's installer) at once, then — after their installers started —
 * all fetch their answer file at once. Fresh source addresses per round; the
 * first round warms up and is not counted. Serving the installer renders the
 * answer ahead, so the answers measure what an installer waits for.
 *
 *   npm run bench:netboot -- [--tasks 200] [--rounds 6] [--template preseed|kickstart|autoinstall]
 *
 * Goal (issue 13): answer rendering p99 < 10 ms, read from each answer's
 * Server-Timing header (the server's time for it); the table also shows what
 * the installers waited in all, which includes 200 connections queuing for
 * one event loop at the same instant.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { adminClient, Client, ms, spawnServe, summarize } from '../security/harness.js';

const { values: args } = parseArgs({
  options: {
    tasks: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '6' },
    distro: { type: 'string', default: 'debian' },
    version: { type: 'string', default: '12' },
  },
});
const TASKS = Number(args.tasks);
const ROUNDS = Number(args.rounds);
const GOAL_P99_MS = 10;

interface Task {
  id: number;
  answer_url: string | null;
}

/** The loopback source address of task `index` in round `round`: never reused, so no per-source limit is reached. */
function sourceAddress(round: number, index: number): string {
  return `127.${10 + round}.${Math.floor(index / 250)}.${(index % 250) + 1}`;
}

function mac(index: number): string {
  return `52:54:00:ab:${((index >> 8) & 0xff).toString(16).padStart(2, '0')}:${(index & 0xff).toString(16).padStart(2, '0')}`;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-netboot-'));
  // A local entry: placeholder files where the catalog looks for Debian's installer (rendering never reads them).
  const local = path.join(dataDir, 'boot', 'netboot', args.distro, args.version, 'x86_64');
  await mkdir(local, { recursive: true });
  await writeFile(path.join(local, 'linux'), 'kernel placeholder');
  await writeFile(path.join(local, 'initrd.gz'), 'initrd placeholder');
  const server = await spawnServe(dataDir, ['--max-semi-space-size=32']);
  const admin = await adminClient(server.url);
  try {
    const paths: string[] = [];
    for (let index = 0; index < TASKS; index += 1) {
      const reply = await admin.request('POST', '/api/v1/netboot/tasks', { mac: mac(index), distro: args.distro, version: args.version, arch: 'x86_64' });
      if (reply.status !== 201 && reply.status !== 200) throw new Error(`task ${index}: ${reply.status} ${reply.body}`);
      const task = (JSON.parse(reply.body) as { data: Task }).data;
      if (!task.answer_url) throw new Error(`task ${task.id} has no answer URL`);
      const url = new URL(task.answer_url);
      paths.push(`${url.pathname}${url.search}`);
    }
    const latencies: number[] = [];
    const serverTimes: number[] = [];
    const scriptLatencies: number[] = [];
    let bytes = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const clients = paths.map((_path, index) => new Client(server.url, sourceAddress(round, index)));
      const scripts = await Promise.all(
        paths.map(async (_path, index) => {
          const begin = performance.now();
          const reply = await clients[index]!.request('GET', `/boot/ipxe/boot.ipxe?mac=${encodeURIComponent(mac(index))}&arch=x86_64&platform=pcbios`);
          const took = performance.now() - begin;
          if (reply.status !== 200 || !reply.body.includes('preseed/url=')) throw new Error(`round ${round}, task ${index}: no installer script (${reply.status}): ${reply.body.slice(0, 300)}`);
          return took;
        }),
      );
      if (round > 0) scriptLatencies.push(...scripts);
      // The installers load their kernel and start (tens of seconds on real machines).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const started = performance.now();
      const samples = await Promise.all(
        paths.map(async (answerPath, index) => {
          const begin = performance.now();
          const reply = await clients[index]!.request('GET', answerPath);
          const took = performance.now() - begin;
          if (reply.status !== 200) throw new Error(`round ${round}, task ${index}: ${reply.status} ${reply.body.slice(0, 200)}`);
          bytes += reply.body.length;
          const timing = /answer;dur=([\d.]+)/.exec(String(reply.headers['server-timing'] ?? ''));
          if (!timing) throw new Error(`round ${round}, task ${index}: no Server-Timing header`);
          if (round > 0) serverTimes.push(Number(timing[1]));
          return took;
        }),
      );
      const burstMs = performance.now() - started;
      for (const client of clients) client.close();
      const summary = summarize(samples);
      const scriptSummary = summarize(scripts);
      const line = `${TASKS} installer scripts p99 ${ms(scriptSummary.p99)} ms; ${TASKS} answers in ${ms(burstMs)} ms, p50 ${ms(summary.p50)} ms, p99 ${ms(summary.p99)} ms`;
      if (round === 0) {
        console.log(`warm-up round (not counted): ${line}`);
        continue;
      }
      latencies.push(...samples);
      console.log(`round ${round}: ${line}`);
    }
    const all = summarize(latencies);
    const inServer = summarize(serverTimes);
    const boot = summarize(scriptLatencies);
    console.log(`\n| ${TASKS} machines at once × ${ROUNDS - 1} rounds | p50 | p99 | max | goal p99 |`);
    console.log(`|---|---|---|---|---|`);
    console.log(`| installer script (GET /boot/ipxe/boot.ipxe) | ${ms(boot.p50)} ms | ${ms(boot.p99)} ms | ${ms(boot.max)} ms | — |`);
    console.log(`| answer file, as the installer waits (GET /api/v1/netboot/answer/…, ${Math.round(bytes / (TASKS * ROUNDS))} B) | ${ms(all.p50)} ms | ${ms(all.p99)} ms | ${ms(all.max)} ms | — |`);
    console.log(`| answer file, in the server (Server-Timing: arrival in fastify → rendered answer sent) | ${ms(inServer.p50)} ms | ${ms(inServer.p99)} ms | ${ms(inServer.max)} ms | < ${GOAL_P99_MS} ms ${inServer.p99 < GOAL_P99_MS ? '✓' : '✗'} |`);
  } finally {
    admin.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
