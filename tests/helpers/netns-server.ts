import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Netns } from './netns.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVE = path.join(ROOT, 'src-main', 'serve.ts');
const SERVE_BUILT = path.join(ROOT, 'dist', 'main', 'serve.js');
const PASSWORD = 'netns-test-password';
/** Node flags the headless server runs with (as in `npm run serve` and the systemd unit). */
const SERVE_NODE_FLAGS = ['--max-semi-space-size=32'];

export interface ApiResult<T = unknown> {
  status: number;
  body: { success: boolean; data: T; meta?: { total: number }; error?: string; code?: string };
}

/**
 * The headless server (src-main/serve.ts through tsx, no build needed) inside
 * a test namespace, driven through its REST API over a veth from the root
 * namespace. kill() and start() again on the same data directory test what
 * survives a crash.
 */
/** An event as GET /events lists it (the fields the end-to-end tests match on). */
export interface EventRow {
  id: number;
  kind: string;
  mac: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
}

export class NetnsServer {
  readonly ns: Netns;
  readonly dataDir: string;
  readonly apiAddress: string;
  private readonly logLevel: string;
  private readonly nodeArgs: string[];
  private readonly cpus: string | null;
  private readonly built: boolean;
  private child: ChildProcess | null = null;
  private cookie = '';
  output = '';

  /**
   * `cpus`: run the server on these CPUs only (taskset list, e.g. "1"; benchmarks keep it off the load generator's core).
   * `built`: run the compiled `dist/main/serve.js` (what ships; benchmarks build it first) instead of the sources through tsx.
   */
  constructor(ns: Netns, dataDir: string, apiAddress: string, options: { logLevel?: string; nodeArgs?: string[]; cpus?: string; built?: boolean } = {}) {
    this.ns = ns;
    this.dataDir = dataDir;
    this.apiAddress = apiAddress;
    this.logLevel = options.logLevel ?? 'info';
    this.nodeArgs = [...SERVE_NODE_FLAGS, ...(options.nodeArgs ?? [])];
    this.cpus = options.cpus ?? null;
    this.built = options.built ?? false;
  }

  /** Polls `probe` once a second until it answers; the error carries the server's recent output. */
  async waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms; server output:\n${this.output.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  /** The first event of `kind` that `match` accepts, polled from GET /events. */
  waitForEvent(kind: string, match: (event: EventRow) => boolean, timeoutMs = 150_000): Promise<EventRow> {
    return this.waitFor(`event ${kind}`, async () => (await this.must<EventRow[]>('GET', `/events?kind=${encodeURIComponent(kind)}&size=500`)).find(match), timeoutMs);
  }

  async start(): Promise<void> {
    this.output = '';
    const pin = this.cpus === null ? [] : ['taskset', '-c', this.cpus];
    const entry = this.built ? [SERVE_BUILT] : ['--import', 'tsx', SERVE];
    const child = this.ns.spawn(
      pin[0] ?? process.execPath,
      [...pin.slice(1), ...(pin.length > 0 ? [process.execPath] : []), ...this.nodeArgs, ...entry, '--data-dir', this.dataDir, '--listen', '0.0.0.0:8080', '--admin-password', PASSWORD, '--log-level', this.logLevel],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-200_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    await this.waitUntilServing(child);
  }

  /** Logs in as soon as the API answers (the "serving" log line is not printed below level info). */
  private async waitUntilServing(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited before serving:\n${this.output.slice(-3000)}`);
      try {
        await this.login();
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`server did not serve within 90 s (${String(err)}):\n${this.output.slice(-3000)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  /** SIGKILL: nothing is flushed, nothing is closed. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    this.child = null;
  }

  async api<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<ApiResult<T>> {
    const response = await fetch(`http://${this.apiAddress}:8080/api/v1${apiPath}`, {
      method,
      headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    }).catch((err: unknown) => {
      // A refused connection usually means the server died: say how, with its last output.
      const child = this.child;
      const state = child === null ? 'not running' : child.exitCode !== null || child.signalCode !== null ? `exited (${child.exitCode ?? child.signalCode})` : 'running';
      throw new Error(`${method} ${apiPath} failed (${String(err)}); server ${state}, its last output:\n${this.output.slice(-3000)}`, { cause: err });
    });
    return { status: response.status, body: (await response.json()) as ApiResult<T>['body'] };
  }

  /** Like api() but throws unless the status is 2xx. */
  async must<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<T> {
    const result = await this.api<T>(method, apiPath, body);
    if (result.status >= 300) throw new Error(`${method} ${apiPath} → ${result.status}: ${JSON.stringify(result.body)}`);
    return result.body.data;
  }

  private async login(): Promise<void> {
    const response = await fetch(`http://${this.apiAddress}:8080/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
      signal: AbortSignal.timeout(5_000),
    });
    const cookie = response.headers.get('set-cookie')?.split(';', 1)[0];
    if (response.status !== 200 || !cookie) throw new Error(`login failed: ${response.status} ${await response.text()}`);
    this.cookie = cookie;
  }
}

/** A subnet entry with the fields the API requires. */
export function subnet(cidr: string, ranges: { start: string; end: string }[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { subnet: cidr, ranges, lease_time_seconds: null, router: null, dns_servers: [], domain_name: null, ntp_servers: [], options: [], ...extra };
}
