import { describe, expect, it } from 'vitest';
import { ClientSubnets, clientSubnetProblems, parseClientSubnet } from '../../../src-main/nfs/client-subnets.js';

describe('parseClientSubnet', () => {
  it('reads IPv4 and IPv6 CIDRs, and a bare address as one host', () => {
    expect(parseClientSubnet('192.168.50.0/24')).toMatchObject({ family: 'ipv4', network: '192.168.50.0', prefix: 24 });
    expect(parseClientSubnet(' fd00:0:0:0::/64 ')).toMatchObject({ family: 'ipv6', network: 'fd00::', prefix: 64, cidr: 'fd00::/64' });
    expect(parseClientSubnet('10.1.2.3')).toMatchObject({ cidr: '10.1.2.3/32' });
    expect(parseClientSubnet('fe80::1')).toMatchObject({ cidr: 'fe80::1/128' });
    expect(parseClientSubnet('0.0.0.0/0')).toMatchObject({ prefix: 0 });
  });

  it('refuses what is not a subnet, with the reason', () => {
    expect(() => parseClientSubnet('192.168.50.1/24')).toThrow(/host bits set; the subnet is 192.168.50.0\/24/);
    expect(() => parseClientSubnet('192.168.50.0/33')).toThrow(/prefix length/);
    expect(() => parseClientSubnet('lan')).toThrow(/neither a subnet/);
    expect(() => parseClientSubnet('127.1')).toThrow(/neither a subnet/);
    expect(() => parseClientSubnet('')).toThrow();
  });

  it('names the index of each bad entry', () => {
    expect(clientSubnetProblems(['10.0.0.0/8', 'nope', 'fd00::/64', '1.2.3.4/40']).map((problem) => problem.index)).toEqual([1, 3]);
  });
});

describe('ClientSubnets.allows', () => {
  const subnets = new ClientSubnets(['192.168.50.0/24', 'fd00:1::/64', '10.9.9.9']);

  it('matches IPv4 and IPv6 clients inside, and nothing outside', () => {
    expect(subnets.allows('192.168.50.7')).toBe(true);
    expect(subnets.allows('192.168.51.7')).toBe(false);
    expect(subnets.allows('10.9.9.9')).toBe(true);
    expect(subnets.allows('10.9.9.8')).toBe(false);
    expect(subnets.allows('fd00:1::abcd')).toBe(true);
    expect(subnets.allows('fd00:2::abcd')).toBe(false);
  });

  it('judges an IPv4-mapped IPv6 peer as the IPv4 address it stands for', () => {
    expect(subnets.allows('::ffff:192.168.50.7')).toBe(true);
    expect(subnets.allows('::ffff:192.168.51.7')).toBe(false);
    expect(new ClientSubnets(['fd00::/8']).allows('::ffff:192.168.50.7')).toBe(false);
  });

  it('ignores a zone index, and refuses text that is no address', () => {
    expect(new ClientSubnets(['fe80::/64']).allows('fe80::1%eth0')).toBe(true);
    expect(subnets.allows('garbage')).toBe(false);
    expect(subnets.allows('')).toBe(false);
  });

  it('gives the same answers asked again and past the kept addresses (each answer is kept by address)', () => {
    const fresh = new ClientSubnets(['192.168.50.0/24']);
    const addresses = Array.from({ length: 5000 }, (_, i) => `192.168.${50 + (i % 2)}.${i % 250}`);
    const first = addresses.map((address) => fresh.allows(address));
    expect(first.filter(Boolean)).toHaveLength(2500);
    expect(addresses.map((address) => fresh.allows(address))).toEqual(first);
    expect(fresh.allows('192.168.51.7')).toBe(false);
    expect(fresh.allows('192.168.50.7')).toBe(true);
  });

  it('allows nobody when empty; 0.0.0.0/0 allows every IPv4 client but no IPv6 one', () => {
    expect(new ClientSubnets([]).allows('192.168.50.7')).toBe(false);
    expect(new ClientSubnets([]).empty).toBe(true);
    const all = new ClientSubnets(['0.0.0.0/0']);
    expect(all.allows('8.8.8.8')).toBe(true);
    expect(all.allows('::ffff:8.8.8.8')).toBe(true);
    expect(all.allows('2001:db8::1')).toBe(false);
  });
});
