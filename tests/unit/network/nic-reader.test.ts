import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseIpAddressJson } from '../../../src-main/network/ip-addresses.js';
import { buildNics, readNics, readSysLinks, type SysLink } from '../../../src-main/network/nic-reader.js';
import { tempDir } from '../../helpers/test-core.js';
import { OS_INTERFACES, SYS_LINKS } from './fixtures.js';

describe('buildNics', () => {
  const nics = buildNics(OS_INTERFACES, SYS_LINKS);
  const byName = (name: string) => {
    const found = nics.find((n) => n.name === name);
    if (!found) throw new Error(`no ${name}`);
    return found;
  };

  it('lists every link and address label, sorted by name', () => {
    expect(nics.map((n) => n.name)).toEqual(['eth0', 'eth0:1', 'eth1', 'eth2', 'lo', 'wg0', 'wlan0']);
  });

  it('gives addresses with family, prefix, interface CIDR and subnet', () => {
    expect(byName('eth0')).toEqual({
      name: 'eth0',
      mac: '52:54:00:aa:bb:01',
      mtu: 9000,
      up: true,
      link: 'up',
      internal: false,
      addresses: [
        { address: '192.168.10.2', family: 'ipv4', prefix: 24, cidr: '192.168.10.2/24', subnet: '192.168.10.0/24' },
        { address: 'fd00:10::2', family: 'ipv6', prefix: 64, cidr: 'fd00:10::2/64', subnet: 'fd00:10::/64' },
        { address: 'fe80::5054:ff:feaa:bb01', family: 'ipv6', prefix: 64, cidr: 'fe80::5054:ff:feaa:bb01/64', subnet: 'fe80::/64' },
      ],
    });
  });

  it('includes links that are up without addresses, with MTU and state from /sys', () => {
    expect(byName('eth1')).toMatchObject({ addresses: [], mtu: 1500, up: true, mac: '52:54:00:aa:bb:02' });
  });

  it('takes the link state from flags and operstate', () => {
    expect(byName('eth2').up).toBe(false); // IFF_UP clear although it has an address
    expect(byName('wlan0').up).toBe(false); // dormant
    expect(byName('wg0')).toMatchObject({ up: true, mac: null, internal: false }); // tun: operstate unknown, no MAC
    expect(byName('lo')).toMatchObject({ up: true, internal: true });
  });

  it("gives the carrier as link: /sys carrier first, then flags and operstate; the OS alone says 'up' for what it lists", () => {
    expect(byName('eth0').link).toBe('up');
    expect(byName('wlan0').link).toBe('down'); // carrier 0
    expect(byName('eth2').link).toBe('down'); // administratively down: the kernel refuses to read carrier
    expect(byName('wg0').link).toBe('unknown'); // no carrier file, operstate unknown
    expect(byName('lo').link).toBe('up');
    expect(buildNics(OS_INTERFACES, [{ name: 'br0', mtu: 1500, operstate: 'lowerlayerdown', flags: 0x1003, address: null, carrier: null }]).find((n) => n.name === 'br0')?.link).toBe('down');
    expect(buildNics(OS_INTERFACES, null).every((n) => n.link === 'up')).toBe(true);
  });

  it("takes the addresses of an interface without a link from iproute2's table (the OS leaves such interfaces out)", () => {
    const br0: SysLink = { name: 'br0', mtu: 1500, operstate: 'down', flags: 0x1003, address: '52:54:00:aa:bb:0b', carrier: false };
    const table = parseIpAddressJson(
      JSON.stringify([
        { ifindex: 7, ifname: 'br0', addr_info: [{ family: 'inet', local: '10.42.0.1', prefixlen: 24, label: 'br0' }, { family: 'inet6', local: 'fd42::1', prefixlen: 64 }] },
        // The OS's own list wins for interfaces it lists.
        { ifindex: 2, ifname: 'eth0', addr_info: [{ family: 'inet', local: '192.0.2.99', prefixlen: 24, label: 'eth0' }] },
      ]),
    );
    const merged = buildNics(OS_INTERFACES, [...SYS_LINKS, br0], table);
    expect(merged.find((n) => n.name === 'br0')).toMatchObject({
      up: false,
      link: 'down',
      addresses: [
        { address: '10.42.0.1', family: 'ipv4', prefix: 24, cidr: '10.42.0.1/24', subnet: '10.42.0.0/24' },
        { address: 'fd42::1', family: 'ipv6', prefix: 64, cidr: 'fd42::1/64', subnet: 'fd42::/64' },
      ],
    });
    expect(merged.find((n) => n.name === 'eth0')?.addresses.map((a) => a.address)).not.toContain('192.0.2.99');
    expect(buildNics(OS_INTERFACES, [...SYS_LINKS, br0]).find((n) => n.name === 'br0')?.addresses).toEqual([]);
  });

  it('gives address labels the data of their link', () => {
    expect(byName('eth0:1')).toMatchObject({ mtu: 9000, up: true, mac: '52:54:00:aa:bb:01' });
    expect(byName('eth0:1').addresses[0]?.subnet).toBe('10.20.0.0/16');
  });

  it('falls back to os.networkInterfaces() alone without /sys', () => {
    const fallback = buildNics(OS_INTERFACES, null);
    expect(fallback.map((n) => n.name)).toEqual(['eth0', 'eth0:1', 'eth2', 'lo']);
    expect(fallback.every((n) => n.up && n.mtu === null)).toBe(true);
    expect(fallback.find((n) => n.name === 'lo')?.internal).toBe(true);
  });
});

describe('readSysLinks', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await cleanup?.();
    cleanup = null;
  });

  it('reads mtu, operstate, flags and address of every link directory', async () => {
    const { dir, remove } = await tempDir();
    cleanup = remove;
    await mkdir(path.join(dir, 'eth9'));
    await writeFile(path.join(dir, 'eth9', 'mtu'), '1500\n');
    await writeFile(path.join(dir, 'eth9', 'operstate'), 'up\n');
    await writeFile(path.join(dir, 'eth9', 'flags'), '0x1003\n');
    await writeFile(path.join(dir, 'eth9', 'address'), '52:54:00:aa:bb:09\n');
    await writeFile(path.join(dir, 'eth9', 'carrier'), '1\n');
    await mkdir(path.join(dir, 'tun0'));
    await writeFile(path.join(dir, 'tun0', 'address'), '\n');
    expect(readSysLinks(dir)).toEqual([
      { name: 'eth9', mtu: 1500, operstate: 'up', flags: 0x1003, address: '52:54:00:aa:bb:09', carrier: true },
      { name: 'tun0', mtu: null, operstate: null, flags: null, address: null, carrier: null },
    ]);
  });

  it('returns null when the directory is unreadable', () => {
    expect(readSysLinks('/nonexistent/sys/class/net')).toBeNull();
  });
});

describe('readNics', () => {
  it('reports the loopback interface of this machine', () => {
    const lo = readNics().find((n) => n.internal && n.addresses.some((a) => a.address === '127.0.0.1'));
    expect(lo).toBeDefined();
    expect(lo?.addresses.find((a) => a.address === '127.0.0.1')?.subnet).toMatch(/^127\.\d+\.\d+\.\d+\/\d+$/);
  });
});
