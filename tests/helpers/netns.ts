import { execFile, spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';

/*
 * Network namespaces for protocol tests. A NetLab owns every namespace,
 * link and process it creates, under a unique prefix (`bw<pid><n>`), and
 * deletes them in destroy() — call it from afterAll (also on failure). The
 * network rule of the tests: packets go only to loopback or to addresses
 * inside namespaces a test made itself.
 *
 *   const lab = await NetLab.create();
 *   const server = await lab.namespace('srv');
 *   const client = await lab.namespace('cli');
 *   await lab.link(server, 'eth0', '10.9.0.1/24', client, 'eth0', null);
 *   const out = await client.run('udhcpc', ['-i', 'eth0', '-n', '-q']);
 *   await lab.destroy();
 */

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let labCounter = 0;
let transitCounter = 0;

/** Why namespace tests cannot run here (not root, `ip` or a named tool missing), or null when they can. */
export function netnsUnavailable(tools: readonly string[] = []): string | null {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'network namespace tests need root';
  const missing = ['ip', ...tools].filter((tool) => !findTool(tool));
  if (missing.length > 0) return `missing tools: ${missing.join(', ')} (installed by .ci/run)`;
  return null;
}

/**
 * A namespace test may skip only outside CI and only when something it needs
 * is missing (then it says why). In CI it always runs (and fails loudly).
 */
export function skipNetnsTest(label: string, tools: readonly string[] = []): boolean {
  const reason = netnsUnavailable(tools);
  if (reason === null || process.env.CI) return false;
  console.warn(`${label} skipped: ${reason}; in CI it runs`);
  return true;
}

export function findTool(tool: string): string | null {
  for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin', '/usr/local/sbin', '/usr/local/bin']) {
    if (existsSync(`${dir}/${tool}`)) return `${dir}/${tool}`;
  }
  return null;
}

