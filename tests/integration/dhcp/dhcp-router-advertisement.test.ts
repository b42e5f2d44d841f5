import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';
import { NetnsServer, subnet } from '../../helpers/netns-server.js';
import { tempDir } from '../../helpers/test-core.js';

/*
 * IPv6 Router Advertisements on a served interface (docs/dhcp.md, "IPv6
 * Router Advertisements"), seen by a real NDP client: rdisc6 (Debian ndisc6)
 * solicits on the peer of a veth and prints the RA that answers.
 *
 *   root ──(API veth)── srv [Bootwright, eth0 10.78.0.2] ── veth ── cli [eth0, rdisc6]
 *
 * Server mode: rdisc6's Router Solicitation is answered with router
 * lifetime 0, M=0, O=0 and no prefix. Proxy mode (ipv6_ra "auto"): no RA.
 */

const skip = skipNetnsTest('IPv6 Router Advertisement test', ['rdisc6']);

interface ServiceView {
  name: string;
  state: string;
  notice: string | null;
}

/** rdisc6's answer, or null when no router answered (exit code 2, "No response."). */
async function solicit(cli: Netns): Promise<string | null> {
  // -1: stop at the first RA; -r/-w: the peer's link-local address may still be in duplicate address detection at first.
  const result = await cli.run('rdisc6', ['-1', '-r', '4', '-w', '1000', 'eth0'], { timeoutMs: 20_000 });
  return result.code === 0 ? result.stdout : null;
}

describe.skipIf(skip)('IPv6 Router Advertisements on a served interface', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let cli: Netns;
  let work: { dir: string; remove: () => Promise<void> };

  const dhcpService = async () => (await server.must<ServiceView[]>('GET', '/services')).find((s) => s.name === 'dhcp');
  const serveIn = async (mode: 'server' | 'proxy') => {
    await server.must('PUT', '/services/dhcp', {
      interfaces: [{ name: 'eth0', mode }],
      subnets: [subnet('10.78.0.0/24', [{ start: '10.78.0.100', end: '10.78.0.150' }])],
      rogue_guard: false,
    });
    expect((await dhcpService())?.state).toBe('running');
  };

  beforeAll(async () => {
    work = await tempDir('bw-dhcp-ra-');
    lab = await NetLab.create();
    const srv = await lab.namespace('srv');
    cli = await lab.namespace('cli');
    await lab.link(srv, 'eth0', '10.78.0.2/24', cli, 'eth0', null);
    const api = await lab.rootLink(srv, 'api0');
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address);
    await server.start();
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('server mode: a Router Solicitation is answered with router lifetime 0, no DHCPv6 flags, no prefix', async () => {
    expect((await server.must<{ ipv6_ra: string }>('GET', '/services/dhcp')).ipv6_ra).toBe('auto');
    await serveIn('server');
    expect((await dhcpService())?.notice ?? '').not.toContain('Router Advertisements');
    const answer = await solicit(cli);
    expect(answer, 'no Router Advertisement answered rdisc6').not.toBeNull();
    expect(answer).toMatch(/Router lifetime\s*:\s*0 \(0x00000000\) seconds/);
    expect(answer).toMatch(/Stateful address conf\.\s*:\s*No/);
    expect(answer).toMatch(/Stateful other conf\.\s*:\s*No/);
    expect(answer).not.toMatch(/Prefix\s*:/);
    expect(answer).toMatch(/from fe80::/);
  }, 60_000);

  it('proxy mode: no Router Advertisement (another router may own the segment)', async () => {
    await serveIn('proxy');
    expect(await solicit(cli)).toBeNull();
  }, 60_000);

  it('ipv6_ra "off": none in server mode either', async () => {
    await server.must('PUT', '/services/dhcp', { ipv6_ra: 'off' });
    await serveIn('server');
    expect(await solicit(cli)).toBeNull();
    await server.must('PUT', '/services/dhcp', { ipv6_ra: 'auto' });
    expect(await solicit(cli)).not.toBeNull();
  }, 60_000);
});
