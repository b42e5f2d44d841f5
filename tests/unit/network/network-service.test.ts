import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LogSink } from '../../../src-main/core/logger.js';
import { EventLog } from '../../../src-main/events/event-log.js';
import type { Nic } from '../../../src-main/network/nic.js';
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

  it('polls while watching and stops when told', () => {
    vi.useFakeTimers();
    const listener = vi.fn();
    network.onChange(listener);
    network.startWatching();
    current = [nic('eth5', [['10.5.0.1', 24, '10.5.0.0/24']])];
    vi.advanceTimersByTime(5_000);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(network.list().map((n) => n.name)).toEqual(['eth5']);
    network.stopWatching();
    current = [];
    vi.advanceTimersByTime(20_000);
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
});
