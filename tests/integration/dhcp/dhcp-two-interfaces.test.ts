import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';
import { NetnsServer, subnet } from '../../helpers/netns-server.js';
import { readDhcpPcap, startCapture, stopCapture } from './pcap.js';

/*
 * The multi-NIC rule, on a machine with two interfaces: "wifi0" has the
 * default route (the network with internet), "eth0" goes to the machines to
 * boot. DHCP broadcasts must leave through the interface of the subnet they
 * answer — never along the default route — even though Node cannot bind a
 * socket to a device nor learn a broadcast's arrival interface.
 *
 *   wifi-side [router 192.168.1.1, clients] ── wifi0 192.168.1.10 (default route) ┐
 *                                                                                  srv [Bootwright] ── API veth ── root
 *   eth-side [clients] ────────────────────────────── eth0 10.42.0.1/24 ──────────┘
 */

const skip = skipNetnsTest('two-interface DHCP test', ['udhcpc', 'tcpdump']);

describe.skipIf(skip)('DHCP on a machine with two interfaces', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let wifiSide: Netns;
  let ethSide: Netns;
  let work: { dir: string; remove: () => Promise<void> };

  const udhcpc = (ns: Netns) => ns.run('udhcpc', ['-i', 'eth0', '-f', '-q', '-n', '-t', '4', '-T', '1', '-s', '/bin/true'], { timeoutMs: 30_000 });

  beforeAll(async () => {
    work = await tempDir('bw-dhcp-2nic-');
    lab = await NetLab.create();
    const srv = await lab.namespace('srv');
    wifiSide = await lab.namespace('wifi');
    ethSide = await lab.namespace('eth');
    await lab.link(srv, 'wifi0', '192.168.1.10/24', wifiSide, 'eth0', '192.168.1.1/24');
    await lab.link(srv, 'eth0', '10.42.0.1/24', ethSide, 'eth0', null);
    // The "internet" is behind wifi0: the default route leaves there.
    await srv.ip('route', 'add', 'default', 'via', '192.168.1.1', 'dev', 'wifi0');
    const api = await lab.rootLink(srv, 'api0');
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address);
    await server.start();
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('serving only eth0: replies leave through eth0, none along the default route', async () => {
    await server.must('PUT', '/services/dhcp', {
      interfaces: [{ name: 'eth0', mode: 'server' }, { name: 'wifi0', mode: 'off' }],
      subnets: [subnet('10.42.0.0/24', [{ start: '10.42.0.100', end: '10.42.0.199' }])],
    });
    const wifiCapture = path.join(work.dir, 'wifi-1.pcap');
    const ethCapture = path.join(work.dir, 'eth-1.pcap');
    const captures = [await startCapture(wifiSide, 'eth0', wifiCapture), await startCapture(ethSide, 'eth0', ethCapture)];
    const result = await udhcpc(ethSide);
    expect(result.stderr).toMatch(/lease of 10\.42\.0\.1\d\d obtained from 10\.42\.0\.1,/);
    for (const capture of captures) await stopCapture(capture);
    const onEth = (await readDhcpPcap(ethCapture)).filter((p) => p.packet.op === 2);
    expect(onEth.map((p) => [p.source, p.destination])).toContainEqual(['10.42.0.1', '255.255.255.255']);
    const onWifi = await readDhcpPcap(wifiCapture);
    expect(onWifi.filter((p) => p.packet.op === 2)).toEqual([]);
  });

  it('serving both: each side gets an address of its own subnet, and no reply crosses to the other side', async () => {
    await server.must('PUT', '/services/dhcp', {
      interfaces: [{ name: 'eth0', mode: 'server' }, { name: 'wifi0', mode: 'server' }],
      subnets: [
        subnet('10.42.0.0/24', [{ start: '10.42.0.100', end: '10.42.0.199' }]),
        subnet('192.168.1.0/24', [{ start: '192.168.1.100', end: '192.168.1.199' }]),
      ],
    });
    const wifiCapture = path.join(work.dir, 'wifi-2.pcap');
    const ethCapture = path.join(work.dir, 'eth-2.pcap');
    const captures = [await startCapture(wifiSide, 'eth0', wifiCapture), await startCapture(ethSide, 'eth0', ethCapture)];
    // The wifi-side namespace holds the router address; its client runs on an address-less copy of the link.
    await wifiSide.ip('addr', 'flush', 'dev', 'eth0');
    const wifi = await udhcpc(wifiSide);
    const eth = await udhcpc(ethSide);
    for (const capture of captures) await stopCapture(capture);
    expect(wifi.stderr).toMatch(/lease of 192\.168\.1\.1\d\d obtained from 192\.168\.1\.10,/);
    expect(eth.stderr).toMatch(/lease of 10\.42\.0\.1\d\d obtained from 10\.42\.0\.1,/);
    const replies = async (file: string) => (await readDhcpPcap(file)).filter((p) => p.packet.op === 2);
    const wifiReplies = await replies(wifiCapture);
    const ethReplies = await replies(ethCapture);
    expect(wifiReplies.length).toBeGreaterThan(0);
    expect(ethReplies.length).toBeGreaterThan(0);
    // A broadcast cannot be attributed to an interface, so each interface answers from its own subnet — and only its own.
    expect(wifiReplies.every((p) => p.source === '192.168.1.10' && !p.packet.yiaddr.startsWith('10.42.'))).toBe(true);
    expect(ethReplies.every((p) => p.source === '10.42.0.1' && !p.packet.yiaddr.startsWith('192.168.1.'))).toBe(true);
    await wifiSide.addAddress('eth0', '192.168.1.1/24');
  });

  it('the last interface turned off stops the service, the first turned on starts it again (services/settings-apply.ts)', async () => {
    const dhcp = async () => (await server.must<{ name: string; state: string }[]>('GET', '/services')).find((row) => row.name === 'dhcp');
    expect((await dhcp())?.state).toBe('running');
    await server.must('PUT', '/services/dhcp', { interfaces: [{ name: 'eth0', mode: 'off' }, { name: 'wifi0', mode: 'off' }] });
    expect((await dhcp())?.state).toBe('stopped');
    await server.must('PUT', '/services/dhcp', { interfaces: [{ name: 'eth0', mode: 'server' }, { name: 'wifi0', mode: 'off' }] });
    expect((await dhcp())?.state).toBe('running');
    expect((await udhcpc(ethSide)).stderr).toMatch(/lease of 10\.42\.0\.1\d\d obtained from 10\.42\.0\.1,/);
  });
});
