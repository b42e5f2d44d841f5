import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { backoffDelay, LineSplitter, LinkMonitor, parseMonitorLine, type LinkEvent, type MonitorState } from '../../../src-main/network/link-monitor.js';

describe('parseMonitorLine', () => {
  // Captured from iproute2 6.1 (`ip -json monitor link address`: this version prints text in monitor mode).
  it('reads the text form of link and address messages', () => {
    expect(parseMonitorLine('866: tm1a@if865: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 qdisc noqueue state LOWERLAYERDOWN group default ')).toEqual({
      kind: 'link',
      ifname: 'tm1a',
      deleted: false,
    });
    expect(parseMonitorLine('3: br0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group default')).toEqual({ kind: 'link', ifname: 'br0', deleted: false });
    expect(parseMonitorLine('866: tm1a    inet 10.99.0.1/24 scope global tm1a')).toEqual({ kind: 'address', ifname: 'tm1a', deleted: false });
    expect(parseMonitorLine('866: tm1a    inet6 fe80::8ce6:93ff:fe4c:5718/64 scope link ')).toEqual({ kind: 'address', ifname: 'tm1a', deleted: false });
    expect(parseMonitorLine('Deleted 866: tm1a    inet 10.99.0.1/24 scope global tm1a')).toEqual({ kind: 'address', ifname: 'tm1a', deleted: true });
    expect(parseMonitorLine('Deleted 12: veth0@NONE: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN')).toEqual({ kind: 'link', ifname: 'veth0', deleted: true });
  });

  it('reads the JSON form newer iproute2 prints', () => {
    expect(parseMonitorLine('{"ifindex":3,"ifname":"br0","flags":["NO-CARRIER","BROADCAST","UP"],"operstate":"DOWN"}')).toEqual({ kind: 'link', ifname: 'br0', deleted: false });
    expect(parseMonitorLine('{"ifindex":3,"ifname":"br0","addr_info":[{"family":"inet","local":"10.42.0.1","prefixlen":24}]}')).toEqual({
      kind: 'address',
      ifname: 'br0',
      deleted: false,
    });
    expect(parseMonitorLine('{"deleted":true,"ifindex":3,"family":"inet","local":"10.42.0.1","label":"br0"}')).toEqual({ kind: 'address', ifname: 'br0', deleted: true });
  });

  it('gives null for continuation lines, noise and broken JSON', () => {
    expect(parseMonitorLine('    link/ether 8e:e6:93:4c:57:18 brd ff:ff:ff:ff:ff:ff link-netns tmon2')).toBeNull();
    expect(parseMonitorLine('       valid_lft forever preferred_lft forever')).toBeNull();
    expect(parseMonitorLine('{"ifindex":3,"ifname":')).toBeNull();
    expect(parseMonitorLine('[1,2]')).toBeNull();
    expect(parseMonitorLine('{}')).toBeNull();
    expect(parseMonitorLine('')).toBeNull();
    expect(parseMonitorLine('garbage line')).toBeNull();
  });
});

describe('LineSplitter', () => {
  it('keeps a line cut between two chunks until its end arrives', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('866: tm1a    inet 10.99')).toEqual([]);
    expect(splitter.push('.0.1/24 scope global tm1a\n3: br0: <UP> mtu')).toEqual(['866: tm1a    inet 10.99.0.1/24 scope global tm1a']);
    expect(splitter.push(' 1500\n\n')).toEqual(['3: br0: <UP> mtu 1500']);
    expect(splitter.push('{"ifname":"a"}\n{"ifname":"b"}\n')).toEqual(['{"ifname":"a"}', '{"ifname":"b"}']);
  });

  it('drops a line longer than its limit and says so once', () => {
    const splitter = new LineSplitter(16);
    expect(splitter.push('x'.repeat(40))).toEqual([]);
    expect(splitter.takeOverflow()).toBe(true);
    expect(splitter.takeOverflow()).toBe(false);
    expect(splitter.push('tail\nok\n')).toEqual(['tail', 'ok']);
  });
});

