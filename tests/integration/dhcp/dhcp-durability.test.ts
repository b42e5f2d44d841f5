import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientMac, findOption } from '../../../src-main/dhcp/server/dhcp-codec.js';
import { OPT } from '../../../src-main/dhcp/dhcp-options.js';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';
import { NetnsServer, subnet } from '../../helpers/netns-server.js';
import { readDhcpPcap, startCapture, stopCapture } from './pcap.js';

/*
 * Leases are on disk before their ACK leaves. perfdhcp (acting as a relay)
 * keeps requesting addresses while the server is killed with SIGKILL and
 * started again on the same data directory, then runs again against the
 * restarted server; every ACK captured on the wire must be a lease of the
 * restarted server, and no address may belong to two clients.
 *
 *   root ──(API veth)── srv [Bootwright 10.90.0.1/16] ── load [perfdhcp 10.90.0.2, tcpdump]
 */

const skip = skipNetnsTest('DHCP durability test', ['perfdhcp', 'tcpdump']);

interface LeaseRow {
  mac: string;
  ip: string;
  state: string;
}

describe.skipIf(skip)('lease durability across kill -9 under load', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let load: Netns;
  let work: { dir: string; remove: () => Promise<void> };

  beforeAll(async () => {
    work = await tempDir('bw-dhcp-durable-');
    lab = await NetLab.create();
    const srv = await lab.namespace('srv');
    load = await lab.namespace('load');
    await lab.link(srv, 'eth0', '10.90.0.1/16', load, 'eth0', '10.90.0.2/16');
    const api = await lab.rootLink(srv, 'api0');
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address, { logLevel: 'warn' });
    await server.start();
    await server.must('PUT', '/services/dhcp', {
      interfaces: [{ name: 'eth0', mode: 'server' }],
      subnets: [subnet('10.90.0.0/16', [{ start: '10.90.0.10', end: '10.90.255.250' }], { lease_time_seconds: 3600 })],
      // The restart must serve at once (phase 1's clients are still asking): no rogue-DHCP probe wait on this point-to-point link.
      rogue_guard: false,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('keeps every acknowledged lease and never gives an address to two clients', async () => {
    const pcap = path.join(work.dir, 'acks.pcap');
    const capture = await startCapture(load, 'eth0', pcap);
    // Phase 1: perfdhcp runs; the server is killed in the middle of it and started again.
    const perf = load.spawn('perfdhcp', ['-4', '-l', 'eth0', '-r', '400', '-R', '30000', '-p', '8', '10.90.0.1']);
    let perfOutput = '';
    perf.stdout?.on('data', (chunk: Buffer) => (perfOutput += chunk.toString()));
    const perfDone = new Promise((resolve) => perf.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const killedAt = Date.now();
    await server.kill();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await server.start();
    const restartedAt = Date.now();
    await perfDone;
    expect(perfOutput).toMatch(/REQUEST-ACK/);
    // Phase 2: the same clients (and new ones) against the restarted server.
    const again = await load.run('perfdhcp', ['-4', '-l', 'eth0', '-r', '400', '-R', '30000', '-p', '3', '10.90.0.1'], { timeoutMs: 60_000 });
    expect(again.stdout).toMatch(/REQUEST-ACK/);
    await stopCapture(capture);

    const acks = (await readDhcpPcap(pcap)).filter((p) => p.packet.op === 2 && findOption(p.packet, OPT.MESSAGE_TYPE)?.[0] === 5);
    const before = acks.filter((p) => p.time < killedAt);
    const after = acks.filter((p) => p.time > restartedAt);
    // The kill hit a server under load, and the restarted one served again.
    expect(before.length).toBeGreaterThan(200);
    expect(after.length).toBeGreaterThan(0);

    // No address was acknowledged to two different clients (all leases last an hour).
    const ownerOf = new Map<string, string>();
    const lastAck = new Map<string, string>();
    for (const ack of acks) {
      const mac = clientMac(ack.packet)!;
      const owner = ownerOf.get(ack.packet.yiaddr);
      expect(owner === undefined || owner === mac, `${ack.packet.yiaddr} acknowledged to ${owner} and ${mac}`).toBe(true);
      ownerOf.set(ack.packet.yiaddr, mac);
      lastAck.set(mac, ack.packet.yiaddr);
    }

    const leases = new Map<string, LeaseRow>();
    for (let page = 1; ; page += 1) {
      const rows = await server.must<LeaseRow[]>('GET', `/leases?size=500&page=${page}`);
      for (const row of rows) leases.set(row.mac, row);
      if (rows.length < 500) break;
    }
    // Every ACK seen on the wire is a lease of the restarted server.
    const missing = [...lastAck].filter(([mac, ip]) => leases.get(mac)?.ip !== ip);
    expect(missing, `acknowledged but lost: ${missing.slice(0, 5).join('; ')}`).toEqual([]);
    // No address is leased twice.
    const addresses = [...leases.values()].map((row) => row.ip);
    expect(new Set(addresses).size).toBe(addresses.length);
  }, 120_000);
});
