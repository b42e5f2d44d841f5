import { describe, expect, it } from 'vitest';
import {
  intToIpv4,
  ipFamily,
  ipv4ToInt,
  isHostAddressIn,
  isHostIn,
  isIpv4,
  isIpv6LinkLocal,
  normalizeIp,
  parseIpv4,
  parseIpv4Subnet,
  parseSubnet,
  prefixFromNetmask,
  prefixMask,
  subnetContains,
  subnetHas,
  subnetOf,
  unmapIpv4,
} from '../../../src-main/network/ip-math.js';

describe('ip-math', () => {
  it('recognises only strictly spelled addresses', () => {
    expect(ipFamily('192.168.1.10')).toBe('ipv4');
    expect(ipFamily('fd00::2')).toBe('ipv6');
    expect(ipFamily('127.1')).toBeNull();
    expect(ipFamily('0x7f.0.0.1')).toBeNull();
    expect(ipFamily('10.0.0.256')).toBeNull();
    expect(ipFamily('host.example')).toBeNull();
  });

  it('normalises IPv6 to the RFC 5952 form', () => {
    expect(normalizeIp('FD00:0:0:0:0:0:0:2')).toBe('fd00::2');
    expect(normalizeIp('10.0.0.1')).toBe('10.0.0.1');
    expect(normalizeIp('nope')).toBeNull();
  });

  it('parses subnets in CIDR notation', () => {
    expect(parseSubnet('192.168.10.0/24')).toEqual({ family: 'ipv4', network: '192.168.10.0', prefix: 24, cidr: '192.168.10.0/24' });
    expect(parseSubnet('FD00:0::/64')).toEqual({ family: 'ipv6', network: 'fd00::', prefix: 64, cidr: 'fd00::/64' });
    expect(parseSubnet('0.0.0.0/0').cidr).toBe('0.0.0.0/0');
  });

  it('rejects malformed subnets with a reason', () => {
    expect(() => parseSubnet('192.168.10.0')).toThrow(/CIDR notation/);
    expect(() => parseSubnet('192.168.10.0/33')).toThrow(/0 to 32/);
    expect(() => parseSubnet('fd00::/129')).toThrow(/0 to 128/);
    expect(() => parseSubnet('192.168.10.0/2x')).toThrow(/prefix length/);
    expect(() => parseSubnet('300.1.1.0/24')).toThrow(/not an IPv4 or IPv6 address/);
    expect(() => parseSubnet('192.168.10.7/24')).toThrow('host bits set; the subnet is 192.168.10.0/24');
  });

  it('computes the subnet of an interface address', () => {
    expect(subnetOf('192.168.1.77', 24).cidr).toBe('192.168.1.0/24');
    expect(subnetOf('fd00::2', 64).cidr).toBe('fd00::/64');
  });

  it('tests membership per family', () => {
    const v4 = parseSubnet('10.1.0.0/16');
    expect(subnetContains(v4, '10.1.200.3')).toBe(true);
    expect(subnetContains(v4, '10.2.0.1')).toBe(false);
    expect(subnetContains(v4, 'fd00::1')).toBe(false);
    expect(subnetContains(v4, 'garbage')).toBe(false);
    expect(subnetContains(parseSubnet('fd00::/64'), 'fd00::abcd')).toBe(true);
  });

  it('excludes the IPv4 network and broadcast addresses as host addresses, except on /31 and /32', () => {
    const net = parseSubnet('192.168.10.0/24');
    expect(isHostAddressIn(net, '192.168.10.1')).toBe(true);
    expect(isHostAddressIn(net, '192.168.10.0')).toBe(false);
    expect(isHostAddressIn(net, '192.168.10.255')).toBe(false);
    expect(isHostAddressIn(net, '192.168.11.1')).toBe(false);
    expect(isHostAddressIn(parseSubnet('10.0.0.0/31'), '10.0.0.0')).toBe(true);
    expect(isHostAddressIn(parseSubnet('10.0.0.5/32'), '10.0.0.5')).toBe(true);
  });

  it('unmaps IPv4-mapped IPv6 client addresses', () => {
    expect(unmapIpv4('::ffff:192.168.1.5')).toBe('192.168.1.5');
    expect(unmapIpv4('fd00::5')).toBe('fd00::5');
    expect(unmapIpv4('192.168.1.5')).toBe('192.168.1.5');
  });

  it('reads netmasks and link-local addresses', () => {
    expect(prefixFromNetmask('255.255.255.0')).toBe(24);
    expect(prefixFromNetmask('ffff:ffff:ffff:ffff::')).toBe(64);
    expect(prefixFromNetmask('255.0.255.0')).toBeNull();
    expect(isIpv6LinkLocal('fe80::1')).toBe(true);
    expect(isIpv6LinkLocal('fd00::1')).toBe(false);
    expect(isIpv6LinkLocal('169.254.1.1')).toBe(false);
  });
});

