import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';

/*
 * Link and address change events from the kernel (rtnetlink), through a
 * long-running `ip monitor link address` (iproute2): Node has no netlink
 * socket, and the npm netlink bindings are native modules in early stages.
 * The monitor only says "something changed on <ifname>"; the network service
 * then re-reads the interfaces once. Without `ip` the service falls back to
 * its poll (see NetworkService.startWatching).
 */

/** One change the monitor reported. */
export interface LinkEvent {
  kind: 'link' | 'address';
  /** The interface, when the line names one. */
  ifname: string | null;
  deleted: boolean;
}

/** Where the watcher stands, for the services' notices and GET /status. */
export type MonitorState =
  | { mode: 'events'; detail: null }
  | { mode: 'poll'; detail: string };

/**
 * Reads one line of `ip monitor link address` output. iproute2 since 6.x
 * prints JSON objects with `-json`; older ones (Debian 12's 6.1 among them)
 * ignore `-json` in monitor mode and print the text form:
 *   `866: tm1a@if865: <NO-CARRIER,…,UP> mtu 1500 … state DOWN …` (link)
 *   `866: tm1a    inet 10.99.0.1/24 scope global tm1a` (address)
 *   `Deleted 866: tm1a …`
 * Continuation lines (starting with whitespace) and anything else give null.
 */
export function parseMonitorLine(line: string): LinkEvent | null {
  const text = line.trimEnd();
  if (text.startsWith('{')) return parseJsonLine(text);
  const match = /^(Deleted\s+)?(?:\[(LINK|ADDR)\]\s*)?(\d+):\s+([^\s:@]+)(@[^\s:]+)?(:?)\s+(.*)$/.exec(text);
  if (!match) return null;
  const [, deleted, , , ifname, , colon, rest = ''] = match;
  // A link line has "name:" then the flags; an address line has the name then the family.
  const kind = colon === ':' ? 'link' : /^(inet6?|link\/)/.test(rest) ? 'address' : null;
  if (!kind) return null;
  return { kind, ifname: ifname ?? null, deleted: deleted !== undefined };
}

function parseJsonLine(text: string): LinkEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const ifname = typeof record.ifname === 'string' ? record.ifname : typeof record.label === 'string' ? record.label : null;
  const deleted = record.deleted === true;
  if (Array.isArray(record.addr_info) || typeof record.local === 'string' || record.family === 'inet' || record.family === 'inet6') {
    return { kind: 'address', ifname, deleted };
  }
  if (ifname !== null || typeof record.ifindex === 'number') return { kind: 'link', ifname, deleted };
  return null;
}

/**
 * Splits a byte stream into lines: a chunk may end inside a line (pipes
 * deliver what was written, not whole lines), so the tail waits for the next
 * chunk. A line longer than `maxLine` is dropped (a broken monitor must not
 * grow memory without bound); the caller treats that as "something changed".
 */
export class LineSplitter {
  private tail = '';
  private overflowed = false;
  private readonly maxLine: number;

  constructor(maxLine = 64 * 1024) {
    this.maxLine = maxLine;
  }

  /** The complete lines in `chunk` (plus the tail of earlier chunks). */
  push(chunk: string): string[] {
    const parts = (this.tail + chunk).split('\n');
    this.tail = parts.pop() ?? '';
    if (this.tail.length > this.maxLine) {
      this.tail = '';
      this.overflowed = true;
    }
    return parts.filter((part) => part.length > 0);
  }

  /** Whether a line was dropped for its length since the last call. */
  takeOverflow(): boolean {
    const value = this.overflowed;
    this.overflowed = false;
    return value;
  }
}

/** Starts the monitor process; a seam for tests (a fake child). */
export type MonitorSpawner = () => ChildProcess;

export interface LinkMonitorOptions {
  /** Called for every change (coalescing is the listener's business). */
  onEvent: (event: LinkEvent | null) => void;
  /** Called once the monitor runs again after having stopped (events may have been missed meanwhile). */
  onRestart: () => void;
  /** Called when the monitor's state changes (running, or given up for the poll). */
  onState: (state: MonitorState) => void;
  log: (level: 'info' | 'warn', message: string) => void;
  spawner?: MonitorSpawner;
  /** Where `ip` is looked for; null = not found (the poll takes over). */
  ipPath?: string | null;
  /** Restart delays: the first, and the ceiling the doubling stops at. */
  backoff?: { initialMs: number; maxMs: number };
  /** A run this long counts as healthy: the next failure starts the backoff over. */
  healthyMs?: number;
  /** Scheduling seam for tests. */
  setTimer?: (fn: () => void, ms: number) => { cancel(): void };
  now?: () => number;
}

