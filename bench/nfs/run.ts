/**
 * NFS benchmark (issue 15): the same workloads, in one run, against
 * NFS-Ganesha (Debian nfs-ganesha, VFS FSAL, read-only export, NFS v3 only)
 * and against Bootwright's read-only NFS v3 server (the built headless
 * server, configured by PUT /services/nfs), both exporting the same folder:
 *
 * 1. sequential read: a 1 GiB file copied with libnfs's
 *    `nfs-cat nfs://<addr>/bench/big.bin?version=3 > /dev/null` (the bytes checked once with nfs-cp in the warm-up); MB/s of the
 *    best and the median run (goal: Bootwright ≥ 1.0× Ganesha's median);
 * 2. directory walk: `nfs-ls -R` of 10,000 files in 100 folders (READDIRPLUS);
 *    seconds (goal: Bootwright ≥ 0.8× Ganesha's speed).
 *
 * Each server runs in its own network namespace on CPU 1 (taskset), reached
 * over a veth from the root namespace, where the clients run on CPU 0; both
 * answer on the standard ports with their own portmapper (Ganesha with
 * rpcbind, Bootwright with its own). The servers take turns within each run,
 * after an untimed warm-up each (`--warmup` rounds of a read and a walk), so the machine's other load hits both alike
 * and both read from the page cache. Times are the wall time of the client
 * process (mount, transfer, unmount).
 *
 *   npm run bench:nfs -- [--size 1024] [--files 10000] [--runs 5] [--warmup 5] [--only ganesha|bootwright] [--smoke] [--cpu-prof DIR]
 *
 * `--cpu-prof DIR`: Bootwright's server writes a V8 CPU profile of the whole run into DIR
 * (node --cpu-prof; open it in Chrome's DevTools) — the times then include the profiler.
 * `--size` in MiB; `--smoke`: 16 MiB, 300 files, 1 run (proves the set-up, measures nothing).
 * As root; needs ip, taskset, nfs-cp and nfs-ls (libnfs-utils), ganesha.nfsd
 * (nfs-ganesha nfs-ganesha-vfs), rpcbind and rpcinfo. Builds dist/main first
 * (the bench runs what ships). Ends with one JSON line (`{"bench":"nfs",…}`).
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { startGanesha, type Ganesha } from '../../tests/helpers/ganesha.js';
import { NetLab, netnsUnavailable } from '../../tests/helpers/netns.js';
import { NetnsServer } from '../../tests/helpers/netns-server.js';
import { tempDir } from '../../tests/helpers/test-core.js';
import { median, patternFile, timed } from '../bench-kit.js';

const exec = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    size: { type: 'string' },
    files: { type: 'string' },
    runs: { type: 'string' },
    only: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    warmup: { type: 'string' },
  },
});
const MiB = 1024 * 1024;
const SMOKE = args.smoke === true;
const SIZE = Math.round(Number(args.size ?? (SMOKE ? 16 : 1024)) * MiB);
const FILES = Number(args.files ?? (SMOKE ? 300 : 10_000));
const RUNS = Number(args.runs ?? (SMOKE ? 1 : 5));
/**
 * Untimed rounds (a read and a walk) per server before the timed runs.
 * Bootwright's NFS code runs as bytecode until V8 has seen it enough to
 * optimise it, and that optimisation (1–10 ms per function) runs on V8's
 * compiler threads — on the server's one CPU here. After one warm-up round
 * the timed runs still shared the core with the compiler: a call now and
 * then waited up to 7 ms for it. The bench measures a server that has been
 * serving for a while; the first walk after start is printed apart ("cold").
 */
const WARMUP_ROUNDS = Number(args.warmup ?? (SMOKE ? 1 : 5));
const ONLY = args.only ?? null;
const PROFILE_DIR = args['cpu-prof'] === undefined ? null : path.resolve(args['cpu-prof']);
if (ONLY !== null && ONLY !== 'ganesha' && ONLY !== 'bootwright') {
  console.error(`--only takes ganesha or bootwright, not ${ONLY}`);
  process.exit(2);
}
if (!(SIZE > 0) || !(FILES > 0) || !Number.isInteger(RUNS) || RUNS < 1 || !Number.isInteger(WARMUP_ROUNDS) || WARMUP_ROUNDS < 1) {
  console.error('--size and --files must be positive numbers, --runs and --warmup positive integers');
  process.exit(2);
}
/** The export's path on both servers. */
const EXPORT = '/bench';
/** taskset CPU lists: the servers on one core, the clients (and this process) on another. */
const PINNING = os.cpus().length >= 2 ? { server: '1', client: '0' } : null;
const CLIENT = PINNING ? ['taskset', '-c', PINNING.client] : [];

