import { describe, expect, it } from 'vitest';
import { buildNics } from '../../../src-main/network/nic-reader.js';
import { isServed, resolveServerAddresses, ServerAddressTable } from '../../../src-main/network/server-addresses.js';
import { nic, OS_INTERFACES, SYS_LINKS } from './fixtures.js';

const NICS = buildNics(OS_INTERFACES, SYS_LINKS);

describe('isServed', () => {
  it('auto serves interfaces that are up and not loopback', () => {
    const served = NICS.filter((n) => isServed(n, 'auto')).map((n) => n.name);
    expect(served).toEqual(['eth0', 'eth0:1', 'eth1', 'wg0']);
  });

  it('a list serves exactly the named interfaces, loopback and down ones included', () => {
    expect(NICS.filter((n) => isServed(n, ['lo', 'eth2', 'missing0'])).map((n) => n.name)).toEqual(['eth2', 'lo']);
  });
});

describe('resolveServerAddresses', () => {
  it('lists one detected address per interface and subnet, without IPv6 link-local', () => {
    expect(resolveServerAddresses(NICS, 'auto', [])).toEqual([
      { interface: 'eth0', subnet: '192.168.10.0/24', address: '192.168.10.2', source: 'detected', served: true },
      { interface: 'eth0', subnet: 'fd00:10::/64', address: 'fd00:10::2', source: 'detected', served: true },
      { interface: 'eth0:1', subnet: '10.20.0.0/16', address: '10.20.0.1', source: 'detected', served: true },
      { interface: 'eth2', subnet: '172.16.5.0/24', address: '172.16.5.9', source: 'detected', served: false },
      { interface: 'lo', subnet: '127.0.0.0/8', address: '127.0.0.1', source: 'detected', served: false },
      { interface: 'lo', subnet: '::1/128', address: '::1', source: 'detected', served: false },
    ]);
  });

  it('takes the first address when an interface has two on one subnet', () => {
    const nics = [nic('eth0', [['192.168.1.10', 24, '192.168.1.0/24'], ['192.168.1.11', 24, '192.168.1.0/24']])];
    expect(resolveServerAddresses(nics, 'auto', []).map((r) => r.address)).toEqual(['192.168.1.10']);
  });

  it('replaces the detected address with an override and lists overrides of absent subnets', () => {
    const resolved = resolveServerAddresses(NICS, ['eth0'], [
      { subnet: '192.168.10.0/24', address: '192.168.10.250' },
      { subnet: '10.99.0.0/24', address: '10.99.0.1' },
    ]);
    expect(resolved.filter((r) => r.source === 'override')).toEqual([
      { interface: 'eth0', subnet: '192.168.10.0/24', address: '192.168.10.250', source: 'override', served: true },
      { interface: null, subnet: '10.99.0.0/24', address: '10.99.0.1', source: 'override', served: true },
    ]);
    expect(resolved.find((r) => r.interface === 'eth0:1')?.served).toBe(false);
  });
});

describe('ServerAddressTable', () => {
  it('picks our address on the client subnet', () => {
    const table = new ServerAddressTable(resolveServerAddresses(NICS, 'auto', []));
    expect(table.serverAddressFor('192.168.10.77')).toBe('192.168.10.2');
    expect(table.serverAddressFor('10.20.3.4')).toBe('10.20.0.1');
    expect(table.serverAddressFor('fd00:10::99')).toBe('fd00:10::2');
  });

  it('unmaps IPv4-mapped client addresses from dual-stack sockets', () => {
    const table = new ServerAddressTable(resolveServerAddresses(NICS, 'auto', []));
    expect(table.serverAddressFor('::ffff:192.168.10.77')).toBe('192.168.10.2');
  });

  it('answers null for clients on no served subnet', () => {
    const table = new ServerAddressTable(resolveServerAddresses(NICS, 'auto', []));
    expect(table.serverAddressFor('172.16.5.20')).toBeNull(); // eth2 is down, so not served
    expect(table.serverAddressFor('8.8.8.8')).toBeNull();
    expect(table.serverAddressFor('not-an-ip')).toBeNull();
  });

  it('prefers an override, then the longest prefix', () => {
    const nics = [
      nic('eth0', [['10.0.0.1', 8, '10.0.0.0/8']]),
      nic('eth1', [['10.1.0.1', 16, '10.1.0.0/16']]),
    ];
    const plain = new ServerAddressTable(resolveServerAddresses(nics, 'auto', []));
    expect(plain.serverAddressFor('10.1.2.3')).toBe('10.1.0.1');
    expect(plain.serverAddressFor('10.2.2.3')).toBe('10.0.0.1');

    const overridden = new ServerAddressTable(resolveServerAddresses(nics, 'auto', [{ subnet: '10.0.0.0/8', address: '10.0.0.5' }]));
    expect(overridden.serverAddressFor('10.1.2.3')).toBe('10.0.0.5');
  });
});
