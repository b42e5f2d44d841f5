import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../../src-main/core/logger.js';
import type { DhcpSettings, ForeignDhcpServer } from '../../../../src-main/dhcp/dhcp-contract.js';
import { dhcpDefaults } from '../../../../src-main/dhcp/dhcp-config.js';
import { RogueGuard } from '../../../../src-main/dhcp/server/rogue-guard.js';
import type { DhcpProber } from '../../../../src-main/dhcp/server/rogue-probe.js';
import type { EventInput } from '../../../../src-main/events/event-types.js';
import type { Nic } from '../../../../src-main/network/network-contract.js';

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, scope: () => quiet };

const NICS: Nic[] = [
  { name: 'eth0', mac: '52:54:00:00:00:10', mtu: 1500, up: true, internal: false, link: 'up', addresses: [{ address: '192.168.88.2', family: 'ipv4', prefix: 24, cidr: '192.168.88.2/24', subnet: '192.168.88.0/24' }] },
  { name: 'eth1', mac: '52:54:00:00:00:11', mtu: 1500, up: true, internal: false, link: 'up', addresses: [{ address: '10.9.0.1', family: 'ipv4', prefix: 24, cidr: '10.9.0.1/24', subnet: '10.9.0.0/24' }] },
  { name: 'lo', mac: null, mtu: 65536, up: true, internal: true, link: 'unknown', addresses: [{ address: '127.0.0.1', family: 'ipv4', prefix: 8, cidr: '127.0.0.1/8', subnet: '127.0.0.0/8' }] },
];

const ROUTER: ForeignDhcpServer = { server_id: '192.168.88.1', source_ip: '192.168.88.1', mac: null, offered_ip: '192.168.88.120', subnet_mask: '255.255.255.0', router: '192.168.88.1', lease_seconds: 3600 };

