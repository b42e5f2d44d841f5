import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, waitForOutput, type Netns } from '../../helpers/netns.js';
import { NetnsServer, subnet } from '../../helpers/netns-server.js';
import { tempDir } from '../../helpers/test-core.js';

/*
 * The rogue-DHCP guard on a real segment: dnsmasq (dnsmasq-base) is another
 * DHCP server on the LAN Bootwright is asked to serve in server mode.
 *
 *   root ──(API veth)── srv [Bootwright, eth0 192.168.88.2]
 *                        ║ bridge br0 in hub
 *   lan [dnsmasq 192.168.88.1] ══ hub ══ cli [udhcpc; a scripted REQUEST]
 *
 * In order: with dnsmasq answering, server mode is refused (the service
 * state names dnsmasq and suggests proxy mode) and POST /dhcp/probe lists it;
 * `force` serves anyway; with dnsmasq gone, server mode starts and a client
 * gets its lease from us; a client's REQUEST naming another server raises
 * dhcp.foreign_server.
 */

const skip = skipNetnsTest('rogue-DHCP guard test', ['dnsmasq', 'udhcpc']);
/** Where nothing answers, a short probe does (dnsmasq is stopped by then). */
const PROBE_MS = 500;
/** dnsmasq pings an address for 3 s before it first offers it: a probe that must see it listens 4 s (the default is 3.5 s). */
const DNSMASQ_PROBE_MS = 4_000;

interface ServiceView {
  name: string;
  state: string;
  last_error: string | null;
}
interface GuardView {
  interfaces: { interface: string; state: string; foreign: { server_id: string; offered_ip: string | null; router: string | null }[]; message: string }[];
  sightings: { interface: string | null; server_id: string; how: string; client_mac: string | null }[];
}
interface EventView {
  kind: string;
  ip: string | null;
  mac: string | null;
  detail: { how: string; interface: string | null; verdict: string | null; server_id: string };
}

/**
 * A DHCPREQUEST (selecting state, RFC 2131 §4.3.2) naming `serverId` in
 * option 54, broadcast from the client namespace: plain bytes, so the
 * script needs nothing but Node.
 */
function requestScript(from: string, mac: string, serverId: string, requested: string): string {
  return `
    const dgram = require('node:dgram');
    const ip = (t) => t.split('.').map(Number);
    const mac = ${JSON.stringify(mac)}.split(':').map((h) => parseInt(h, 16));
    const head = Buffer.alloc(240);
    head[0] = 1; head[1] = 1; head[2] = 6;
    head.writeUInt32BE(0x5eed0001, 4);
    head.writeUInt16BE(0x8000, 10);
    Buffer.from(mac).copy(head, 28);
    head.writeUInt32BE(0x63825363, 236);
    const options = Buffer.from([53, 1, 3, 54, 4, ...ip(${JSON.stringify(serverId)}), 50, 4, ...ip(${JSON.stringify(requested)}), 255]);
    const packet = Buffer.concat([head, options, Buffer.alloc(60)]);
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
    socket.bind({ address: ${JSON.stringify(from)}, port: 68 }, () => {
      socket.setBroadcast(true);
      socket.send(packet, 67, '255.255.255.255', (err) => { if (err) { console.error(err.message); process.exit(1); } socket.close(); });
    });
  `;
}

