import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';
import { NetnsServer } from '../../helpers/netns-server.js';

/*
 * A subnet given only `subnet` and `ranges`, with a real client (udhcpc) in
 * namespaces this test creates: the ACK carries option 3 = our address on
 * that subnet and option 6 = our address while the DNS service runs (what
 * the Debian installer needs to go on unattended); `router: "none"` and
 * `dns_servers: []` send neither. (The OFFER's options are the unit tests'
 * in tests/unit/dhcp/server/router-default.test.ts.)
 *
 *   root ──(API veth)── srv [Bootwright, br0 192.168.78.1/24] ══ bridge ══ cli
 */

const skip = skipNetnsTest('DHCP defaults test', ['udhcpc']);

describe.skipIf(skip)('DHCP defaults with udhcpc in a network namespace', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let cli: Netns;
  let work: { dir: string; remove: () => Promise<void> };
  let script: string;

  /** One udhcpc run; what its hook saw of options 3 and 6. */
  const obtain = async (): Promise<{ router: string; dns: string }> => {
    const result = await cli.run('udhcpc', ['-i', 'eth0', '-f', '-q', '-n', '-t', '4', '-T', '1', '-s', script], { timeoutMs: 30_000 });
    expect(result.stderr).toMatch(/lease of 192\.168\.78\.\d+ obtained/);
    const seen = /BW router=\[([^\]]*)\] dns=\[([^\]]*)\]/.exec(result.stdout);
    expect(seen, result.stdout).not.toBeNull();
    return { router: seen![1]!.trim(), dns: seen![2]!.trim() };
  };

  beforeAll(async () => {
    work = await tempDir('bw-dhcp-defaults-');
    script = path.join(work.dir, 'udhcpc.sh');
    // udhcpc hands the ACK's options to its hook as $router and $dns; print them and configure nothing.
    await writeFile(script, '#!/bin/sh\ncase "$1" in\n  bound|renew) echo "BW router=[$router] dns=[$dns]" ;;\nesac\nexit 0\n');
    await chmod(script, 0o755);
    lab = await NetLab.create();
    const srv = await lab.namespace('srv');
    cli = await lab.namespace('cli');
    const api = await lab.rootLink(srv, 'api0');
    await lab.bridge(srv, 'br0');
    await srv.addAddress('br0', '192.168.78.1/24');
    await lab.linkToBridge(cli, 'eth0', null, srv, 'br0');
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address);
    await server.start();
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('a subnet with only subnet and ranges is accepted and its ACK names us as router (and DNS server while DNS runs)', async () => {
    const stored = await server.must<{ subnets: Record<string, unknown>[] }>('PUT', '/services/dhcp', {
      interfaces: [{ name: 'br0', mode: 'server' }],
      subnets: [{ subnet: '192.168.78.0/24', ranges: [{ start: '192.168.78.100', end: '192.168.78.150' }] }],
    });
    expect(stored.subnets[0]).toMatchObject({ router: null, dns_servers: null, lease_time_seconds: null, ntp_servers: [], options: [] });
    // DNS starts with the server (its default auto-start); DHCP starts with its first interface.
    const state = async (name: string) => (await server.must<{ name: string; state: string }[]>('GET', '/services')).find((s) => s.name === name)?.state;
    await expect.poll(() => state('dns'), { timeout: 15_000 }).toBe('running');
    await expect.poll(() => state('dhcp'), { timeout: 15_000 }).toBe('running');
    expect(await obtain()).toEqual({ router: '192.168.78.1', dns: '192.168.78.1' });
  });

  it('router "none" and dns_servers [] send no option 3 and no option 6', async () => {
    await server.must('PUT', '/services/dhcp', {
      subnets: [{ subnet: '192.168.78.0/24', ranges: [{ start: '192.168.78.100', end: '192.168.78.150' }], router: 'none', dns_servers: [] }],
    });
    expect(await obtain()).toEqual({ router: '', dns: '' });
  });
});