function kit(settings: Partial<DhcpSettings> = {}, answers: Record<string, ForeignDhcpServer[] | Error> = {}) {
  const events: EventInput[] = [];
  const probed: { name: string; address: string; mac: string | null; timeoutMs: number; own: string[] }[] = [];
  const prober: DhcpProber = async (target, options) => {
    probed.push({ name: target.interfaceName, address: target.address, mac: target.mac, timeoutMs: options.timeoutMs, own: [...options.ownAddresses] });
    const answer = answers[target.interfaceName] ?? [];
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const value = { ...dhcpDefaults(), ...settings };
  const guard = new RogueGuard(
    { events: { emit: (event: EventInput) => events.push(event) }, network: { list: () => NICS, refresh: () => NICS }, settings: { current: () => value }, log: quiet },
    { prober },
  );
  return { guard, events, probed };
}

describe('the rogue-DHCP guard before server mode', () => {
  it('blocks an interface where another server answers, names it and suggests proxy mode; serves the clear one', async () => {
    const { guard, events, probed } = kit({ rogue_probe_timeout_ms: 300 }, { eth0: [ROUTER] });
    const { blocked, verdicts } = await guard.check([{ name: 'eth0', address: '192.168.88.2' }, { name: 'eth1', address: '10.9.0.1' }]);
    expect([...blocked]).toEqual(['eth0']);
    expect(verdicts.map((v) => [v.interface, v.state])).toEqual([['eth0', 'blocked'], ['eth1', 'clear']]);
    expect(verdicts[0]!.message).toContain('192.168.88.1 (offers 192.168.88.120/255.255.255.0, router 192.168.88.1');
    expect(verdicts[0]!.message).toContain('proxy mode');
    expect(verdicts[0]!.message).toContain('"force": true');
    // Both probed at once, with the configured timeout, from the interface's address and MAC, knowing all our addresses.
    expect(probed).toEqual([
      expect.objectContaining({ name: 'eth0', address: '192.168.88.2', mac: '52:54:00:00:00:10', timeoutMs: 300 }),
      expect.objectContaining({ name: 'eth1', address: '10.9.0.1', timeoutMs: 300 }),
    ]);
    expect(probed[0]!.own).toEqual(['192.168.88.2', '10.9.0.1', '127.0.0.1']);
    expect(events).toEqual([expect.objectContaining({ kind: 'dhcp.foreign_server', level: 'warn', ip: '192.168.88.1', detail: expect.objectContaining({ interface: 'eth0', how: 'probe', verdict: 'blocked', server: ROUTER }) })]);
    expect(guard.status().interfaces).toEqual(verdicts);
  });

  it('trusts a clear probe for a while (a settings change restarts without another wait) unless the interface is forgotten or changed address', async () => {
    const { guard, probed } = kit();
    const eth0 = { name: 'eth0', address: '192.168.88.2' };
    expect((await guard.check([eth0])).verdicts[0]?.state).toBe('clear');
    expect((await guard.check([eth0])).verdicts[0]?.state).toBe('clear');
    expect(probed).toHaveLength(1);
    await guard.check([{ name: 'eth0', address: '192.168.88.3' }]);
    expect(probed).toHaveLength(2);
    guard.forget('eth0');
    await guard.check([{ name: 'eth0', address: '192.168.88.3' }]);
    expect(probed).toHaveLength(3);
    // A foreign server seen there: probed again at the next start.
    guard.clientChoseOther('eth0', '192.168.88.1', '52:54:00:aa:00:01');
    await guard.check([{ name: 'eth0', address: '192.168.88.3' }]);
    expect(probed).toHaveLength(4);
  });

  it('serves anyway with force, and reports it', async () => {
    const { guard, events } = kit({ force: true }, { eth0: [ROUTER] });
    const { blocked, verdicts } = await guard.check([{ name: 'eth0', address: '192.168.88.2' }]);
    expect(blocked.size).toBe(0);
    expect(verdicts[0]).toMatchObject({ state: 'forced', foreign: [ROUTER] });
    expect(events[0]?.detail).toMatchObject({ verdict: 'forced' });
  });

  it('does not probe when the guard is off, on loopback, and serves when the probe cannot run', async () => {
    const off = kit({ rogue_guard: false }, { eth0: [ROUTER] });
    expect((await off.guard.check([{ name: 'eth0', address: '192.168.88.2' }])).verdicts[0]).toMatchObject({ state: 'not_probed', message: expect.stringContaining('rogue_guard is off') });
    expect(off.probed).toEqual([]);
    const other = kit({}, { eth0: new Error('listen udp 0.0.0.0:68: address already in use') });
    const { blocked, verdicts } = await other.guard.check([{ name: 'lo', address: '127.0.0.1' }, { name: 'eth0', address: '192.168.88.2' }]);
    expect(blocked.size).toBe(0);
    expect(verdicts.map((v) => v.state)).toEqual(['not_probed', 'not_probed']);
    expect(verdicts[1]!.message).toContain('address already in use');
    expect(other.probed.map((p) => p.name)).toEqual(['eth0']);
  });
});

describe('POST /dhcp/probe through the guard', () => {
  it('probes one interface with the given timeout, and refuses unknown, loopback and address-less ones', async () => {
    const { guard, probed, events } = kit({}, { eth0: [ROUTER] });
    expect(await guard.probe('eth0', 150)).toMatchObject({ interface: 'eth0', foreign: [ROUTER] });
    expect(probed[0]).toMatchObject({ timeoutMs: 150 });
    // An on-demand probe only answers: no event, no verdict.
    expect(events).toEqual([]);
    await expect(guard.probe('eth9')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(guard.probe('lo')).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });
});

describe('foreign servers seen while serving', () => {
  it('records a client REQUEST naming another server and raises one event per interval', () => {
    const { guard, events } = kit();
    guard.clientChoseOther('eth0', '192.168.88.1', '52:54:00:aa:00:01');
    guard.clientChoseOther('eth0', '192.168.88.1', '52:54:00:aa:00:02');
    guard.clientChoseOther(null, '10.0.0.1', '52:54:00:aa:00:03');
    expect(events.map((e) => [e.kind, e.ip, e.mac])).toEqual([
      ['dhcp.foreign_server', '192.168.88.1', '52:54:00:aa:00:01'],
      ['dhcp.foreign_server', '10.0.0.1', '52:54:00:aa:00:03'],
    ]);
    const sightings = guard.status().sightings;
    expect(sightings.find((s) => s.server_id === '192.168.88.1')).toMatchObject({ interface: 'eth0', how: 'client_request', client_mac: '52:54:00:aa:00:02', count: 2 });
    expect(sightings.find((s) => s.server_id === '10.0.0.1')).toMatchObject({ interface: null, count: 1 });
  });

  it('a probe while serving that finds another server blocks the interface (to withdraw), records it, skips loopback', async () => {
    const { guard, events, probed } = kit({}, { eth0: [ROUTER] });
    const withdraw = await guard.recheck([{ name: 'eth0', address: '192.168.88.2' }, { name: 'eth1', address: '10.9.0.1' }, { name: 'lo', address: '127.0.0.1' }]);
    expect([...withdraw]).toEqual(['eth0']);
    expect(probed.map((p) => p.name)).toEqual(['eth0', 'eth1']);
    expect(guard.status().sightings).toEqual([expect.objectContaining({ interface: 'eth0', how: 'probe', server: ROUTER })]);
    expect(guard.status().interfaces).toEqual([expect.objectContaining({ interface: 'eth0', state: 'blocked' })]);
    expect(guard.status().interfaces[0]!.message).toContain('server mode on eth0 withdrawn');
    expect(guard.blockedNow()).toEqual(new Set(['eth0']));
    expect(events[0]).toMatchObject({ message: expect.stringContaining('not serving it in server mode'), detail: { how: 'probe', verdict: 'blocked' } });
  });

  it('with force, a probe while serving reports the other server but withdraws nothing', async () => {
    const { guard, events } = kit({ force: true }, { eth0: [ROUTER] });
    expect([...(await guard.recheck([{ name: 'eth0', address: '192.168.88.2' }]))]).toEqual([]);
    expect(guard.status().interfaces).toEqual([expect.objectContaining({ interface: 'eth0', state: 'forced' })]);
    expect(events[0]?.detail).toMatchObject({ how: 'probe', verdict: 'forced' });
  });
});