interface Contender {
  name: string;
  key: 'ganesha' | 'bootwright';
  /** The address its NFS answers on (from the root namespace). */
  address: string;
  stop(): Promise<void>;
}

interface Samples {
  readSeconds: number[];
  walkSeconds: number[];
}

async function client(cmd: string, cmdArgs: string[]): Promise<string> {
  const argv = [...CLIENT, cmd, ...cmdArgs];
  const [file, ...rest] = argv;
  if (file === undefined) throw new Error('empty command');
  try {
    const { stdout } = await exec(file, rest, { timeout: 600_000, maxBuffer: 256 * MiB });
    return stdout;
  } catch (err) {
    const failed = err as { stderr?: string; code?: unknown };
    throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${String(failed.code)}): ${(failed.stderr ?? String(err)).trim()}`, { cause: err });
  }
}

/** `files` small files spread evenly over ⌈√files⌉ folders (10,000 → 100 × 100); returns the folder count. */
async function tree(root: string, files: number): Promise<number> {
  const dirs = Math.ceil(Math.sqrt(files));
  let made = 0;
  for (let d = 0; d < dirs; d++) {
    const dir = path.join(root, `d${String(d).padStart(3, '0')}`);
    await mkdir(dir, { recursive: true });
    const here = Math.floor(files / dirs) + (d < files % dirs ? 1 : 0);
    for (let f = 0; f < here; f++, made++) await writeFile(path.join(dir, `f${String(f).padStart(4, '0')}.txt`), `file ${made}\n`);
  }
  return dirs;
}

/** The warm-up's check of the bytes: nfs-cp into tmpfs, byte count compared (untimed). */
async function copyOnce(contender: Contender, target: string): Promise<void> {
  const url = `nfs://${contender.address}${EXPORT}/big.bin?version=3`;
  const out = await client('nfs-cp', [url, target]);
  if (!out.includes(`copied ${SIZE} bytes`)) throw new Error(`nfs-cp from ${contender.name}: expected "copied ${SIZE} bytes", got: ${out.trim()}`);
  const copied = (await stat(target)).size;
  await rm(target, { force: true });
  if (copied !== SIZE) throw new Error(`nfs-cp from ${contender.name} wrote ${copied} bytes, expected ${SIZE}`);
}

/**
 * One timed sequential read: nfs-cat into /dev/null. Not nfs-cp into tmpfs:
 * on this VM, writing 1 GiB into fresh tmpfs pages cost the client 1.5 ms per
 * MiB on some runs and not others (the guest's first touch of its memory),
 * which swung either server between 300 and 1,000 MB/s from run to run.
 */
async function readOnce(contender: Contender): Promise<number> {
  const url = `nfs://${contender.address}${EXPORT}/big.bin?version=3`;
  return timed(() => client('sh', ['-c', 'exec nfs-cat "$0" > /dev/null', url]));
}

/** One recursive listing with nfs-ls; checks it saw every file and folder. */
async function walkOnce(contender: Contender, entries: number): Promise<number> {
  const url = `nfs://${contender.address}${EXPORT}/?version=3`;
  let lines = 0;
  const seconds = await timed(async () => {
    const out = await client('nfs-ls', ['-R', url]);
    lines = out.split('\n').filter((line) => line.trim() !== '').length;
  });
  if (lines !== entries) throw new Error(`nfs-ls -R on ${contender.name} listed ${lines} entries, expected ${entries}`);
  return seconds;
}

async function startGaneshaContender(lab: NetLab, exported: string, work: string): Promise<Contender> {
  const ns = await lab.namespace('gan');
  const link = await lab.rootLink(ns, 'eth0');
  const dir = path.join(work, 'ganesha');
  await mkdir(dir, { recursive: true });
  const ganesha: Ganesha = await startGanesha(ns, { workDir: dir, exports: [{ folder: exported, path: EXPORT, clients: [`${link.rootAddress}/32`] }], ...(PINNING ? { cpus: PINNING.server } : {}) });
  return { name: 'NFS-Ganesha (VFS)', key: 'ganesha', address: link.address, stop: () => ganesha.stop() };
}

