/**
 * Power benchmark: the time to log in to a BMC, read its power state and
 * log out — Bootwright's IPMI client (in process) against ipmitool, the
 * reference client (one process per query, as scripts use it) — both
 * talking lanplus, cipher suite 3, to OpenIPMI's ipmi_sim on 127.0.0.1.
 * Then a fleet-style run: N status queries with 8 in flight (Bootwright's
 * batch concurrency; ipmitool as 8 parallel processes).
 *
 *   npm run bench:power -- [--queries 40] [--runs 1]
 *
 * Loopback only. Prints milliseconds per query and the ratios.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { runBatch } from '../../src-main/power/batch-runner.js';
import type { BmcTarget } from '../../src-main/power/bmc-client.js';
import { connectIpmi } from '../../src-main/power/ipmi/ipmi-connection.js';
import { findTool, run } from '../../tests/helpers/netns.js';
import { startIpmiSim } from '../../tests/integration/power/ipmi-sim.js';

const { values: args } = parseArgs({ options: { queries: { type: 'string', default: '40' }, runs: { type: 'string', default: '1' } } });
const QUERIES = Number(args.queries);
const RUNS = Number(args.runs);
const CONCURRENCY = 8;

const ipmitoolPath = findTool('ipmitool');
if (!findTool('ipmi_sim') || !ipmitoolPath) {
  console.error('bench:power needs ipmi_sim (Debian openipmi) and ipmitool');
  process.exit(1);
}

const sim = await startIpmiSim();
const target: BmcTarget = { protocol: 'ipmi', address: '127.0.0.1', port: sim.port, username: 'admin', password: 'secretpw', verifyTls: true, cipherSuite: 3, privilege: 'administrator' };

async function ours(): Promise<void> {
  const connection = await connectIpmi(target, { timeoutMs: 6_000, retries: 2 });
  try {
    await connection.powerState();
  } finally {
    await connection.close();
  }
}

async function reference(): Promise<void> {
  const result = await run(ipmitoolPath!, ['-I', 'lanplus', '-H', '127.0.0.1', '-p', String(sim.port), '-U', 'admin', '-P', 'secretpw', '-C', '3', 'chassis', 'power', 'status']);
  if (result.code !== 0 || !/Chassis Power is/.test(result.stdout)) throw new Error(`ipmitool failed: ${result.stderr}`);
}

async function timed(concurrency: number, query: () => Promise<void>): Promise<number> {
  const start = performance.now();
  const outcomes = await runBatch(Array.from({ length: QUERIES }, (_, i) => i), concurrency, () => query());
  const failed = outcomes.filter((outcome) => !outcome.ok);
  if (failed.length > 0) throw new Error(`${failed.length} queries failed: ${String((failed[0] as { error: unknown }).error)}`);
  return (performance.now() - start) / QUERIES;
}

try {
  await ours();
  await reference();
  const rows: [string, number, number][] = [];
  for (let runIndex = 0; runIndex < RUNS; runIndex += 1) {
    rows.push([`login+status+logout, sequential (run ${runIndex + 1})`, await timed(1, ours), await timed(1, reference)]);
    rows.push([`login+status+logout, ${CONCURRENCY} in flight (run ${runIndex + 1})`, await timed(CONCURRENCY, ours), await timed(CONCURRENCY, reference)]);
  }
  console.log(`\n${QUERIES} queries per cell, ipmi_sim on 127.0.0.1:${sim.port}, cipher suite 3\n`);
  console.log('| workload | Bootwright ms/query | ipmitool ms/query | ipmitool / Bootwright |');
  console.log('|---|---:|---:|---:|');
  for (const [name, mine, theirs] of rows) console.log(`| ${name} | ${mine.toFixed(2)} | ${theirs.toFixed(2)} | ${(theirs / mine).toFixed(1)}× |`);
} finally {
  await sim.stop();
}
