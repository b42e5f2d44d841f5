/**
 * Shared parts of the security benches: the built headless server on a temp
 * data directory, an HTTP client that can pick its loopback source address,
 * latency summaries and the server's RSS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVE = path.join(ROOT, 'dist', 'main', 'serve.js');
export const ADMIN_PASSWORD = 'bench-admin-password';

export interface Server {
  url: URL;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** The built headless server running on a data directory; `startupMs` is spawn to the "serving" line. */
export interface ServeChild {
  url: URL;
  pid: number;
  startupMs: number;
  stop(): Promise<void>;
}

/**
 * Spawns `node [nodeArgs] dist/main/serve.js` (what ships; `npm run build:main`
 * first) on `dataDir` and 127.0.0.1, port chosen by the kernel, and resolves
 * once it prints that it serves (the store is open and the API listens).
 */
export async function spawnServe(dataDir: string, nodeArgs: readonly string[] = [], timeoutMs = 30_000): Promise<ServeChild> {
  if (!existsSync(SERVE)) throw new Error(`${SERVE} is missing: run "npm run build:main" first (the bench's npm script does)`);
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, SERVE, '--data-dir', dataDir, '--listen', '127.0.0.1:0', '--admin-password', ADMIN_PASSWORD], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${output}`)), timeoutMs);
    const seen = (line: string) => {
      output += `${line}\n`;
      const match = /serving the web UI and API at (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    };
    createInterface({ input: child.stdout! }).on('line', seen);
    createInterface({ input: child.stderr! }).on('line', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}): ${output}`));
    });
  });
  return { url, pid: child.pid!, startupMs: performance.now() - started, stop: () => stopChild(child) };
}

/** The security benches' server: a fresh temp data directory, removed at stop. */
export async function startServer(): Promise<Server> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-security-'));
  const served = await spawnServe(dataDir, process.env.BENCH_SEMI_SPACE === '0' ? [] : ['--max-semi-space-size=32']);
  return {
    url: served.url,
    pid: served.pid,
    dataDir,
    stop: async () => {
      await served.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The process's resident set size in MiB (Linux /proc). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A keep-alive client bound to one loopback source address (127.0.0.0/8 all reach the server). */
export class Client {
  private readonly agent: http.Agent;

  constructor(
    private readonly base: URL,
    private readonly localAddress = '127.0.0.1',
    private readonly headers: Record<string, string> = {},
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  }

  request(method: string, pathname: string, body?: unknown): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path: pathname,
          agent: this.agent,
          localAddress: this.localAddress,
          headers: { ...this.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Logs in as the admin and returns a client that sends the session cookie. */
export async function adminClient(base: URL): Promise<Client> {
  const anonymous = new Client(base);
  const reply = await anonymous.request('POST', '/api/v1/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
  anonymous.close();
  const setCookie = reply.headers['set-cookie']?.[0];
  if (reply.status !== 200 || !setCookie) throw new Error(`admin login failed: ${reply.status} ${reply.body}`);
  return new Client(base, '127.0.0.1', { cookie: setCookie.split(';', 1)[0]! });
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(latenciesMs: number[]): Summary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

export function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : '—';
}