async function startBootwrightContender(lab: NetLab, dataDir: string, exported: string): Promise<Contender> {
  const ns = await lab.namespace('bw');
  const link = await lab.rootLink(ns, 'eth0');
  const nodeArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const server = new NetnsServer(ns, dataDir, link.address, { logLevel: 'warn', built: true, nodeArgs, ...(PINNING ? { cpus: PINNING.server } : {}) });
  await server.start();
  try {
    // The contract (src-main/nfs/nfs-contract.ts): an enabled service with one folder export for our side of the veth.
    const put = await server.api('PUT', '/services/nfs', { enabled: true, exports: [{ path: EXPORT, folder: exported, clients: [`${link.rootAddress}/32`] }] });
    if (put.status === 404) throw new Error('PUT /services/nfs → 404: this build has no NFS server (the nfs area is not merged)');
    if (put.status >= 300) throw new Error(`PUT /services/nfs → ${put.status}: ${JSON.stringify(put.body)}`);
    // Serving once NFS v3 answers a NULL call through its portmapper (what the clients use too).
    await server.waitFor(
      'NFS v3 on Bootwright',
      async () => ((await ns.run('rpcinfo', ['-t', '127.0.0.1', '100003', '3'], { timeoutMs: 5_000 })).code === 0 ? true : undefined),
      30_000,
    );
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { name: 'Bootwright', key: 'bootwright', address: link.address, stop: () => server.stop() };
}

async function main(): Promise<void> {
  const unavailable = netnsUnavailable(['taskset', 'nfs-cp', 'nfs-ls', 'rpcinfo', ...(ONLY === 'bootwright' ? [] : ['ganesha.nfsd', 'rpcbind'])]);
  if (unavailable) {
    console.error(`bench:nfs cannot run: ${unavailable}`);
    process.exit(2);
  }
  if (PINNING) await exec('taskset', ['-cp', PINNING.client, String(process.pid)]).catch(() => null);
  const work = await tempDir('bw-bench-nfs-');
  const lab = await NetLab.create();
  const contenders: Contender[] = [];
  const problems = new Map<string, string>();
  const tmpfs = path.join('/dev/shm', `bw-bench-nfs-${process.pid}.bin`);
  try {
    // The files live in Bootwright's boot root (an allowed root for exports); Ganesha exports the same folder.
    const dataDir = path.join(work.dir, 'data');
    const exported = path.join(dataDir, 'boot', 'bench');
    await mkdir(path.join(exported, 'tree'), { recursive: true });
    await patternFile(path.join(exported, 'big.bin'), SIZE);
    const dirs = await tree(path.join(exported, 'tree'), FILES);
    // nfs-ls -R lists big.bin, tree/, the folders and the files.
    const entries = 2 + dirs + FILES;

    for (const [key, start] of [
      ['ganesha', () => startGaneshaContender(lab, exported, work.dir)],
      ['bootwright', () => startBootwrightContender(lab, dataDir, exported)],
    ] as const) {
      if (ONLY !== null && ONLY !== key) continue;
      try {
        contenders.push(await start());
      } catch (err) {
        problems.set(key, err instanceof Error ? err.message : String(err));
        console.error(`${key} did not start: ${problems.get(key)}`);
      }
    }
    console.log(
      `NFS v3: ${(SIZE / MiB).toFixed(0)} MiB sequential read (nfs-cat > /dev/null), ${FILES} files in ${dirs} folders walked (nfs-ls -R), ${RUNS} run(s)` +
        ` (${os.cpus().length} CPUs${PINNING ? `, servers on CPU ${PINNING.server}, clients on CPU ${PINNING.client}` : ''}${SMOKE ? ', SMOKE: sizes too small to measure' : ''})\n`,
    );

    const samples = new Map<string, Samples>(contenders.map((c) => [c.key, { readSeconds: [], walkSeconds: [] }]));
    /** Each server's first walk after start (part of the warm-up, printed apart). */
    const coldWalk = new Map<string, number>();
    for (const contender of contenders) {
      // Warm-up, untimed: the page cache, the server's own caches and JIT.
      try {
        await copyOnce(contender, tmpfs);
        for (let round = 0; round < WARMUP_ROUNDS; round++) {
          await readOnce(contender);
          const seconds = await walkOnce(contender, entries);
          if (round === 0) coldWalk.set(contender.key, seconds);
        }
      } catch (err) {
        problems.set(contender.key, err instanceof Error ? err.message : String(err));
      }
    }
    for (let run = 0; run < RUNS; run++) {
      for (const contender of contenders) {
        if (problems.has(contender.key)) continue;
        const mine = samples.get(contender.key);
        if (!mine) continue;
        try {
          mine.readSeconds.push(await readOnce(contender));
          mine.walkSeconds.push(await walkOnce(contender, entries));
        } catch (err) {
          problems.set(contender.key, err instanceof Error ? err.message : String(err));
        }
      }
    }

    const rate = (seconds: number) => SIZE / 1e6 / seconds;
    const summary = (key: string) => {
      const mine = samples.get(key);
      if (!mine || mine.readSeconds.length === 0 || problems.has(key)) return null;
      return {
        read_mb_s_best: rate(Math.min(...mine.readSeconds)),
        read_mb_s_median: rate(median(mine.readSeconds)),
        walk_s_best: Math.min(...mine.walkSeconds),
        walk_s_median: median(mine.walkSeconds),
      };
    };
    const ganesha = summary('ganesha');
    const bootwright = summary('bootwright');
    const cell = (key: string, value: string | null) => value ?? (problems.has(key) ? 'failed' : ONLY !== null && ONLY !== key ? 'not run' : '–');
    const mbs = (s: ReturnType<typeof summary>) => (s ? `${s.read_mb_s_best.toFixed(0)} / ${s.read_mb_s_median.toFixed(0)} MB/s` : null);
    const secs = (s: ReturnType<typeof summary>) => (s ? `${s.walk_s_best.toFixed(2)} / ${s.walk_s_median.toFixed(2)} s` : null);
    // Ratios are of speeds (higher is better for Bootwright), from the medians.
    const readRatio = ganesha && bootwright ? bootwright.read_mb_s_median / ganesha.read_mb_s_median : null;
    const walkRatio = ganesha && bootwright ? ganesha.walk_s_median / bootwright.walk_s_median : null;
    const ratioCell = (value: number | null, goal: number) => (value === null ? '–' : `${value.toFixed(2)}×${value < goal ? ' — **missed**' : ''}`);
    console.log('| workload (best / median) | Bootwright | NFS-Ganesha (VFS) | Bootwright / Ganesha (speed) | goal |');
    console.log('|---|---:|---:|---:|---|');
    console.log(`| sequential read, ${(SIZE / MiB).toFixed(0)} MiB, nfs-cat | ${cell('bootwright', mbs(bootwright))} | ${cell('ganesha', mbs(ganesha))} | ${ratioCell(readRatio, 1.0)} | ≥ 1.0× |`);
    console.log(`| walk of ${FILES} files in ${dirs} folders, nfs-ls -R | ${cell('bootwright', secs(bootwright))} | ${cell('ganesha', secs(ganesha))} | ${ratioCell(walkRatio, 0.8)} | ≥ 0.8× |`);
    const cold = (key: string) => {
      const seconds = coldWalk.get(key);
      return seconds === undefined ? null : `${seconds.toFixed(2)} s`;
    };
    console.log(`| first walk after start (cold, untimed warm-up) | ${cell('bootwright', cold('bootwright'))} | ${cell('ganesha', cold('ganesha'))} | – | – |`);
    for (const [key, problem] of problems) console.log(`\n${key} failed: ${problem}`);
    console.log(
      JSON.stringify({
        bench: 'nfs',
        smoke: SMOKE,
        size_bytes: SIZE,
        files: FILES,
        folders: dirs,
        runs: RUNS,
        warmup_rounds: WARMUP_ROUNDS,
        cold_walk_s: { ganesha: coldWalk.get('ganesha') ?? null, bootwright: coldWalk.get('bootwright') ?? null },
        ganesha,
        bootwright,
        ratio: { sequential_read: readRatio, walk: walkRatio },
        goals: { sequential_read: 1.0, walk: 0.8 },
        failed: Object.fromEntries(problems),
      }),
    );
    if (problems.size > 0) process.exitCode = 1;
  } finally {
    for (const contender of contenders) await contender.stop().catch(() => undefined);
    await lab.destroy();
    await rm(tmpfs, { force: true });
    await work.remove();
  }
}

await main();