describe('ip-math: IPv4 as uint32', () => {
  it('parses only strict dotted quads, as unsigned numbers', () => {
    expect(parseIpv4('10.0.0.1')).toBe(0x0a000001);
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIpv4('0.0.0.0')).toBe(0);
    for (const bad of ['01.2.3.4', '256.0.0.1', '1.2.3', '1.2.3.4.5', '127.1', '0x7f.0.0.1', ' 1.2.3.4', 'fd00::1', '']) {
      expect(parseIpv4(bad), bad).toBeNull();
      expect(isIpv4(bad), bad).toBe(false);
    }
    expect(isIpv4('192.168.1.1')).toBe(true);
  });

  it('agrees with ipFamily on which IPv4 texts are addresses', () => {
    for (const text of ['10.0.0.1', '01.2.3.4', '1.2.3.04', '256.1.1.1', '0.0.0.0', '1.2.3', '255.255.255.255']) {
      expect(isIpv4(text), text).toBe(ipFamily(text) === 'ipv4');
    }
  });

  it('converts to and from text, and names the bad text when it throws', () => {
    for (const text of ['0.0.0.0', '10.20.30.40', '192.168.255.1', '255.255.255.255']) expect(intToIpv4(ipv4ToInt(text))).toBe(text);
    expect(() => ipv4ToInt('10.0.0')).toThrow('"10.0.0" is not an IPv4 address');
  });

  it('builds netmasks from prefix lengths', () => {
    expect(prefixMask(0)).toBe(0);
    expect(prefixMask(1)).toBe(0x80000000);
    expect(prefixMask(24)).toBe(0xffffff00);
    expect(prefixMask(32)).toBe(0xffffffff);
  });

  it('parses subnets with zero host bits, or returns null', () => {
    expect(parseIpv4Subnet('192.168.10.0/24')).toEqual({
      cidr: '192.168.10.0/24',
      network: 0xc0a80a00,
      prefix: 24,
      mask: 0xffffff00,
      broadcast: 0xc0a80aff,
    });
    expect(parseIpv4Subnet('0.0.0.0/0')).toMatchObject({ network: 0, mask: 0, broadcast: 0xffffffff });
    for (const bad of ['192.168.10.0', '192.168.10.7/24', '192.168.10.0/33', '192.168.10.0/024', '192.168.10.0/2x', 'fd00::/64', '300.0.0.0/8']) {
      expect(parseIpv4Subnet(bad), bad).toBeNull();
    }
  });

  it('tests membership and host addresses (RFC 3021 /31 uses both ends)', () => {
    const net = parseIpv4Subnet('10.1.0.0/16')!;
    expect(subnetHas(net, ipv4ToInt('10.1.200.3'))).toBe(true);
    expect(subnetHas(net, ipv4ToInt('10.2.0.1'))).toBe(false);
    const lan = parseIpv4Subnet('192.168.10.0/24')!;
    expect(isHostIn(lan, ipv4ToInt('192.168.10.1'))).toBe(true);
    expect(isHostIn(lan, ipv4ToInt('192.168.10.0'))).toBe(false);
    expect(isHostIn(lan, ipv4ToInt('192.168.10.255'))).toBe(false);
    expect(isHostIn(lan, ipv4ToInt('192.168.11.1'))).toBe(false);
    expect(isHostIn(parseIpv4Subnet('10.0.0.0/31')!, ipv4ToInt('10.0.0.1'))).toBe(true);
    expect(isHostIn(parseIpv4Subnet('10.0.0.5/32')!, ipv4ToInt('10.0.0.5'))).toBe(true);
  });

  it('gives the same host-address answer in the text and the numeric form', () => {
    const addresses = ['10.0.0.0', '10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.255', '10.0.1.0', '10.255.255.255'];
    for (const cidr of ['10.0.0.0/8', '10.0.0.0/24', '10.0.0.0/30', '10.0.0.0/31', '10.0.0.2/31', '10.0.0.1/32']) {
      for (const address of addresses) {
        expect(isHostAddressIn(parseSubnet(cidr), address), `${address} in ${cidr}`).toBe(isHostIn(parseIpv4Subnet(cidr)!, ipv4ToInt(address)));
      }
    }
  });
});
