/**
 * Audit flood: can anonymous requests push signed-in users' actions out of
 * the audit log, or grow audit.json without bound? The built headless server
 * runs on loopback with a temp data directory; the admin logs in (an
 * `auth.login` audit row), then `--connections` keep-alive clients send
 * anonymous `POST /api/v1/hosts` (each a 401) until `--requests` are sent or
 * `--seconds` pass. Afterwards (past the aggregator's 5 s write interval) it
 * checks that the admin's login is still listed by GET /audit-logs and
 * prints the request rate, audit.json's size, the audit rows of each class
 * and the server's RSS before and after.
 *
 *   npm run bench:security
 *   node --import tsx bench/security/audit-flood.ts [--requests 60000] [--seconds 180] [--connections 16]
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, adminClient, rssMiB, startServer } from './harness.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '60000' },
    seconds: { type: 'string', default: '180' },
    connections: { type: 'string', default: '16' },
  },
});
const REQUESTS = Number(args.requests);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);

interface AuditPage {
  data: { user: string; action: string; outcome: string; authenticated: boolean; count: number }[];
  meta: { total: number };
}

async function main(): Promise<void> {
  const server = await startServer();
  try {
    const admin = await adminClient(server.url);
    const sizeBefore = await auditBytes(server.dataDir);
    const rssBefore = await rssMiB(server.pid);
    const until = Date.now() + SECONDS * 1000;
    let sent = 0;
    const statuses = new Map<number, number>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        const client = new Client(server.url);
        try {
          while (sent < REQUESTS && Date.now() < until) {
            sent += 1;
            const reply = await client.request('POST', '/api/v1/hosts', { mac: '52:54:00:00:00:01' });
            statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          }
        } finally {
          client.close();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const rssAfter = await rssMiB(server.pid);
    // The aggregate rows are rewritten at most every 5 s.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const sizeAfter = await auditBytes(server.dataDir);
    const list = async (query: string): Promise<AuditPage> => {
      const reply = await admin.request('GET', `/api/v1/audit-logs${query}`);
      if (reply.status !== 200) throw new Error(`GET /audit-logs${query}: ${reply.status} ${reply.body}`);
      return JSON.parse(reply.body) as AuditPage;
    };
    const logins = await list('?action=auth.login&authenticated=true&size=500');
    const adminLogin = logins.data.some((entry) => entry.user === 'admin' && entry.outcome === 'success');
    const unauthenticated = await list('?authenticated=false&size=500');
    const counted = unauthenticated.data.reduce((sum, entry) => sum + entry.count, 0);
    admin.close();

    console.log(`\nAnonymous POST /api/v1/hosts: ${sent} requests over ${CONNECTIONS} connections in ${seconds.toFixed(1)} s (${(sent / seconds).toFixed(0)}/s)`);
    console.log(`statuses: ${[...statuses].map(([status, n]) => `${status}×${n}`).join(', ')}`);
    console.log('| Check | Result |');
    console.log('|---|---|');
    console.log(`| admin's auth.login row still listed | ${adminLogin ? 'yes' : 'NO'} |`);
    console.log(`| unauthenticated audit rows (total) | ${unauthenticated.meta.total} |`);
    console.log(`| requests they count (first 500 rows) | ${counted} |`);
    console.log(`| audit on disk (audit.json + collections/audit/) before → after | ${(sizeBefore / 1024).toFixed(1)} KiB → ${(sizeAfter / 1024).toFixed(1)} KiB |`);
    console.log(`| RSS before → after the flood | ${rssBefore.toFixed(0)} MiB → ${rssAfter.toFixed(0)} MiB (${rssAfter - rssBefore >= 0 ? '+' : ''}${(rssAfter - rssBefore).toFixed(0)} MiB) |`);
    if (!adminLogin) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});

/** Bytes the audit log holds on disk: its store file and its collections' journals (with their zero-filled stretch) and snapshots. */
async function auditBytes(dataDir: string): Promise<number> {
  const journals = path.join(dataDir, 'collections', 'audit');
  const names = await readdir(journals).catch(() => [] as string[]);
  const sizes = await Promise.all([path.join(dataDir, 'audit.json'), ...names.map((name) => path.join(journals, name))].map(async (file) => (await stat(file)).size));
  return sizes.reduce((a, b) => a + b, 0);
}
