import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LogSink } from '../../../src-main/core/logger.js';
import { EventLog } from '../../../src-main/events/event-log.js';
import type { IpAddressTable } from '../../../src-main/network/ip-addresses.js';
import type { Nic } from '../../../src-main/network/nic.js';
import { buildNics, type SysLink } from '../../../src-main/network/nic-reader.js';
import { NetworkService } from '../../../src-main/network/network-service.js';
import { SettingsService } from '../../../src-main/settings/settings-service.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';
import { nic } from './fixtures.js';

describe('NetworkService', () => {
  let store: Store;
  let remove: () => Promise<void>;
  let events: EventLog;
  let settings: SettingsService;
  let current: Nic[];
  let network: NetworkService;

  beforeEach(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    store = await Store.open({ dataDir: dir.dir });
    events = new EventLog(store);
    const log = new LogSink({ logDir: null, level: 'error', console: false }).logger();
    settings = new SettingsService({ store, events, log, defaults: { logLevel: 'info' } });
    current = [nic('eth0', [['192.168.10.2', 24, '192.168.10.0/24']]), nic('lo', [['127.0.0.1', 8, '127.0.0.0/8']], { internal: true })];
    network = new NetworkService({ settings, events, log, reader: () => current, pollMs: 5_000 });
  });

  afterEach(async () => {
    network.stopWatching();
    vi.useRealTimers();
    await store.close();
    await remove();
  });

  const changeEvents = () => events.all().filter((e) => e.kind === 'network.interfaces_changed');

  it('reports the served interfaces with their subnets and our address on each', () => {
    expect(network.served()).toEqual([
      { name: 'eth0', mac: '52:54:00:00:00:01', mtu: 1500, ipv4: [{ subnet: '192.168.10.0/24', prefix: 24, address: '192.168.10.2', source: 'detected' }], ipv6: [] },
    ]);
    expect(network.serverAddressFor('192.168.10.50')).toBe('192.168.10.2');
  });

  it('emits network.interfaces_changed only when interfaces or addresses change', () => {
    network.refresh();
    expect(changeEvents()).toHaveLength(0);
    current = [...current, nic('eth1', [['10.0.0.1', 24, '10.0.0.0/24']])];
    network.refresh();
    expect(changeEvents()).toHaveLength(1);
    expect(changeEvents()[0]?.detail).toMatchObject({ added: ['eth1'], removed: [] });
    expect(network.serverAddressFor('10.0.0.9')).toBe('10.0.0.1');
    network.refresh();
    expect(changeEvents()).toHaveLength(1);
  });

  it('polls while watching without iproute2, says so, and stops when told', async () => {
    vi.useFakeTimers();
    const listener = vi.fn();
    network.onChange(listener);
    network.startWatching();
    expect(network.watchState()).toMatchObject({ mode: 'poll' });
    current = [nic('eth5', [['10.5.0.1', 24, '10.5.0.0/24']])];
    // The poll schedules its re-read for the next turn of the loop: one millisecond past the tick.
    await vi.advanceTimersByTimeAsync(5_001);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(network.list().map((n) => n.name)).toEqual(['eth5']);
    network.stopWatching();
    expect(network.watchState()).toEqual({ mode: 'off', detail: null });
    current = [];
    await vi.advanceTimersByTimeAsync(20_000);
    expect(network.list().map((n) => n.name)).toEqual(['eth5']);
  });

  it('applies interfaces settings at once: served list and overrides', async () => {
    const listener = vi.fn();
    network.onChange(listener);
    await settings.update({ interfaces: { served: ['lo'], server_addresses: [{ subnet: '10.9.0.0/24', address: '10.9.0.1' }] } });
    expect(listener).toHaveBeenCalled();
    expect(network.served().map((s) => s.name)).toEqual(['lo']);
    expect(network.serverAddressFor('192.168.10.50')).toBeNull();
    expect(network.serverAddressFor('127.0.0.9')).toBe('127.0.0.1');
    expect(network.serverAddressFor('10.9.0.20')).toBe('10.9.0.1');
  });

  it('keeps the last list when reading fails', () => {
    const failing = new NetworkService({
      settings,
      events,
      log: new LogSink({ logDir: null, level: 'error', console: false }).logger(),
      reader: () => {
        throw new Error('boom');
      },
    });
    expect(failing.refresh()).toEqual([]);
  });

  it('re-reads the interfaces once per burst of monitor events, with the kernel address table, and notifies at once', async () => {
    const log = new LogSink({ logDir: null, level: 'error', console: false }).logger();
    const child = new FakeMonitorChild();
    let reads = 0;
    let table: IpAddressTable = new Map();
    const withTable = () => {
      const sys: SysLink[] = [{ name: 'br0', mtu: 1500, operstate: linkUp ? 'up' : 'lowerlayerdown', flags: 0x1003, address: '52:54:00:aa:bb:0b', carrier: linkUp }];
      return buildNics({}, sys, table);
    };
    let linkUp = false;
    const watched = new NetworkService({
      settings,
      events,
      log,
      reader: () => withTable(),
      watch: {
        ipPath: '/nonexistent/ip',
        monitor: { spawner: () => child as unknown as ChildProcess },
        readAddresses: async () => {
          reads += 1;
          return table;
        },
      },
    });
    await settings.update({ interfaces: { served: ['br0'], server_addresses: [] } });
    const listener = vi.fn();
    watched.onChange(listener);
    try {
      watched.startWatching();
      expect(watched.watchState()).toEqual({ mode: 'events', detail: null });
      await until(() => reads === 1); // the first read at start
      expect(watched.noticeFor(['br0'])).toBe('br0: no link (cable unplugged?)');
      table = new Map([['br0', [{ address: '10.42.0.1', family: 'ipv4', prefix: 24, cidr: '10.42.0.1/24', subnet: '10.42.0.0/24' }]]]);
      child.stdout.write('7: br0    inet 10.42.0.1/24 scope global br0\n       valid_lft forever preferred_lft forever\n');
      await until(() => reads === 2);
      await until(() => watched.list()[0]?.addresses.length === 1);
      // An address without a link: known (so it can be bound in advance), and the notice says what is missing.
      expect(watched.noticeFor(['br0'])).toBe('br0: no link (cable unplugged?)');
      expect(watched.noticeFor('served')).toBe('br0: no link (cable unplugged?)');
      linkUp = true;
      child.stdout.write('7: br0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 state UP\n7: br0    inet6 fe80::1/64 scope link\n');
      await until(() => watched.list()[0]?.link === 'up');
      expect(watched.noticeFor(['br0'])).toBeNull();
      expect(watched.noticeFor(['br0', 'eth7'])).toBe('eth7: no such interface');
      expect(reads).toBeLessThanOrEqual(4);
      expect(listener).toHaveBeenCalled();
    } finally {
      watched.stopWatching();
    }
    expect(child.killed).toBe(true);
  });

  it("says in the notices that changes are polled when iproute2 is missing, and lists 'no IPv4 address'", async () => {
    current = [nic('eth0', [['fd00::2', 64, 'fd00::/64']])];
    network.refresh();
    network.startWatching();
    expect(network.noticeFor(['eth0'])).toBe('eth0: no IPv4 address; interface changes are polled every 5 s (iproute2 (ip) not found)');
  });
});

/** Waits (bounded) for a condition the event loop brings about. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

/** Stands in for the `ip monitor` child. */
class FakeMonitorChild extends EventEmitter {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly pid = 4343;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  killed = false;

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    this.killed = true;
    this.signalCode = signal;
    this.emit('exit', null, signal);
    return true;
  }
}
