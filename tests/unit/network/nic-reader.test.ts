import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildNics, readNics, readSysLinks } from '../../../src-main/network/nic-reader.js';
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
    await mkdir(path.join(dir, 'tun0'));
    await writeFile(path.join(dir, 'tun0', 'address'), '\n');
    expect(readSysLinks(dir)).toEqual([
      { name: 'eth9', mtu: 1500, operstate: 'up', flags: 0x1003, address: '52:54:00:aa:bb:09' },
      { name: 'tun0', mtu: null, operstate: null, flags: null, address: null },
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