/** Runs a command to its end (no shell); never rejects. */
export function run(cmd: string, args: readonly string[], options: { timeoutMs?: number; input?: string } = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(cmd, [...args], { timeout: options.timeoutMs ?? 30_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? ((err as unknown as { code: number }).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Like run() but throws with the command's stderr when it fails. */
export async function must(cmd: string, args: readonly string[], options: { timeoutMs?: number } = {}): Promise<string> {
  const result = await run(cmd, args, options);
  if (result.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${result.code}): ${result.stderr.trim() || result.stdout.trim()}`);
  return result.stdout;
}

/** One namespace of a lab. */
export class Netns {
  readonly name: string;
  private readonly lab: NetLab;

  constructor(lab: NetLab, name: string) {
    this.lab = lab;
    this.name = name;
  }

  /** Runs a command inside the namespace to its end. */
  run(cmd: string, args: readonly string[], options: { timeoutMs?: number; input?: string } = {}): Promise<RunResult> {
    return run('ip', ['netns', 'exec', this.name, cmd, ...args], options);
  }

  must(cmd: string, args: readonly string[], options: { timeoutMs?: number } = {}): Promise<string> {
    return must('ip', ['netns', 'exec', this.name, cmd, ...args], options);
  }

  /** Starts a long-running process inside the namespace; the lab kills it in destroy(). */
  spawn(cmd: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawn('ip', ['netns', 'exec', this.name, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    this.lab.track(child);
    return child;
  }

  /** `ip` inside the namespace, e.g. ip('addr', 'add', …). */
  ip(...args: string[]): Promise<string> {
    return must('ip', ['-n', this.name, ...args]);
  }

  async addAddress(ifname: string, cidr: string): Promise<void> {
    await this.ip('addr', 'add', cidr, 'dev', ifname);
  }
}

/** A set of namespaces and links that disappears with destroy(). */
export class NetLab {
  /** Unique per process and lab; every namespace and root-side link name starts with it. */
  readonly prefix: string;
  private readonly namespaces: Netns[] = [];
  private readonly rootLinks: string[] = [];
  private readonly children = new Set<ChildProcess>();
  private linkCounter = 0;

  private constructor(prefix: string) {
    this.prefix = prefix;
  }

  static async create(): Promise<NetLab> {
    labCounter += 1;
    // Interface names are at most 15 bytes: keep the prefix short.
    return new NetLab(`bw${process.pid % 100_000}${String.fromCharCode(96 + (labCounter % 26 || 26))}`);
  }

  /** A new namespace `<prefix>-<suffix>` with loopback up. */
  async namespace(suffix: string): Promise<Netns> {
    const name = `${this.prefix}-${suffix}`;
    await must('ip', ['netns', 'add', name]);
    const ns = new Netns(this, name);
    this.namespaces.push(ns);
    await ns.ip('link', 'set', 'lo', 'up');
    return ns;
  }

  /**
   * A veth pair between two namespaces (or the root namespace, `null`), each
   * end renamed and brought up, with an optional address (CIDR) per end.
   */
  async link(a: Netns | null, aName: string, aAddress: string | null, b: Netns | null, bName: string, bAddress: string | null): Promise<void> {
    this.linkCounter += 1;
    const tmpA = `${this.prefix}v${this.linkCounter}a`;
    const tmpB = `${this.prefix}v${this.linkCounter}b`;
    await must('ip', ['link', 'add', tmpA, 'type', 'veth', 'peer', 'name', tmpB]);
    for (const [ns, tmp, name, address] of [[a, tmpA, aName, aAddress], [b, tmpB, bName, bAddress]] as const) {
      if (ns) {
        await must('ip', ['link', 'set', tmp, 'netns', ns.name]);
        await ns.ip('link', 'set', tmp, 'name', name);
        if (address) await ns.ip('addr', 'add', address, 'dev', name);
        await ns.ip('link', 'set', name, 'up');
      } else {
        // Root-side ends keep their unique name (never renamed onto a host interface).
        this.rootLinks.push(tmp);
        if (address) await must('ip', ['addr', 'add', address, 'dev', tmp]);
        await must('ip', ['link', 'set', tmp, 'up']);
      }
    }
  }

  /** A bridge inside a namespace (a switch the other namespaces plug into with linkToBridge). */
  async bridge(ns: Netns, name: string): Promise<void> {
    await ns.ip('link', 'add', name, 'type', 'bridge');
    await ns.ip('link', 'set', name, 'up');
  }

  /** A veth from `ns` (named `ifName`, optional address) into the bridge `bridge` in `hub`. */
  async linkToBridge(ns: Netns, ifName: string, address: string | null, hub: Netns, bridge: string): Promise<void> {
    this.linkCounter += 1;
    const port = `p${this.linkCounter}`;
    await this.link(ns, ifName, address, hub, port, null);
    await hub.ip('link', 'set', port, 'master', bridge);
  }

  /**
   * A veth from the root namespace into `ns` on a /30 unique to this process
   * and link, so the test (in the root namespace) reaches a server inside
   * `ns` at `address` (e.g. its HTTP API). Returns our address and theirs.
   */
  async rootLink(ns: Netns, ifName: string): Promise<{ rootAddress: string; address: string }> {
    transitCounter += 1;
    const second = process.pid % 250;
    const third = (transitCounter * 4) % 256;
    const base = `10.254.${second}`;
    const rootAddress = `${base}.${third + 1}`;
    const address = `${base}.${third + 2}`;
    await this.link(null, '', `${rootAddress}/30`, ns, ifName, `${address}/30`);
    return { rootAddress, address };
  }

  /** Root-side name of the a-end of the n-th link (for links made with `null` as a). */
  rootLinkName(n: number): string {
    return `${this.prefix}v${n}a`;
  }

  track(child: ChildProcess): void {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
  }

  /** Kills the processes it started, deletes its namespaces and root-side links. Safe to call twice. */
  async destroy(): Promise<void> {
    for (const child of this.children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    this.children.clear();
    for (const link of this.rootLinks.splice(0)) await run('ip', ['link', 'del', link]);
    for (const ns of this.namespaces.splice(0).reverse()) {
      // Processes started by `ip netns exec` outside our tracking (daemons) die with the namespace's pids.
      const pids = spawnSync('ip', ['netns', 'pids', ns.name], { encoding: 'utf8' }).stdout.split(/\s+/).filter(Boolean);
      for (const pid of pids) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await run('ip', ['netns', 'del', ns.name]);
    }
  }
}

/** Resolves when `child` writes a line matching `pattern` on stdout or stderr; rejects on exit or timeout. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${pattern}; output so far:\n${seen.slice(-2000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = pattern.exec(seen);
      if (match) finish(null, match[0]);
    };
    const onExit = (code: number | null) => finish(new Error(`process exited (${code}) before printing ${pattern}; output:\n${seen.slice(-2000)}`));
    function finish(err: Error | null, value?: string) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value!);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
