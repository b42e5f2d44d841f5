import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { LogSink } from '../../../src-main/core/logger.js';
import { EventLog } from '../../../src-main/events/event-log.js';
import { hostNameSource } from '../../../src-main/hosts/host-name-source.js';
import { HostService } from '../../../src-main/hosts/host-service.js';
import type { HostReservationLink } from '../../../src-main/hosts/host-types.js';
import { SerialQueue } from '../../../src-main/hosts/serial-queue.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

/** Records the calls; refuses the addresses in `refuse` with a 409 like the DHCP reservations do. */
class RecordingLink implements HostReservationLink {
  readonly calls: string[] = [];
  refuse = new Set<string>();

  async setForHost(host: { id: number; mac: string; ip: string; hostname: string | null }): Promise<void> {
    if (this.refuse.has(host.ip)) throw new AppError('CONFLICT', `${host.ip} is already reserved`);
    this.calls.push(`set ${host.id} ${host.mac} ${host.ip} ${host.hostname ?? '-'}`);
  }

  async removeForHost(hostId: number): Promise<void> {
    this.calls.push(`remove ${hostId}`);
  }
}

let dir: { dir: string; remove: () => Promise<void> };
let store: Store;
let link: RecordingLink;
let hosts: HostService;
let events: EventLog;

beforeEach(async () => {
  dir = await tempDir();
  store = await Store.open({ dataDir: dir.dir });
  events = new EventLog(store);
  link = new RecordingLink();
  const log = new LogSink({ logDir: null, level: 'error', console: false }).logger('test');
  hosts = new HostService({ store, events, log, queue: new SerialQueue(), profileExists: (id) => id === 1, reservations: () => link });
});
afterEach(async () => {
  await store.close();
  await dir.remove();
});

describe('HostService and the reservation link', () => {
  it('sets the reservation after a valid create, before an update, and removes it on delete or ip=null', async () => {
    const host = await hosts.create({ mac: '52:54:00:00:00:01', hostname: 'a', ip: '10.0.0.5' });
    await hosts.update(host.id, { description: 'no address change' });
    await hosts.update(host.id, { hostname: 'b' });
    await hosts.update(host.id, { ip: null });
    await hosts.update(host.id, { ip: '10.0.0.6' });
    await hosts.remove(host.id);
    expect(link.calls).toEqual([
      `set ${host.id} 52:54:00:00:00:01 10.0.0.5 a`,
      `set ${host.id} 52:54:00:00:00:01 10.0.0.5 b`,
      `remove ${host.id}`,
      `set ${host.id} 52:54:00:00:00:01 10.0.0.6 b`,
      `remove ${host.id}`,
    ]);
  });

  it('validates before calling the link, and a refusal leaves no host and no change', async () => {
    await expect(hosts.create({ mac: 'bad', ip: '10.0.0.5' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(hosts.create({ mac: '52:54:00:00:00:02', ip: '10.0.0.5', profile_id: 2 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(link.calls).toEqual([]);
    link.refuse.add('10.0.0.9');
    await expect(hosts.create({ mac: '52:54:00:00:00:02', ip: '10.0.0.9' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(hosts.all()).toEqual([]);
    expect(hosts.findByMac('52:54:00:00:00:02')).toBeUndefined();
    const host = await hosts.create({ mac: '52:54:00:00:00:02', ip: '10.0.0.8' });
    await expect(hosts.update(host.id, { ip: '10.0.0.9', hostname: 'x' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(hosts.get(host.id)).toMatchObject({ ip: '10.0.0.8', hostname: null });
  });

  it('works without a DHCP area', async () => {
    const bare = new HostService({
      store, events, log: new LogSink({ logDir: null, level: 'error', console: false }).logger('t'), queue: new SerialQueue(), profileExists: () => false, reservations: () => undefined,
    });
    expect(await bare.create({ mac: '52:54:00:00:00:07', ip: '10.0.0.7' })).toMatchObject({ ip: '10.0.0.7' });
  });
});

describe('HostService.recordBoot', () => {
  it('updates a known host and records an unknown one once, as discovered, only when asked', async () => {
    const known = await hosts.create({ mac: '52:54:00:00:00:10', arch: 'i386' });
    const at = new Date('2030-01-02T03:04:05.000Z');
    expect(await hosts.recordBoot('52-54-00-00-00-10', { ip: '10.0.0.10', arch: 'x86_64', platform: null, at }, { discover: false })).toMatchObject({
      id: known.id, last_boot_at: '2030-01-02T03:04:05.000Z', last_seen_ip: '10.0.0.10', arch: 'x86_64', platform: null,
    });
    expect(await hosts.recordBoot('52:54:00:00:00:11', { ip: '10.0.0.11', arch: null, platform: 'pcbios' }, { discover: false })).toBeNull();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => hosts.recordBoot('52:54:00:00:00:11', { ip: '10.0.0.11', arch: null, platform: 'pcbios' }, { discover: true })),
    );
    expect(new Set(results.map((host) => host?.id)).size).toBe(1);
    expect(hosts.all().filter((host) => host.mac === '52:54:00:00:00:11')).toHaveLength(1);
    expect(results[0]).toMatchObject({ discovered: true, enabled: true, platform: 'pcbios', profile_id: null });
    expect(events.all().filter((event) => event.kind === 'host.discovered')).toHaveLength(1);
  });
});

describe('hostNameSource', () => {
  it('lists hosts with a hostname and an address and tells about changes', async () => {
    const source = hostNameSource(hosts);
    let changes = 0;
    const off = source.onChange(() => {
      changes += 1;
    });
    const a = await hosts.create({ mac: '52:54:00:00:00:20', hostname: 'a', ip: '10.0.0.20' });
    await hosts.create({ mac: '52:54:00:00:00:21', hostname: 'no-ip' });
    await hosts.create({ mac: '52:54:00:00:00:22', ip: '10.0.0.22' });
    expect(source.name).toBe('hosts');
    expect([...source.entries()]).toEqual([{ hostname: 'a', ipv4: '10.0.0.20' }]);
    await hosts.update(a.id, { hostname: 'renamed' });
    expect([...source.entries()]).toEqual([{ hostname: 'renamed', ipv4: '10.0.0.20' }]);
    expect(changes).toBe(4);
    off();
    await hosts.remove(a.id);
    expect(changes).toBe(4);
    expect([...source.entries()]).toEqual([]);
  });
});