const IP_CANDIDATES = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'];
export const MONITOR_ARGS = ['-json', 'monitor', 'link', 'address'] as const;

/** The iproute2 `ip` binary, or null when it is not installed (or not Linux). */
export function findIp(platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux') return null;
  return IP_CANDIDATES.find((candidate) => existsSync(candidate)) ?? null;
}

/** Restart delay after `failures` consecutive short runs: doubling from `initialMs`, capped at `maxMs`. */
export function backoffDelay(failures: number, backoff: { initialMs: number; maxMs: number }): number {
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** exponent);
}

/**
 * Keeps one `ip monitor` child running: reads its lines, restarts it with
 * a doubling delay when it dies (no shell; its stderr goes to the log).
 */
export class LinkMonitor {
  private readonly options: LinkMonitorOptions;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly healthyMs: number;
  private readonly setTimer: NonNullable<LinkMonitorOptions['setTimer']>;
  private readonly now: () => number;
  private child: ChildProcess | null = null;
  private restartTimer: { cancel(): void } | null = null;
  private failures = 0;
  private stopped = true;
  private startedOnce = false;

  constructor(options: LinkMonitorOptions) {
    this.options = options;
    this.backoff = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
    this.healthyMs = options.healthyMs ?? 60_000;
    this.setTimer =
      options.setTimer ??
      ((fn, ms) => {
        const timer = setTimeout(fn, ms);
        timer.unref();
        return { cancel: () => clearTimeout(timer) };
      });
    this.now = options.now ?? Date.now;
  }

  /** Starts the monitor; returns false (and reports the poll state) when `ip` is missing. */
  start(): boolean {
    const ipPath = this.options.ipPath === undefined ? findIp() : this.options.ipPath;
    if (!this.options.spawner && ipPath === null) {
      this.options.onState({ mode: 'poll', detail: 'iproute2 (ip) not found' });
      return false;
    }
    this.stopped = false;
    const spawner = this.options.spawner ?? (() => spawn(ipPath ?? 'ip', [...MONITOR_ARGS], { stdio: ['ignore', 'pipe', 'pipe'] }));
    this.launch(spawner);
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.restartTimer?.cancel();
    this.restartTimer = null;
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }

  /** Whether a monitor process is running now. */
  running(): boolean {
    return this.child !== null;
  }

  private launch(spawner: MonitorSpawner): void {
    if (this.stopped) return;
    let child: ChildProcess;
    try {
      child = spawner();
    } catch (err) {
      this.failed(spawner, `cannot start ip monitor: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.child = child;
    // Like the poll's timer, the monitor never keeps the process alive on its own.
    child.unref?.();
    for (const stream of [child.stdout, child.stderr]) if (stream instanceof Socket) stream.unref();
    const startedAt = this.now();
    const splitter = new LineSplitter();
    let finished = false;
    const finish = (reason: string) => {
      if (finished) return;
      finished = true;
      if (this.child === child) this.child = null;
      if (this.stopped) return;
      if (this.now() - startedAt >= this.healthyMs) this.failures = 0;
      this.failed(spawner, reason);
    };
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      for (const line of splitter.push(chunk)) {
        // Continuation lines (indented) belong to the line before; only the first line of a message counts.
        if (/^\s/.test(line)) continue;
        this.options.onEvent(parseMonitorLine(line));
      }
      if (splitter.takeOverflow()) this.options.onEvent(null);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      const text = chunk.trim();
      if (text) this.options.log('warn', `ip monitor: ${text.slice(0, 500)}`);
    });
    child.once('error', (err) => finish(`ip monitor failed: ${err.message}`));
    child.once('exit', (code, signal) => finish(`ip monitor exited (${signal ?? `code ${code}`})`));
    // A spawn that fails (ENOENT) has no pid and reports through 'error'.
    if (child.pid !== undefined) {
      this.options.onState({ mode: 'events', detail: null });
      if (this.startedOnce) this.options.onRestart();
      this.startedOnce = true;
    }
  }

  private failed(spawner: MonitorSpawner, reason: string): void {
    this.failures += 1;
    const delay = backoffDelay(this.failures, this.backoff);
    this.options.log('warn', `${reason}; restarting it in ${delay} ms (interface changes are polled meanwhile)`);
    this.options.onState({ mode: 'poll', detail: `${reason}; restarting` });
    this.restartTimer?.cancel();
    this.restartTimer = this.setTimer(() => {
      this.restartTimer = null;
      this.launch(spawner);
    }, delay);
  }
}
