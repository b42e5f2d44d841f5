import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { LogSink } from '../../../src-main/core/logger.js';
import { EventLog } from '../../../src-main/events/event-log.js';
import { hostNameSource } from '../../../src-main/hosts/host-name-source.js';
import { HostService } from '../../../src-main/hosts/host-service.js';
import type { HostReservationLink } from '../../../src-main/hosts/host-types.js';
import { SerialQueue } from '../../../src-main/profiles/serial-queue.js';
import { Store } from '../../../src-main/store/store.js';
import { countConfigWrites } from '../../helpers/store-writes.js';
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
    const stored = JSON.stringify(store.file('config').data);
    await expect(hosts.create({ mac: '52:54:00:00:00:02', ip: '10.0.0.9' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(hosts.all()).toEqual([]);
    expect(hosts.findByMac('52:54:00:00:00:02')).toBeUndefined();
    // Not even a host id is used up: the store is as it was (the write-route fuzzer checks this for every rejected request).
    expect(JSON.stringify(store.file('config').data)).toBe(stored);
    const host = await hosts.create({ mac: '52:54:00:00:00:02', ip: '10.0.0.8' });
    expect(host.id).toBe(1);
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

/** A clock that moves only when the test moves it. */
function manualClock(start = Date.parse('2030-01-01T00:00:00.000Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
}


function limitedHosts(clock: ReturnType<typeof manualClock>, discoveryLimits = {}): HostService {
  const log = new LogSink({ logDir: null, level: 'error', console: false }).logger('test');
  return new HostService({ store, events, log, queue: new SerialQueue(), profileExists: () => false, reservations: () => undefined, now: clock.now, discoveryLimits });
}

function randomishMac(i: number): string {
  return `02:00:00:${[i >> 16, (i >> 8) & 0xff, i & 0xff].map((b) => b.toString(16).padStart(2, '0')).join(':')}`;
}

describe('HostService.recordBoot under a flood', () => {
  it('records at most the rate limit of unknown machines and warns once, with counts', async () => {
    const clock = manualClock();
    const limited = limitedHosts(clock);
    // 200 invented MACs from 200 addresses: only the global bucket (30) can stop them.
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => limited.recordBoot(randomishMac(i), { ip: `10.1.${i >> 8}.${i & 0xff}`, arch: null, platform: null }, { discover: true })),
    );
    expect(results.filter((host) => host !== null)).toHaveLength(30);
    expect(limited.all().filter((host) => host.discovered)).toHaveLength(30);
    expect(events.all().filter((event) => event.kind === 'host.discovered')).toHaveLength(30);
    const warnings = events.all().filter((event) => event.kind === 'host.discovery_limited');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', detail: { reason: 'rate_global', refused: 1, rate_global: 1, pending: 30, max_pending: 1000, per_minute: 30 } });

    // A minute later the bucket is full again, and the next warning counts what was refused meanwhile.
    clock.advance(60_000);
    const more = await Promise.all(
      Array.from({ length: 40 }, (_, i) => limited.recordBoot(randomishMac(1000 + i), { ip: `10.2.0.${i}`, arch: null, platform: null }, { discover: true })),
    );
    expect(more.filter((host) => host !== null)).toHaveLength(30);
    const again = events.all().filter((event) => event.kind === 'host.discovery_limited');
    expect(again).toHaveLength(2);
    // 169 refusals of the first flood not yet reported, plus the one that made this warning due.
    expect(again[1]!.detail).toMatchObject({ refused: 170, rate_global: 170 });
  });

  it('records at most 5 a minute from one address', async () => {
    const clock = manualClock();
    const limited = limitedHosts(clock);
    for (let i = 0; i < 50; i += 1) await limited.recordBoot(randomishMac(i), { ip: '10.3.0.1', arch: null, platform: null }, { discover: true });
    expect(limited.all()).toHaveLength(5);
    expect(events.all().filter((event) => event.kind === 'host.discovery_limited').map((event) => event.detail?.reason)).toEqual(['rate_source']);
    // Another address is not held back by this one.
    expect(await limited.recordBoot(randomishMac(99), { ip: '10.3.0.2', arch: null, platform: null }, { discover: true })).not.toBeNull();
  });

  it('stops at the cap of hosts awaiting adoption; adopting one frees a place', async () => {
    const clock = manualClock();
    const limited = limitedHosts(clock, { maxPending: 3 });
    for (let i = 0; i < 10; i += 1) await limited.recordBoot(randomishMac(i), { ip: `10.4.0.${i}`, arch: null, platform: null }, { discover: true });
    const pending = limited.all().filter((host) => host.discovered);
    expect(pending).toHaveLength(3);
    expect(events.all().filter((event) => event.kind === 'host.discovery_limited')[0]!.detail).toMatchObject({ reason: 'pending_cap', pending: 3, max_pending: 3 });
    await limited.update(pending[0]!.id, { discovered: false });
    expect(await limited.recordBoot(randomishMac(50), { ip: '10.4.1.1', arch: null, platform: null }, { discover: true })).toMatchObject({ discovered: true });
    expect(await limited.recordBoot(randomishMac(51), { ip: '10.4.1.2', arch: null, platform: null }, { discover: true })).toBeNull();
  });

  it('writes a known host\'s repeated boots at most once a minute, but a changed address, arch or platform at once', async () => {
    const clock = manualClock();
    const limited = limitedHosts(clock);
    const host = await limited.create({ mac: '52:54:00:00:01:00' });
    const boot = (ip: string, arch: string | null = 'x86_64', platform: string | null = 'efi') => limited.recordBoot(host.mac, { ip, arch, platform }, { discover: true });
    const flood = await countConfigWrites(store, async () => {
      for (let i = 0; i < 100; i += 1) {
        await boot('10.5.0.1');
        clock.advance(100);
      }
    });
    // The first boot is news; the 99 that follow within the minute change nothing worth a write.
    expect(flood).toBe(1);
    expect(limited.get(host.id)).toMatchObject({ last_seen_ip: '10.5.0.1', arch: 'x86_64', platform: 'efi', last_boot_at: '2030-01-01T00:00:00.000Z' });

    expect(await countConfigWrites(store, () => boot('10.5.0.2'))).toBe(1);
    expect(limited.get(host.id)).toMatchObject({ last_seen_ip: '10.5.0.2', last_boot_at: '2030-01-01T00:00:10.000Z' });
    expect(await countConfigWrites(store, () => boot('10.5.0.2', 'arm64'))).toBe(1);
    expect(await countConfigWrites(store, () => boot('10.5.0.2', 'arm64', 'pcbios'))).toBe(1);
    // Values iPXE did not send change nothing.
    expect(await countConfigWrites(store, () => boot('10.5.0.2', null, null))).toBe(0);
    expect(limited.get(host.id)).toMatchObject({ arch: 'arm64', platform: 'pcbios' });

    clock.advance(60_000);
    expect(await countConfigWrites(store, () => boot('10.5.0.2', 'arm64', 'pcbios'))).toBe(1);
    expect(limited.get(host.id)!.last_boot_at).toBe('2030-01-01T00:01:10.000Z');
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
