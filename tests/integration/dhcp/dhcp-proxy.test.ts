import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';
import { NetnsServer } from '../../helpers/netns-server.js';

/*
 * proxyDHCP next to someone else's DHCP server: dnsmasq (dnsmasq-base) is the
 * LAN's DHCP server and knows nothing about PXE; Bootwright serves the same
 * LAN in proxy mode. A PXE client gets its address from dnsmasq and its boot
 * file from Bootwright (proxy OFFER on port 67, ACK from the boot server on
 * port 4011); an ordinary client gets only dnsmasq's answer.
 *
 *   root ──(API veth)── srv [Bootwright, proxy on eth0 192.168.88.2]
 *                        ║ bridge br0 in hub
 *   lan [dnsmasq 192.168.88.1] ══ hub ══ pxe [udhcpc, then the scripted PXE ROM]
 */

const skip = skipNetnsTest('proxyDHCP test', ['dnsmasq', 'udhcpc']);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PXE_CLIENT = path.join(ROOT, 'tests', 'integration', 'dhcp', 'pxe-client.ts');

interface Reply {
  from: string;
  type: number;
  yiaddr: string;
  siaddr: string;
  file: string;
  server_id: string | null;
  vendor_class: string | null;
  bootfile_option: string | null;
  vendor_options: string | null;
  uuid_echoed: boolean;
}

describe.skipIf(skip)('proxyDHCP beside dnsmasq', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let pxe: Netns;
  let lanServer: Netns;
  let work: { dir: string; remove: () => Promise<void> };

  beforeAll(async () => {
    work = await tempDir('bw-dhcp-proxy-');
    lab = await NetLab.create();
    const hub = await lab.namespace('hub');
    const srv = await lab.namespace('srv');
    lanServer = await lab.namespace('lan');
    pxe = await lab.namespace('pxe');
    await lab.bridge(hub, 'br0');
    await lab.linkToBridge(srv, 'eth0', '192.168.88.2/24', hub, 'br0');
    await lab.linkToBridge(lanServer, 'eth0', '192.168.88.1/24', hub, 'br0');
    await lab.linkToBridge(pxe, 'eth0', null, hub, 'br0');
    const api = await lab.rootLink(srv, 'api0');
    lanServer.spawn('dnsmasq', [
      '--no-daemon',
      '--port=0',
      '--interface=eth0',
      '--bind-interfaces',
      '--dhcp-range=192.168.88.100,192.168.88.150,1h',
      `--dhcp-leasefile=${path.join(work.dir, 'dnsmasq.leases')}`,
      '--log-dhcp',
    ]);
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address);
    await server.start();
    await server.must('PUT', '/services/dhcp', { interfaces: [{ name: 'eth0', mode: 'proxy' }] });
    const services = await server.must<{ name: string; state: string; listen: string[] }[]>('GET', '/services');
    expect(services.find((s) => s.name === 'dhcp')).toMatchObject({ state: 'running' });
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('an ordinary client gets its address from dnsmasq and nothing from Bootwright', async () => {
    const result = await pxe.run('udhcpc', ['-i', 'eth0', '-f', '-q', '-n', '-t', '4', '-T', '1', '-s', '/bin/true'], { timeoutMs: 30_000 });
    expect(result.stderr).toMatch(/lease of 192\.168\.88\.1\d\d obtained from 192\.168\.88\.1,/);
    expect(await server.must<unknown[]>('GET', '/leases')).toHaveLength(0);
  });

  it('a PXE client gets its address from dnsmasq and its boot file from Bootwright', async () => {
    const mac = /link\/ether ([0-9a-f:]{17})/.exec(await pxe.ip('link', 'show', 'eth0'))![1]!;
    // The ROM's first exchange: the address from the LAN server (configured, as the ROM would use it).
    const lease = await pxe.run('udhcpc', ['-i', 'eth0', '-f', '-q', '-n', '-t', '4', '-T', '1', '-s', '/bin/true'], { timeoutMs: 30_000 });
    const address = /lease of (\S+) obtained/.exec(lease.stderr)![1]!;
    await pxe.ip('addr', 'flush', 'dev', 'eth0');
    await pxe.addAddress('eth0', `${address}/24`);

    const run = await pxe.run(process.execPath, ['--import', 'tsx', PXE_CLIENT, JSON.stringify({ address, mac, arch: 0, bootServer: '192.168.88.2' })], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const replies = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Reply & { done?: boolean }).filter((r) => !r.done);

    const fromLan = replies.filter((r) => r.server_id === '192.168.88.1');
    const fromUs = replies.filter((r) => r.server_id === '192.168.88.2');
    // dnsmasq: the address, no boot information.
    expect(fromLan.find((r) => r.type === 2)).toMatchObject({ yiaddr: address, file: '' });
    // Bootwright: a proxy OFFER without an address, with the BIOS boot file over TFTP.
    expect(fromUs.find((r) => r.type === 2)).toMatchObject({
      yiaddr: '0.0.0.0',
      siaddr: '192.168.88.2',
      file: 'undionly.kpxe',
      bootfile_option: 'undionly.kpxe',
      vendor_class: 'PXEClient',
      vendor_options: '060108ff',
      uuid_echoed: true,
    });
    // …and the boot server ACK on port 4011.
    expect(fromUs.find((r) => r.type === 5)).toMatchObject({ yiaddr: '0.0.0.0', file: 'undionly.kpxe', from: '192.168.88.2:4011' });

    // Bootwright kept no lease: addresses are dnsmasq's business here.
    expect(await server.must<unknown[]>('GET', '/leases')).toHaveLength(0);
    const offers = await server.must<{ kind: string; detail: { mode: string } }[]>('GET', `/events?kind=dhcp.offer&mac=${mac}`);
    expect(offers.some((e) => e.detail.mode === 'proxy')).toBe(true);
  });

  it('a blacklisted PXE client gets nothing from Bootwright (dnsmasq still answers)', async () => {
    const mac = /link\/ether ([0-9a-f:]{17})/.exec(await pxe.ip('link', 'show', 'eth0'))![1]!;
    const address = /inet (\S+)\//.exec(await pxe.ip('-4', 'addr', 'show', 'eth0'))![1]!;
    await server.must('POST', '/access/blacklist', { mac });
    const run = await pxe.run(process.execPath, ['--import', 'tsx', PXE_CLIENT, JSON.stringify({ address, mac, arch: 7, bootServer: '192.168.88.2' })], { timeoutMs: 60_000 });
    const replies = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Reply & { done?: boolean }).filter((r) => !r.done);
    expect(replies.some((r) => r.server_id === '192.168.88.1')).toBe(true);
    expect(replies.some((r) => r.server_id === '192.168.88.2')).toBe(false);
    expect((await server.must<unknown[]>('GET', `/events?kind=dhcp.denied&mac=${mac}`)).length).toBeGreaterThan(0);
  });
});
