/**
 * Login flood: does an unauthenticated flood of logins with random usernames
 * slow down acknowledged writes? The built headless server runs on loopback
 * with a temp data directory; the admin logs in once, then a writer makes
 * sequential `POST /api/v1/dns/records` (unique names; each answer means the
 * record is on disk) and records their latencies, in three phases:
 *
 * 1. no flood (baseline);
 * 2. 16 concurrent loops of random-username logins, all from 127.0.0.1
 *    (one source: the per-source throttle's case);
 * 3. 16 loops from 16 loopback sources 127.0.0.2-17 (the global limit's and
 *    the hash queue's case);
 * 4. the same flood from 16 other sources with no writer: the memory the
 *    flood itself costs, without the writer's own garbage and store growth.
 *
 * Prints p50/p99/max of the writes per phase, the server's RSS
 * (/proc/<pid>/status VmRSS) before, after and at its peak (sampled every 200 ms) in each phase, and what the
 * logins got (200/401/429). Goal: p99 < 100 ms and RSS growth < 50 MB over
 * a flood phase.
 *
 *   npm run bench:security                 (builds dist/main first, then runs both security benches)
 *   node --import tsx bench/security/login-flood.ts [--seconds 20] [--loops 16]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Client, adminClient, ms, rssMiB, startServer, summarize, type Server, type Summary } from './harness.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    loops: { type: 'string', default: '16' },
  },
});
const SECONDS = Number(args.seconds);
const LOOPS = Number(args.loops);
const P99_GOAL_MS = 100;
const RSS_GOAL_MIB = 50;

interface Phase {
  name: string;
  writes: Summary;
  failedWrites: number;
  logins: Map<number, number>;
  rssBefore: number;
  rssAfter: number;
  /** Highest RSS sampled every 200 ms during the phase. */
  rssPeak: number;
}

let recordCounter = 0;

/** Sequential acknowledged writes until `until`; their latencies in ms. */
async function writer(admin: Client, until: number): Promise<{ latencies: number[]; failed: number }> {
  const latencies: number[] = [];
  let failed = 0;
  while (Date.now() < until) {
    recordCounter += 1;
    const started = performance.now();
    const reply = await admin.request('POST', '/api/v1/dns/records', { name: `bench-${recordCounter}`, type: 'A', value: '192.0.2.1' });
    const elapsed = performance.now() - started;
    if (reply.status === 201) latencies.push(elapsed);
    else failed += 1;
  }
  return { latencies, failed };
}

/** One login loop: random usernames as fast as the server answers, from one source address. */
async function loginLoop(server: Server, source: string, until: number, statuses: Map<number, number>): Promise<void> {
  const client = new Client(server.url, source);
  try {
    while (Date.now() < until) {
      const reply = await client.request('POST', '/api/v1/auth/login', { username: `u${randomBytes(8).toString('hex')}`, password: 'not-the-password' });
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    }
  } finally {
    client.close();
  }
}

async function phase(server: Server, admin: Client, name: string, sources: string[] | null, withWrites = true): Promise<Phase> {
  const rssBefore = await rssMiB(server.pid);
  const until = Date.now() + SECONDS * 1000;
  const logins = new Map<number, number>();
  const floods = sources ? Array.from({ length: LOOPS }, (_, i) => loginLoop(server, sources[i % sources.length]!, until, logins)) : [];
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    void rssMiB(server.pid).then((rss) => {
      rssPeak = Math.max(rssPeak, rss);
    }, () => undefined);
  }, 200);
  const [written] = await Promise.all([withWrites ? writer(admin, until) : Promise.resolve({ latencies: [], failed: 0 }), ...floods]).finally(() =>
    clearInterval(sampler),
  );
  const rssAfter = await rssMiB(server.pid);
  rssPeak = Math.max(rssPeak, rssAfter);
  return { name, writes: summarize(written.latencies), failedWrites: written.failed, logins, rssBefore, rssAfter, rssPeak };
}

async function main(): Promise<void> {
  const server = await startServer();
  try {
    const admin = await adminClient(server.url);
    // Warm-up: JIT and the store's first writes, outside the measurement.
    await writer(admin, Date.now() + 2000);
    const phases = [
      await phase(server, admin, 'no flood', null),
      await phase(server, admin, `${LOOPS} login loops, 1 source`, ['127.0.0.1']),
      await phase(server, admin, `${LOOPS} login loops, ${LOOPS} sources`, Array.from({ length: LOOPS }, (_, i) => `127.0.0.${i + 2}`)),
    ];
    // The flood alone: without the writer's own garbage, what the flood itself costs in memory.
    const floodOnly = await phase(server, admin, `${LOOPS} login loops, ${LOOPS} sources, no writes`, Array.from({ length: LOOPS }, (_, i) => `127.0.0.${i + 30}`), false);
    admin.close();
    console.log(`\nAcknowledged writes (POST /api/v1/dns/records, sequential) during ${SECONDS} s per phase; server RSS from /proc/${server.pid}/status`);
    console.log('| Phase | Writes | p50 ms | p99 ms | max ms | Failed writes | Logins 401 | Logins 429 | Other logins | RSS before MiB | RSS after MiB | RSS peak MiB |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const p of [...phases, floodOnly]) {
      const other = [...p.logins].filter(([status]) => status !== 401 && status !== 429).reduce((sum, [, n]) => sum + n, 0);
      console.log(
        `| ${p.name} | ${p.writes.count} | ${ms(p.writes.p50)} | ${ms(p.writes.p99)} | ${ms(p.writes.max)} | ${p.failedWrites} | ${p.logins.get(401) ?? 0} | ${p.logins.get(429) ?? 0} | ${other} | ` +
          `${p.rssBefore.toFixed(0)} | ${p.rssAfter.toFixed(0)} | ${p.rssPeak.toFixed(0)} |`,
      );
    }
    const base = phases[0]!;
    for (const p of phases.slice(1)) {
      const ratio = p.writes.p99 / base.writes.p99;
      // What the flood adds: its peak over the baseline phase's peak (the same write load without a flood).
      const growth = p.rssPeak - base.rssPeak;
      console.log(
        `${p.name}: p99 ${ms(p.writes.p99)} ms (${ratio.toFixed(2)}× the baseline; goal < ${P99_GOAL_MS} ms: ${p.writes.p99 < P99_GOAL_MS ? 'met' : 'NOT met'}), ` +
          `peak RSS ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MiB over the no-flood phase's peak (goal < ${RSS_GOAL_MIB}: ${growth < RSS_GOAL_MIB ? 'met' : 'NOT met'})`,
      );
    }
    const floodGrowth = floodOnly.rssPeak - floodOnly.rssBefore;
    console.log(
      `${floodOnly.name}: peak RSS ${floodGrowth >= 0 ? '+' : ''}${floodGrowth.toFixed(0)} MiB over the phase's start (goal < ${RSS_GOAL_MIB}: ${floodGrowth < RSS_GOAL_MIB ? 'met' : 'NOT met'})`,
    );
    console.log('(RSS is compared peak to peak: the writes alone grow the heap too, as the young generation fills up to --max-semi-space-size=32 and the store grows.)');
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