describe.skipIf(skip)('rogue-DHCP guard beside dnsmasq', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let lanServer: Netns;
  let cli: Netns;
  let dnsmasq: ChildProcess;
  let work: { dir: string; remove: () => Promise<void> };

  const dhcpService = async () => (await server.must<ServiceView[]>('GET', '/services')).find((s) => s.name === 'dhcp');

  beforeAll(async () => {
    work = await tempDir('bw-dhcp-rogue-');
    lab = await NetLab.create();
    const hub = await lab.namespace('hub');
    const srv = await lab.namespace('srv');
    lanServer = await lab.namespace('lan');
    cli = await lab.namespace('cli');
    await lab.bridge(hub, 'br0');
    await lab.linkToBridge(srv, 'eth0', '192.168.88.2/24', hub, 'br0');
    await lab.linkToBridge(lanServer, 'eth0', '192.168.88.1/24', hub, 'br0');
    await lab.linkToBridge(cli, 'eth0', null, hub, 'br0');
    const api = await lab.rootLink(srv, 'api0');
    dnsmasq = lanServer.spawn('dnsmasq', [
      '--no-daemon',
      '--port=0',
      '--interface=eth0',
      '--bind-interfaces',
      '--dhcp-range=192.168.88.100,192.168.88.150,1h',
      '--dhcp-option=option:router,192.168.88.1',
      `--dhcp-leasefile=${path.join(work.dir, 'dnsmasq.leases')}`,
      '--log-dhcp',
    ]);
    await waitForOutput(dnsmasq, /DHCP, IP range/);
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address);
    await server.start();
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('refuses server mode where dnsmasq answers (default probe time): the service state names it and suggests proxy mode', async () => {
    // The default probe time, against dnsmasq as shipped (it pings before offering).
    expect((await server.must<{ rogue_probe_timeout_ms: number }>('GET', '/services/dhcp')).rogue_probe_timeout_ms).toBe(3_500);
    await server.must('PUT', '/services/dhcp', {
      interfaces: [{ name: 'eth0', mode: 'server' }],
      subnets: [subnet('192.168.88.0/24', [{ start: '192.168.88.200', end: '192.168.88.220' }])],
    });
    const service = await dhcpService();
    expect(service?.state).toBe('failed');
    expect(service?.last_error).toContain('eth0: another DHCP server answers on this segment: 192.168.88.1');
    expect(service?.last_error).toMatch(/offers 192\.168\.88\.1\d\d\/255\.255\.255\.0, router 192\.168\.88\.1/);
    expect(service?.last_error).toContain('proxy mode');

    const guard = await server.must<GuardView>('GET', '/dhcp/guard');
    expect(guard.interfaces).toEqual([expect.objectContaining({ interface: 'eth0', state: 'blocked', foreign: [expect.objectContaining({ server_id: '192.168.88.1', router: '192.168.88.1' })] })]);
    const events = await server.must<EventView[]>('GET', '/events?kind=dhcp.foreign_server');
    expect(events.some((e) => e.ip === '192.168.88.1' && e.detail.verdict === 'blocked' && e.detail.how === 'probe')).toBe(true);
  }, 60_000);

  it('POST /dhcp/probe lists dnsmasq with what it offers', async () => {
    const result = await server.must<{ interface: string; foreign: { server_id: string; source_ip: string; offered_ip: string; subnet_mask: string; lease_seconds: number }[] }>('POST', '/dhcp/probe', { interface: 'eth0', timeout_ms: DNSMASQ_PROBE_MS });
    expect(result.interface).toBe('eth0');
    expect(result.foreign).toEqual([expect.objectContaining({ server_id: '192.168.88.1', source_ip: '192.168.88.1', subnet_mask: '255.255.255.0', lease_seconds: 3600 })]);
    expect(result.foreign[0]!.offered_ip).toMatch(/^192\.168\.88\.1\d\d$/);
    expect((await server.api('POST', '/dhcp/probe', { interface: 'nope0' })).status).toBe(404);
  }, 60_000);

  it('serves anyway with force', async () => {
    await server.must('PUT', '/services/dhcp', { force: true, rogue_probe_timeout_ms: DNSMASQ_PROBE_MS });
    expect((await dhcpService())?.state).toBe('running');
    const guard = await server.must<GuardView>('GET', '/dhcp/guard');
    expect(guard.interfaces).toEqual([expect.objectContaining({ interface: 'eth0', state: 'forced' })]);
  }, 60_000);

  it('with no other server, serves normally and a client gets its lease from us', async () => {
    const exited = new Promise((resolve) => dnsmasq.once('exit', resolve));
    dnsmasq.kill('SIGTERM');
    await exited;
    await server.must('PUT', '/services/dhcp', { force: false, rogue_probe_timeout_ms: PROBE_MS });
    expect((await dhcpService())?.state).toBe('running');
    expect((await server.must<GuardView>('GET', '/dhcp/guard')).interfaces).toEqual([expect.objectContaining({ interface: 'eth0', state: 'clear', foreign: [] })]);
    const lease = await cli.run('udhcpc', ['-i', 'eth0', '-f', '-q', '-n', '-t', '4', '-T', '1', '-s', '/bin/true'], { timeoutMs: 30_000 });
    expect(lease.stderr).toMatch(/lease of 192\.168\.88\.2\d\d obtained from 192\.168\.88\.2,/);
  }, 60_000);

  it('while serving, a client REQUEST naming another server raises dhcp.foreign_server', async () => {
    await cli.addAddress('eth0', '192.168.88.60/24');
    const mac = '52:54:00:5e:ed:01';
    const sent = await cli.run(process.execPath, ['-e', requestScript('192.168.88.60', mac, '192.168.88.77', '192.168.88.130')], { timeoutMs: 20_000 });
    expect(sent.code, sent.stderr).toBe(0);
    let events: EventView[] = [];
    for (let i = 0; i < 50 && events.length === 0; i += 1) {
      events = (await server.must<EventView[]>('GET', '/events?kind=dhcp.foreign_server')).filter((e) => e.detail.how === 'client_request');
      if (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(events).toEqual([expect.objectContaining({ ip: '192.168.88.77', mac, detail: expect.objectContaining({ interface: 'eth0', server_id: '192.168.88.77', verdict: null }) })]);
    const guard = await server.must<GuardView>('GET', '/dhcp/guard');
    expect(guard.sightings).toEqual(expect.arrayContaining([expect.objectContaining({ interface: 'eth0', server_id: '192.168.88.77', how: 'client_request', client_mac: mac })]));
  }, 60_000);
});

/*
 * A cable that gets its link after the start (docs/dhcp.md, "On link-up"):
 * the interface is served at once, and probed again while served; the
 * foreign server at the other end is a sighting and an event, and server
 * mode is withdrawn from that interface (no DHCP answers there) until the
 * next start; `force` serves it anyway.
 *
 *   srv [Bootwright, eth0 10.77.0.2] ── veth ── lan [dnsmasq 10.77.0.1; udhcpc] (down until the test plugs it in)
 */
describe.skipIf(skip)('rogue-DHCP guard on link-up', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let lanServer: Netns;
  let dnsmasq: ChildProcess;
  let work: { dir: string; remove: () => Promise<void> };

  const startDnsmasq = async () => {
    // --no-ping: it offers at once (the probe listens PROBE_MS).
    dnsmasq = lanServer.spawn('dnsmasq', ['--no-daemon', '--port=0', '--interface=eth0', '--no-ping', '--dhcp-range=10.77.0.50,10.77.0.60,1h', `--dhcp-leasefile=${path.join(work.dir, 'dnsmasq.leases')}`, '--log-dhcp']);
    await waitForOutput(dnsmasq, /DHCP, IP range/);
  };
  const dhcpService = async () => (await server.must<(ServiceView & { listen: string[]; notice: string | null })[]>('GET', '/services')).find((s) => s.name === 'dhcp');

  beforeAll(async () => {
    work = await tempDir('bw-dhcp-rogue-link-');
    lab = await NetLab.create();
    const srv = await lab.namespace('srv');
    lanServer = await lab.namespace('lan');
    await lab.link(srv, 'eth0', '10.77.0.2/24', lanServer, 'eth0', '10.77.0.1/24');
    await lanServer.ip('link', 'set', 'eth0', 'down');
    const api = await lab.rootLink(srv, 'api0');
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address);
    await server.start();
    await server.must('PUT', '/services/dhcp', {
      interfaces: [{ name: 'eth0', mode: 'server' }],
      subnets: [subnet('10.77.0.0/24', [{ start: '10.77.0.100', end: '10.77.0.199' }])],
      rogue_probe_timeout_ms: PROBE_MS,
    });
    await startDnsmasq();
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('serves the link-down interface from the start; on link-up the probe sights dnsmasq and withdraws server mode from it', async () => {
    const before = await server.must<GuardView>('GET', '/dhcp/guard');
    expect(before.interfaces).toEqual([expect.objectContaining({ interface: 'eth0', state: 'clear' })]);
    expect(before.sightings).toEqual([]);
    expect((await dhcpService())?.listen).toContain('udp 10.77.0.2:67 (eth0, server)');
    await lanServer.ip('link', 'set', 'eth0', 'up');
    let sightings: GuardView['sightings'] = [];
    for (let i = 0; i < 100 && sightings.length === 0; i += 1) {
      sightings = (await server.must<GuardView>('GET', '/dhcp/guard')).sightings;
      if (sightings.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sightings).toEqual([expect.objectContaining({ interface: 'eth0', server_id: '10.77.0.1', how: 'probe' })]);
    const events = await server.must<EventView[]>('GET', '/events?kind=dhcp.foreign_server');
    expect(events.some((event) => event.detail.how === 'probe' && event.detail.server_id === '10.77.0.1' && event.detail.verdict === 'blocked')).toBe(true);
    let service = await dhcpService();
    for (let i = 0; i < 50 && service?.listen.some((line) => line.includes('(eth0')); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      service = await dhcpService();
    }
    // Withdrawn, not stopped: the service runs (TFTP and HTTP too), eth0's DHCP sockets are closed, the notice says why.
    expect(service?.state).toBe('running');
    expect(service?.listen.filter((line) => line.includes('(eth0'))).toEqual([]);
    expect(service?.notice).toContain('server mode on eth0 withdrawn');
    expect((await server.must<GuardView>('GET', '/dhcp/guard')).interfaces).toEqual([expect.objectContaining({ interface: 'eth0', state: 'blocked' })]);
  }, 60_000);

  it('once withdrawn, a client on that segment gets no answer from us', async () => {
    const exited = new Promise((resolve) => dnsmasq.once('exit', resolve));
    dnsmasq.kill('SIGTERM');
    await exited;
    const lease = await lanServer.run('udhcpc', ['-i', 'eth0', '-f', '-q', '-n', '-t', '3', '-T', '1', '-s', '/bin/true'], { timeoutMs: 30_000 });
    expect(lease.stderr).not.toMatch(/obtained/);
    expect(lease.code).not.toBe(0);
  }, 60_000);

  it('force serves it again beside dnsmasq', async () => {
    await startDnsmasq();
    await server.must('PUT', '/services/dhcp', { force: true });
    const service = await dhcpService();
    expect(service?.state).toBe('running');
    expect(service?.listen).toContain('udp 10.77.0.2:67 (eth0, server)');
    expect((await server.must<GuardView>('GET', '/dhcp/guard')).interfaces).toEqual([expect.objectContaining({ interface: 'eth0', state: 'forced' })]);
  }, 60_000);
});
