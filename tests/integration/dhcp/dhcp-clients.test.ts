import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, waitForOutput, type Netns } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';
import { NetnsServer, subnet } from '../../helpers/netns-server.js';

/*
 * Real DHCP clients against the headless server, all inside namespaces this
 * test creates: udhcpc (busybox) and dhclient (ISC) obtain, renew and release;
 * a reservation; a DECLINE after udhcpc's ARP check finds the address taken;
 * the ping check; whitelist mode and the unauthorized list.
 *
 *   root ──(API veth)── srv [Bootwright, br0 192.168.77.1/24] ══ bridge ══ cli, cli2, squatter
 */

const skip = skipNetnsTest('DHCP client tests', ['udhcpc', 'dhclient', 'ping']);

interface LeaseRow {
  mac: string;
  ip: string;
  state: string;
  hostname: string | null;
  expires_at: string;
}

describe.skipIf(skip)('DHCP server with udhcpc and dhclient in network namespaces', () => {
  let lab: NetLab;
  let server: NetnsServer;
  let srv: Netns;
  let cli: Netns;
  let cli2: Netns;
  let squatter: Netns;
  let work: { dir: string; remove: () => Promise<void> };
  let udhcpcScript: string;
  let dhclientScript: string;

  const range = (start: number, end: number) => [{ start: `192.168.77.${start}`, end: `192.168.77.${end}` }];
  const configure = (ranges: { start: string; end: string }[], extra: Record<string, unknown> = {}) =>
    server.must('PUT', '/services/dhcp', {
      interfaces: [{ name: 'br0', mode: 'server' }],
      subnets: [subnet('192.168.77.0/24', ranges, { lease_time_seconds: 120, router: '192.168.77.1' })],
      ...extra,
    });
  const mac = async (ns: Netns) => /link\/ether ([0-9a-f:]{17})/.exec(await ns.ip('link', 'show', 'eth0'))![1]!;
  const leaseOf = async (address: string) => (await server.must<LeaseRow[]>('GET', `/leases?q=${address}`))[0];
  const udhcpc = (ns: Netns, extra: string[] = []) =>
    ns.run('udhcpc', ['-i', 'eth0', '-f', '-q', '-n', '-t', '4', '-T', '1', '-s', udhcpcScript, ...extra], { timeoutMs: 30_000 });

  beforeAll(async () => {
    work = await tempDir('bw-dhcp-clients-');
    udhcpcScript = path.join(work.dir, 'udhcpc.sh');
    dhclientScript = path.join(work.dir, 'dhclient.sh');
    // Client hooks that configure the address (renewals are unicast from it) and touch nothing else (no /etc/resolv.conf).
    await writeFile(udhcpcScript, '#!/bin/sh\ncase "$1" in\n  bound|renew) ip addr flush dev "$interface"; ip addr add "$ip/$mask" dev "$interface" ;;\n  deconfig) ip addr flush dev "$interface" ;;\nesac\nexit 0\n');
    await writeFile(dhclientScript, '#!/bin/sh\ncase "$reason" in\n  BOUND|RENEW|REBIND|REBOOT) ip addr flush dev "$interface"; ip addr add "$new_ip_address/$new_subnet_mask" dev "$interface" ;;\n  RELEASE|EXPIRE|FAIL|STOP) ip addr flush dev "$interface" ;;\nesac\nexit 0\n');
    await chmod(udhcpcScript, 0o755);
    await chmod(dhclientScript, 0o755);

    lab = await NetLab.create();
    srv = await lab.namespace('srv');
    cli = await lab.namespace('cli');
    cli2 = await lab.namespace('cli2');
    squatter = await lab.namespace('sq');
    const api = await lab.rootLink(srv, 'api0');
    await lab.bridge(srv, 'br0');
    await srv.addAddress('br0', '192.168.77.1/24');
    await lab.linkToBridge(cli, 'eth0', null, srv, 'br0');
    await lab.linkToBridge(cli2, 'eth0', null, srv, 'br0');
    await lab.linkToBridge(squatter, 'eth0', null, srv, 'br0');
    server = new NetnsServer(srv, path.join(work.dir, 'data'), api.address);
    await server.start();
    await configure(range(100, 150));
    const services = await server.must<{ name: string; state: string; last_error: string | null }[]>('GET', '/services');
    expect(services.find((s) => s.name === 'dhcp')).toMatchObject({ state: 'running' });
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    await work?.remove();
  });

  it('udhcpc obtains a lease, renews it (unicast) and releases it', async () => {
    const hwaddr = await mac(cli);
    const child = cli.spawn('udhcpc', ['-i', 'eth0', '-f', '-t', '4', '-T', '1', '-s', udhcpcScript, '-x', 'hostname:alpha']);
    const bound = await waitForOutput(child, /lease of (\S+) obtained/);
    const address = /lease of (\S+) obtained/.exec(bound)![1]!;
    expect(address).toMatch(/^192\.168\.77\.1[0-4]\d$/);
    const first = await leaseOf(hwaddr);
    expect(first).toMatchObject({ mac: hwaddr, ip: address, state: 'active', hostname: 'alpha' });

    // SIGUSR1: renew now (RENEWING: unicast REQUEST with ciaddr).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    child.kill('SIGUSR1');
    await waitForOutput(child, /sending renew[\s\S]*lease of \S+ obtained/);
    const renewed = await leaseOf(hwaddr);
    expect(renewed!.ip).toBe(address);
    expect(Date.parse(renewed!.expires_at)).toBeGreaterThan(Date.parse(first!.expires_at));

    // SIGUSR2: release.
    child.kill('SIGUSR2');
    await waitForOutput(child, /releas/);
    await expect.poll(async () => (await leaseOf(hwaddr))?.state, { timeout: 10_000 }).toBe('expired');
    child.kill('SIGTERM');

    // The same client gets the same address back.
    const again = await udhcpc(cli);
    expect(again.stderr).toContain(`lease of ${address} obtained`);
    const events = await server.must<{ kind: string }[]>('GET', `/events?kind=dhcp.&mac=${hwaddr}&size=500`);
    expect(new Set(events.map((e) => e.kind))).toEqual(new Set(['dhcp.discover', 'dhcp.offer', 'dhcp.request', 'dhcp.ack', 'dhcp.lease.granted', 'dhcp.release']));
  });

  it('dhclient obtains a lease, keeps it across a reboot (INIT-REBOOT) and releases it', async () => {
    const hwaddr = await mac(cli2);
    const files = ['-lf', path.join(work.dir, 'dhclient.leases'), '-pf', path.join(work.dir, 'dhclient.pid'), '-sf', dhclientScript];
    const obtained = await cli2.run('dhclient', ['-1', '-v', ...files, 'eth0'], { timeoutMs: 30_000 });
    expect(obtained.code, obtained.stderr).toBe(0);
    const address = /bound to (\S+)/.exec(obtained.stderr)![1]!;
    expect((await leaseOf(hwaddr))).toMatchObject({ ip: address, state: 'active' });

    // A second run finds the lease file: DHCPREQUEST without server id (INIT-REBOOT).
    const rebooted = await cli2.run('dhclient', ['-1', '-v', ...files, 'eth0'], { timeoutMs: 30_000 });
    expect(rebooted.code, rebooted.stderr).toBe(0);
    expect(rebooted.stderr).toContain(`DHCPREQUEST for ${address}`);
    expect(rebooted.stderr).toContain(`bound to ${address}`);
    expect(rebooted.stderr).not.toContain('DHCPDISCOVER');

    const released = await cli2.run('dhclient', ['-r', '-v', ...files, 'eth0'], { timeoutMs: 30_000 });
    expect(released.stderr).toContain('DHCPRELEASE');
    await expect.poll(async () => (await leaseOf(hwaddr))?.state, { timeout: 10_000 }).toBe('expired');
  });

  it('a reservation gives the client its fixed address', async () => {
    const hwaddr = await mac(cli);
    const reservation = await server.must<{ id: number }>('POST', '/dhcp/reservations', { mac: hwaddr, ip: '192.168.77.60', hostname: 'fixed' });
    const result = await udhcpc(cli);
    expect(result.stderr).toContain('lease of 192.168.77.60 obtained');
    expect(await leaseOf(hwaddr)).toMatchObject({ ip: '192.168.77.60', state: 'active' });
    await server.must('DELETE', `/dhcp/reservations/${reservation.id}`);
  });

  it('quarantines an address udhcpc declines after its ARP check and gives the next one', async () => {
    await configure(range(200, 210));
    // Another machine already uses the first pool address.
    await squatter.addAddress('eth0', '192.168.77.200/24');
    const hwaddr = await mac(cli2);
    const result = await udhcpc(cli2, ['-a']);
    expect(result.stderr).toContain('192.168.77.200');
    expect(result.stderr).toMatch(/lease of 192\.168\.77\.20[1-9] obtained/);
    const events = await server.must<{ kind: string; ip: string }[]>('GET', `/events?kind=dhcp.decline&mac=${hwaddr}`);
    expect(events).toEqual([expect.objectContaining({ kind: 'dhcp.decline', ip: '192.168.77.200' })]);
    const stats = await server.must<{ ranges: { quarantined: number }[] }>('GET', '/leases/stats');
    expect(stats.ranges[0]!.quarantined).toBe(1);
    await squatter.ip('addr', 'flush', 'dev', 'eth0');
  });

  it('with the ping check on, skips an address that answers ping', async () => {
    await configure(range(220, 230), { ping_check: true });
    await squatter.addAddress('eth0', '192.168.77.220/24');
    const result = await udhcpc(cli, ['-t', '6', '-T', '2']);
    expect(result.stderr).toMatch(/lease of 192\.168\.77\.22[1-9] obtained/);
    const events = await server.must<{ detail: { ping_conflict?: boolean }; ip: string }[]>('GET', '/events?kind=dhcp.offer&level=warn');
    expect(events.some((e) => e.ip === '192.168.77.220' && e.detail.ping_conflict)).toBe(true);
    await squatter.ip('addr', 'flush', 'dev', 'eth0');
    await configure(range(100, 150), { ping_check: false });
  });

  it('in whitelist mode an unknown client gets nothing and is listed as unauthorized until whitelisted', async () => {
    await configure(range(100, 150), { access_mode: 'whitelist' });
    const hwaddr = await mac(cli2);
    const refused = await udhcpc(cli2, ['-t', '2', '-V', 'PXEClient:Arch:00007:UNDI:003016', '-x', 'hostname:stranger']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).not.toContain('obtained');
    const devices = await server.must<{ id: number; mac: string; count: number; vendor_class: string; hostname: string }[]>('GET', '/access/unauthorized');
    const device = devices.find((d) => d.mac === hwaddr);
    expect(device).toMatchObject({ vendor_class: 'PXEClient:Arch:00007:UNDI:003016', hostname: 'stranger' });
    expect(device!.count).toBeGreaterThanOrEqual(2);
    expect((await server.must<unknown[]>('GET', `/events?kind=dhcp.denied&mac=${hwaddr}`)).length).toBeGreaterThan(0);

    await server.must('POST', '/access/unauthorized/add-to-whitelist', { id: device!.id });
    expect((await server.must<{ mac: string }[]>('GET', '/access/unauthorized')).some((d) => d.mac === hwaddr)).toBe(false);
    const allowed = await udhcpc(cli2);
    expect(allowed.stderr).toContain('obtained');
    await configure(range(100, 150), { access_mode: 'open' });
  });
});
