/**
 * HTTP boot benchmark, side by side in one run on loopback: a 100 MB initrd
 * from Bootwright's /boot/, from nginx (Debian, one worker, sendfile on) and
 * from a bare Node server (http.createServer piping a file read stream: the
 * runtime's own limit),
 *
 * 1. one curl download at a time (median wall time of the runs);
 * 2. wrk with a few connections for a fixed time (throughput; median of the runs).
 *
 * The servers take turns within each run, so load from elsewhere on the
 * machine hits them alike.
 *
 *   npm run bench:http -- [--size-mb 100] [--runs 5] [--seconds 4] [--connections 4]
 *
 * Needs curl, wrk and nginx (apt-get install curl wrk nginx-light).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { AppCore } from '../../src-main/app/app-core.js';
import { defaultConfig } from '../../src-main/core/config.js';
import { sendfileUnavailableReason } from '../../src-main/core/sendfile-transfer.js';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '100' },
    runs: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '4' },
  },
});
const SIZE = Number(args['size-mb']) * 1024 * 1024;
const NGINX_PORT = 16980;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function curlSeconds(url: string): Promise<number> {
  const { stdout } = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', url]);
  const [code, size, seconds] = stdout.split(' ');
  if (code !== '200' || Number(size) !== SIZE) throw new Error(`curl ${url}: HTTP ${code}, ${size} bytes`);
  return Number(seconds);
}

/** wrk's transfer rate in MB/s and the requests completed. */
async function wrk(url: string): Promise<{ mbPerSecond: number; requests: number; errors: string }> {
  const { stdout } = await run('wrk', ['-t', '2', '-c', args.connections!, '-d', `${args.seconds}s`, '--timeout', '30s', url], { timeout: 120_000 });
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const rate = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(stdout);
  const unit = { B: 1 / 1024 / 1024, KB: 1 / 1024, MB: 1, GB: 1024 }[rate?.[2] ?? 'MB'] ?? 1;
  const errors = /Non-2xx or 3xx responses: (\d+)|Socket errors: .*/.exec(stdout)?.[0] ?? '';
  return { mbPerSecond: Number(rate?.[1] ?? 0) * unit, requests, errors };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-http-'));
  let core: AppCore | null = null;
  let nginx: ChildProcess | null = null;
  try {
    const dataDir = path.join(work, 'data');
    const root = path.join(dataDir, 'boot');
    await mkdir(root, { recursive: true });
    const initrd = Buffer.allocUnsafe(SIZE);
    for (let i = 0; i < SIZE; i += 4) initrd.writeUInt32LE((i * 2654435761) >>> 0, i);
    await writeFile(path.join(root, 'initrd.img'), initrd);
    for (const dir of [work, dataDir, root]) await chmod(dir, 0o755);

    core = await AppCore.create({ config: { ...defaultConfig(dataDir), listen: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' }, fileLog: false, rendererDir: null, nicReader: () => [], autoStartServices: false });
    await core.start();
    const ours = `${core.url()}/boot/initrd.img`;

    const conf = path.join(work, 'nginx.conf');
    await writeFile(
      conf,
      `daemon off;\nworker_processes 1;\npid ${path.join(work, 'nginx.pid')};\nerror_log stderr warn;\nevents { worker_connections 256; }\nhttp {\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  default_type application/octet-stream;\n  client_body_temp_path ${work};\n  proxy_temp_path ${work};\n  fastcgi_temp_path ${work};\n  uwsgi_temp_path ${work};\n  scgi_temp_path ${work};\n  server { listen 127.0.0.1:${NGINX_PORT}; root ${root}; }\n}\n`,
    );
    nginx = spawn('nginx', ['-c', conf, '-p', work], { stdio: ['ignore', 'ignore', 'inherit'] });
    const theirs = `http://127.0.0.1:${NGINX_PORT}/initrd.img`;
    for (let i = 0; i < 50; i++) {
      if (await curlSeconds(theirs).then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // The reference: what Node itself does with a file and a socket, nothing else.
    const bare = http.createServer((_request, response) => {
      const file = path.join(root, 'initrd.img');
      void stat(file).then((info) => {
        response.writeHead(200, { 'content-length': info.size, 'content-type': 'application/octet-stream' });
        createReadStream(file, { highWaterMark: 256 * 1024 }).pipe(response);
      });
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const reference = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/initrd.img`;

    console.log(`HTTP boot: a ${args['size-mb']} MB initrd over loopback, ${args.runs} runs, the servers taking turns (Node ${process.version}, ${os.cpus().length} CPUs)\n`);
    const servers = [
      { name: 'Bootwright', url: ours, curl: [] as number[], wrk: [] as number[] },
      { name: 'nginx', url: theirs, curl: [] as number[], wrk: [] as number[] },
      { name: 'bare Node', url: reference, curl: [] as number[], wrk: [] as number[] },
    ];
    let wrkErrors = '';
    for (let i = 0; i < Number(args.runs); i++) {
      for (const server of servers) server.curl.push(await curlSeconds(server.url));
      for (const server of servers) {
        const result = await wrk(server.url);
        server.wrk.push(result.mbPerSecond);
        if (result.errors) wrkErrors += `${server.name}: ${result.errors}; `;
      }
    }
    const mbps = (seconds: number) => (SIZE / 1024 / 1024 / seconds).toFixed(0);
    const [a, b, c] = servers.map((server) => median(server.curl)) as [number, number, number];
    const [wa, wb, wc] = servers.map((server) => median(server.wrk)) as [number, number, number];
    console.log('| test | Bootwright | nginx | bare Node | Bootwright / nginx | Bootwright / bare Node |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| curl, one download (median) | ${a.toFixed(3)} s (${mbps(a)} MB/s) | ${b.toFixed(3)} s (${mbps(b)} MB/s) | ${c.toFixed(3)} s (${mbps(c)} MB/s) | ${(b / a).toFixed(2)}× | ${(c / a).toFixed(2)}× |`);
    console.log(`| wrk -c ${args.connections}, ${args.seconds} s (median) | ${wa.toFixed(0)} MB/s | ${wb.toFixed(0)} MB/s | ${wc.toFixed(0)} MB/s | ${(wa / wb).toFixed(2)}× | ${(wa / wc).toFixed(2)}× |`);
    if (wrkErrors) console.log(`\nwrk errors: ${wrkErrors}`);
    // How Bootwright sent the file: sendfile(2) through the native addon, or streamed through Node.
    const methods = new Map<string, number>();
    for (const event of core.kernel.events.all()) {
      const method = event.kind === 'http.transfer.completed' ? (event.detail as { method?: unknown } | null)?.method : undefined;
      if (typeof method === 'string') methods.set(method, (methods.get(method) ?? 0) + 1);
    }
    const reason = sendfileUnavailableReason();
    console.log(`\nBootwright sent with: ${[...methods].map(([method, count]) => `${method} ×${count}`).join(', ') || 'nothing recorded'}${reason ? ` (${reason})` : ''}`);
    bare.close();
  } finally {
    nginx?.kill();
    await core?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
