/**
 * TFTP benchmark, side by side in one run on loopback:
 *
 * 1. a 50 MB file fetched with atftp at blksize 1468 and windowsize 1, 16
 *    and 64 from Bootwright (its TFTP service, worker thread and all), from
 *    tftpd-hpa (Debian; no windowsize, so only windowsize 1) and from a bare
 *    Node sender (bench/tftp/bare-sender.ts: the runtime's own limit);
 * 2. 200 concurrent atftp clients (at nice 19: real clients are other
 *    machines and take none of the server's CPU) fetching ipxe.efi from
 *    Bootwright and from tftpd-hpa: total time and failures, while a
 *    separate process measures the latency of GET /api/v1/services on
 *    Bootwright (p50/p99) and the bench records the main thread's
 *    event-loop delay. The clients are started by a separate process
 *    (client-swarm.ts).
 *
 *   npm run bench:tftp -- [--size-mb 50] [--runs 3] [--clients 200]
 *
 * Needs atftp and tftpd-hpa (apt-get install atftp tftpd-hpa). Times are
 * the wall time of the atftp processes, started from a separate process
 * (client-swarm.ts) so that no spawn stalls Bootwright's main thread; median
 * of the runs, the servers taking turns within each run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { AppCore } from '../../src-main/app/app-core.js';
import { defaultConfig } from '../../src-main/core/config.js';
import type { Nic } from '../../src-main/network/nic.js';

const { values: args } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '50' },
    runs: { type: 'string', default: '3' },
    clients: { type: 'string', default: '200' },
  },
});
const SIZE = Number(args['size-mb']) * 1024 * 1024;
const RUNS = Number(args.runs);
const CLIENTS = Number(args.clients);
const BLKSIZE = 1468;
const PORTS = { bootwright: 16901, tftpd: 16902, bare: 16903 } as const;
const HERE = import.meta.dirname;

const loopback = (): Nic[] => [
  { name: 'bench0', mac: '02:00:00:00:00:09', mtu: 65536, up: true, link: 'up', internal: false, addresses: [{ address: '127.0.0.1', family: 'ipv4', prefix: 8, cidr: '127.0.0.1/8', subnet: '127.0.0.0/8' }] },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function waitForLine(child: ChildProcess, line: string): Promise<void> {
  const lines = createInterface({ input: child.stdout! });
  for await (const text of lines) if (text.includes(line)) return;
  throw new Error(`${child.spawnfile} exited before printing "${line}"`);
}

/** Runs atftp clients from the client-swarm process; resolves with their total wall time and failures. */
async function swarm(options: { port: number; file: string; count: number; windowsize: number; expectedSize: number; outDir: string; nice: boolean }): Promise<{ seconds: number; failures: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(HERE, 'client-swarm.ts'), String(options.port), options.file, String(options.count), String(BLKSIZE), String(options.windowsize), String(options.expectedSize), options.outDir, options.nice ? '1' : '0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const output: Buffer[] = [];
  for await (const chunk of child.stdout!) output.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(output).toString()) as { seconds: number; failures: number };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-tftp-'));
  const children: ChildProcess[] = [];
  let core: AppCore | null = null;
  try {
    const dataDir = path.join(work, 'data');
    const root = path.join(dataDir, 'boot');
    await mkdir(root, { recursive: true });
    const big = Buffer.allocUnsafe(SIZE);
    for (let i = 0; i < SIZE; i += 4) big.writeUInt32LE((i * 2654435761) >>> 0, i);
    await writeFile(path.join(root, 'big.bin'), big);
    // tftpd-hpa drops to the tftp user: it must be able to read the files.
    for (const dir of [work, dataDir, root]) await chmod(dir, 0o755);

    core = await AppCore.create({ config: { ...defaultConfig(dataDir), listen: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' }, fileLog: false, rendererDir: null, nicReader: loopback, autoStartServices: ['tftp'] });
    await core.area('tftp').settings.update({ port: PORTS.bootwright, max_windowsize: 64 });
    await core.start();
    if (core.kernel.services.get('tftp').state !== 'running') throw new Error(`Bootwright TFTP did not start: ${core.kernel.services.get('tftp').last_error}`);
    const efiSize = (await stat(path.join(root, 'ipxe.efi'))).size;
    await chmod(path.join(root, 'ipxe.efi'), 0o644);

    const tftpd = spawn('in.tftpd', ['-L', '-a', `127.0.0.1:${PORTS.tftpd}`, '-s', root], { stdio: 'ignore' });
    children.push(tftpd);
    const bare = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'bare-sender.ts'), String(PORTS.bare), root], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(bare);
    await waitForLine(bare, 'ready');
    await new Promise((resolve) => setTimeout(resolve, 300));

    console.log(`TFTP: ${args['size-mb']} MB over loopback with atftp, blksize ${BLKSIZE}, median of ${RUNS} runs (Node ${process.version}, ${os.cpus().length} CPUs)\n`);
    const servers = [
      { name: 'Bootwright', port: PORTS.bootwright, windows: [1, 16, 64] },
      { name: 'tftpd-hpa', port: PORTS.tftpd, windows: [1] },
      { name: 'bare Node sender', port: PORTS.bare, windows: [1, 16, 64] },
    ];
    // The servers take turns within each run, so load from elsewhere on the machine hits them alike.
    const samples = new Map<string, number[]>();
    const failures = new Map<string, number>();
    for (let i = 0; i < RUNS; i++) {
      for (const windowsize of [1, 16, 64]) {
        for (const server of servers) {
          if (!server.windows.includes(windowsize)) continue;
          const key = `${server.name}/${windowsize}`;
          const result = await swarm({ port: server.port, file: 'big.bin', count: 1, windowsize, expectedSize: SIZE, outDir: work, nice: false });
          if (result.failures > 0) failures.set(key, (failures.get(key) ?? 0) + 1);
          else samples.set(key, [...(samples.get(key) ?? []), result.seconds]);
        }
      }
    }
    const results = new Map<string, number | null>([...samples].map(([key, times]) => [key, median(times)]));
    for (const [key, count] of failures) console.log(`  ${key}: ${count} failed runs`);
    const fmt = (value: number | null | undefined) => (value === null || value === undefined ? 'n/a' : `${value.toFixed(2)} s`);
    const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? `${(b / a).toFixed(2)}×` : 'n/a');
    console.log('| windowsize | Bootwright | bare Node sender | tftpd-hpa | Bootwright vs bare (speed) | Bootwright vs tftpd-hpa (speed) |');
    console.log('|---:|---:|---:|---:|---:|---:|');
    const tftpdBest = results.get('tftpd-hpa/1');
    for (const windowsize of [1, 16, 64]) {
      const ours = results.get(`Bootwright/${windowsize}`);
      const bareTime = results.get(`bare Node sender/${windowsize}`);
      console.log(`| ${windowsize} | ${fmt(ours)} | ${fmt(bareTime)} | ${windowsize === 1 ? fmt(tftpdBest) : 'no windowsize'} | ${ratio(ours, bareTime)} | ${ratio(ours, tftpdBest)} |`);
    }

    console.log(`\n${CLIENTS} concurrent atftp clients (nice 19) fetching ipxe.efi (${efiSize} bytes, blksize ${BLKSIZE})\n`);
    const token = (await core.area('auth').tokens.create({ name: 'bench-probe', role: 'viewer' }, 'bench')).secret;
    const concurrent = async (port: number, probe: boolean) => {
      const prober = probe
        ? spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'api-probe.ts'), `${core!.url()}/api/v1/services`, token, '5'], { stdio: ['pipe', 'pipe', 'inherit'] })
        : null;
      if (prober) children.push(prober);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The main thread's own stalls (the API runs there), apart from the machine's: event-loop delay.
      // The clients start from a separate process (client-swarm.ts): spawning 200 processes from here would stall this thread.
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const { seconds, failures } = await swarm({ port, file: 'ipxe.efi', count: CLIENTS, windowsize: 1, expectedSize: efiSize, outDir: work, nice: true });
      loop.disable();
      const loopP99 = loop.percentile(99) / 1e6;
      let api: { latencies: number[]; errors: number } | null = null;
      if (prober) {
        prober.stdin!.end();
        const output: Buffer[] = [];
        for await (const chunk of prober.stdout!) output.push(chunk as Buffer);
        api = JSON.parse(Buffer.concat(output).toString()) as { latencies: number[]; errors: number };
      }
      return { seconds, failures, api, loopP99 };
    };
    const idle = await (async () => {
      const prober = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'api-probe.ts'), `${core!.url()}/api/v1/services`, token, '5'], { stdio: ['pipe', 'pipe', 'inherit'] });
      children.push(prober);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      prober.stdin!.end();
      const output: Buffer[] = [];
      for await (const chunk of prober.stdout!) output.push(chunk as Buffer);
      return JSON.parse(Buffer.concat(output).toString()) as { latencies: number[]; errors: number };
    })();
    const ours = await concurrent(PORTS.bootwright, true);
    const theirs = await concurrent(PORTS.tftpd, false);
    console.log('| server | total time | failures | API p50 during run | API p99 during run | API requests | main-thread event-loop delay p99 |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    const lat = (api: { latencies: number[] } | null, p: number) => (api && api.latencies.length ? `${percentile(api.latencies, p).toFixed(1)} ms` : '—');
    console.log(`| Bootwright | ${ours.seconds.toFixed(2)} s | ${ours.failures} | ${lat(ours.api, 50)} | ${lat(ours.api, 99)} | ${ours.api?.latencies.length ?? 0} (${ours.api?.errors ?? 0} errors) | ${ours.loopP99.toFixed(1)} ms |`);
    console.log(`| tftpd-hpa | ${theirs.seconds.toFixed(2)} s | ${theirs.failures} | — | — | — | — |`);
    console.log(`\nAPI latency with TFTP idle: p50 ${percentile(idle.latencies, 50).toFixed(1)} ms, p99 ${percentile(idle.latencies, 99).toFixed(1)} ms (${idle.latencies.length} requests)`);
    const completed = core.kernel.events.all().filter((event) => event.kind === 'tftp.transfer.completed').length;
    console.log(`Bootwright events: ${completed} tftp.transfer.completed`);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
    await core?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