describe('backoffDelay', () => {
  it('doubles from the first delay up to the ceiling', () => {
    const backoff = { initialMs: 500, maxMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((n) => backoffDelay(n, backoff))).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});

/** A stand-in for the `ip monitor` child: the test writes its output and ends it. */
class FakeChild extends EventEmitter {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly pid = 4242;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  killed = false;

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    this.killed = true;
    this.exit(null, signal);
    return true;
  }

  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    if (this.exitCode !== null || this.signalCode !== null) return;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

/** A monitor on fake children and a manual clock. */
function harness(options: { healthyMs?: number } = {}) {
  const children: FakeChild[] = [];
  const events: (LinkEvent | null)[] = [];
  const states: MonitorState[] = [];
  const logs: string[] = [];
  let restarts = 0;
  let now = 0;
  const timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
  const monitor = new LinkMonitor({
    onEvent: (event) => events.push(event),
    onRestart: () => {
      restarts += 1;
    },
    onState: (state) => states.push(state),
    log: (_level, message) => logs.push(message),
    spawner: () => {
      const child = new FakeChild();
      children.push(child);
      return child as unknown as ChildProcess;
    },
    backoff: { initialMs: 100, maxMs: 800 },
    healthyMs: options.healthyMs ?? 10_000,
    now: () => now,
    setTimer: (fn, ms) => {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
  });
  /** Moves the clock and runs the timers that fall due; returns the delays of the ones run. */
  const advance = (ms: number) => {
    now += ms;
    for (const timer of timers.splice(0)) {
      if (timer.cancelled) continue;
      if (timer.at <= now) timer.fn();
      else timers.push(timer);
    }
  };
  const pending = () => timers.filter((t) => !t.cancelled).map((t) => t.at - now);
  return { monitor, children, events, states, logs, advance, pending, restarts: () => restarts, tick: () => new Promise((resolve) => setImmediate(resolve)) };
}

describe('LinkMonitor', () => {
  it('turns the child output into events, a partial line waiting for its end', async () => {
    const h = harness();
    expect(h.monitor.start()).toBe(true);
    expect(h.states).toEqual([{ mode: 'events', detail: null }]);
    const child = h.children[0];
    if (!child) throw new Error('no child');
    child.stdout.write('866: tm1a@if865: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 state UP\n    link/ether 8e:e6:93:4c:57:18 brd ff:ff:ff:ff:ff:ff\n866: tm1a    inet 10.');
    await h.tick();
    expect(h.events).toEqual([{ kind: 'link', ifname: 'tm1a', deleted: false }]);
    child.stdout.write('99.0.1/24 scope global tm1a\n');
    await h.tick();
    expect(h.events).toEqual([
      { kind: 'link', ifname: 'tm1a', deleted: false },
      { kind: 'address', ifname: 'tm1a', deleted: false },
    ]);
    h.monitor.stop();
    expect(child.killed).toBe(true);
    expect(h.pending()).toEqual([]);
  });

  it('restarts a child that dies, with a doubling delay, and reports each restart', () => {
    const h = harness();
    h.monitor.start();
    for (const [index, delay] of [100, 200, 400, 800, 800].entries()) {
      h.children[index]?.exit(1);
      expect(h.states.at(-1)).toMatchObject({ mode: 'poll' });
      expect(h.pending()).toEqual([delay]);
      h.advance(delay);
      expect(h.children).toHaveLength(index + 2);
      expect(h.states.at(-1)).toEqual({ mode: 'events', detail: null });
    }
    expect(h.restarts()).toBe(5);
    expect(h.logs[0]).toMatch(/ip monitor exited \(code 1\); restarting it in 100 ms/);
    h.monitor.stop();
  });

  it('starts the backoff over after a healthy run', () => {
    const h = harness({ healthyMs: 1_000 });
    h.monitor.start();
    h.children[0]?.exit(1);
    h.advance(100);
    h.children[1]?.exit(1);
    expect(h.pending()).toEqual([200]);
    h.advance(200);
    h.advance(5_000); // the third child runs long enough to count as healthy
    h.children[2]?.exit(1);
    expect(h.pending()).toEqual([100]);
    h.monitor.stop();
  });

  it('does not restart after stop(), even when the child exits later', () => {
    const h = harness();
    h.monitor.start();
    const child = h.children[0];
    h.monitor.stop();
    child?.exit(0);
    h.advance(10_000);
    expect(h.children).toHaveLength(1);
    expect(h.pending()).toEqual([]);
  });

  it('falls back to the poll, saying why, when ip is missing', () => {
    const states: MonitorState[] = [];
    const monitor = new LinkMonitor({ onEvent: () => undefined, onRestart: () => undefined, onState: (state) => states.push(state), log: () => undefined, ipPath: null });
    expect(monitor.start()).toBe(false);
    expect(states).toEqual([{ mode: 'poll', detail: expect.stringMatching(/iproute2 \(ip\) not found/) }]);
  });

  it('treats a spawn failure like an exit (restart with backoff)', () => {
    const h = harness();
    h.monitor.start();
    h.children[0]?.emit('error', new Error('spawn ip ENOENT'));
    expect(h.logs.at(-1)).toMatch(/ip monitor failed: spawn ip ENOENT; restarting it in 100 ms/);
    expect(h.pending()).toEqual([100]);
    h.monitor.stop();
  });
});
