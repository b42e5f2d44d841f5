import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';
import { NetnsServer, subnet } from '../../helpers/netns-server.js';

/*
 * Serving the moment a link comes up (docs/network.md, "Link changes"): a
 * laptop cabled straight to the machine to boot gets its link only when that
 * machine powers on, and the machine's first DHCPDISCOVER follows at once.
 * The server starts with its interfaces' links down (the peer end of each
 * veth is down: no carrier here); the test brings a link up and a client
 * sends its DISCOVERs right away.
 *
 *   cli  eth0 ── veth ── eth0 10.42.0.1/24 (address from the start)  ┐
 *   cli2 eth0 ── veth ── eth1 (address added with the link)          srv [Bootwright] ── api0 ── root
 */

const skip = skipNetnsTest('link-up test', ['udhcpc', 'dig', 'atftp']);

interface ServiceRow {
  name: string;
  state: string;
  notice: string | null;
  listen: string[];
}

interface NicRow {
  name: string;
  link: 'up' | 'down' | 'unknown';
  addresses: { address: string }[];
}

describe.skipIf(skip)('serving on link-up', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let srv: Netns;
  let cli: Netns;
  let cli2: Netns;
  let work: { dir: string; remove: () => Promise<void> };

  /** udhcpc sending at most `discovers` DISCOVERs, one second apart; its log lists each one. */
  const udhcpc = (ns: Netns, discovers: number) =>
    ns.run('udhcpc', ['-i', 'eth0', '-f', '-q', '-n', '-t', String(discovers), '-T', '1', '-A', '1', '-s', '/bin/true'], { timeoutMs: 30_000 });
  const service = async (name: string) => {
    const row = (await server.must<ServiceRow[]>('GET', '/services')).find((candidate) => candidate.name === name);
    if (!row) throw new Error(`no service ${name}`);
    return row;
  };
  const nic = async (name: string) => (await server.must<NicRow[]>('GET', '/network/interfaces?size=500')).find((row) => row.name === name);

  beforeAll(async () => {
    work = await tempDir('bw-linkup-');
    lab = await NetLab.create();
    srv = await lab.namespace('srv');
    cli = await lab.namespace('cli');
    cli2 = await lab.namespace('cli2');
    await lab.link(srv, 'eth0', '10.42.0.1/24', cli, 'eth0', null);
    await lab.link(srv, 'eth1', null, cli2, 'eth0', null);
    // The cables are "unplugged": with its peer down, a veth end has no carrier.
    await cli.ip('link', 'set', 'eth0', 'down');
    await cli2.ip('link', 'set', 'eth0', 'down');
    const api = await lab.rootLink(srv, 'api0');
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address);
    await server.start();
    await server.must('PUT', '/services/dhcp', {
      interfaces: [{ name: 'eth0', mode: 'server' }, { name: 'eth1', mode: 'server' }],
      subnets: [subnet('10.42.0.0/24', [{ start: '10.42.0.100', end: '10.42.0.199' }]), subnet('10.43.0.0/24', [{ start: '10.43.0.100', end: '10.43.0.199' }])],
    });
    // DNS and TFTP start with the app (worker threads: a few seconds on a busy machine).
    for (let i = 0; i < 600; i += 1) {
      const rows = await server.must<ServiceRow[]>('GET', '/services');
      if (['dns', 'tftp'].every((name) => rows.find((row) => row.name === name)?.state === 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('while the links are down: DHCP runs and says which interface has no link; the interfaces show link down and their address', async () => {
    const dhcp = await service('dhcp');
    expect(dhcp.state).toBe('running');
    expect(dhcp.notice).toBe('eth0: no link (cable unplugged?); eth1: no link (cable unplugged?)');
    // eth0's address is bound already, so nothing has to happen when its link comes up.
    expect(dhcp.listen).toContain('udp 10.42.0.1:67 (eth0, server)');
    expect(await nic('eth0')).toMatchObject({ link: 'down', addresses: expect.arrayContaining([expect.objectContaining({ address: '10.42.0.1' })]) });
    expect((await nic('eth1'))?.link).toBe('down');
    const status = await server.must<{ interface_watch: { mode: string } }>('GET', '/status');
    expect(status.interface_watch.mode).toBe('events');
  });

  it('answers the first DISCOVER sent right after the link comes up', async () => {
    await cli.ip('link', 'set', 'eth0', 'up');
    const result = await udhcpc(cli, 1);
    expect(result.stderr.match(/(sending|broadcasting) discover/gi), `${result.stderr}\nserver:\n${server.output.slice(-3000)}`).toHaveLength(1);
    expect(result.stderr).toMatch(/lease of 10\.42\.0\.1\d\d obtained from 10\.42\.0\.1,/);
    expect(await nic('eth0')).toMatchObject({ link: 'up' });
    expect((await service('dhcp')).notice).toBe('eth1: no link (cable unplugged?)');
  });

  it('TFTP and DNS answer on the interface whose link came up (served by "auto" once it has a link)', async () => {
    await cli.ip('addr', 'add', '10.42.0.150/24', 'dev', 'eth0');
    // The local domain's apex is answered by the server itself (docs/dns.md).
    const dig = await cli.run('dig', ['+short', '+tries=1', '+timeout=3', '@10.42.0.1', 'bootwright.local', 'SOA'], { timeoutMs: 10_000 });
    expect(dig.stdout, `${dig.stderr}\nserver:\n${server.output.slice(-3000)}`).toMatch(/bootwright\.local\. hostmaster\.bootwright\.local\./);
    const tftp = await cli.run('atftp', ['--get', '--remote-file', 'no-such-file', '--local-file', '/dev/null', '10.42.0.1'], { timeoutMs: 15_000 });
    // The server answers with a TFTP error (file not found): it listens there.
    expect(tftp.stderr).toMatch(/not found|File not found|error/i);
    expect(tftp.stderr).not.toMatch(/timeout|timed out/i);
  });

  it('an interface that gets its address with its link is served within one retry (events, not the 5 s poll)', async () => {
    await cli2.ip('link', 'set', 'eth0', 'up');
    await srv.ip('addr', 'add', '10.43.0.1/24', 'dev', 'eth1');
    const result = await udhcpc(cli2, 2);
    expect(result.stderr, `server:\n${server.output.slice(-3000)}`).toMatch(/lease of 10\.43\.0\.1\d\d obtained from 10\.43\.0\.1,/);
    expect((await service('dhcp')).notice).toBeNull();
  });

  it('says "no link" again when the cable is pulled', async () => {
    await cli.ip('link', 'set', 'eth0', 'down');
    for (let i = 0; i < 50 && (await service('dhcp')).notice === null; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await service('dhcp')).notice).toBe('eth0: no link (cable unplugged?)');
    expect((await nic('eth0'))?.link).toBe('down');
  });
});
