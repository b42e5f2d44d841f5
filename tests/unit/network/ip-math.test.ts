import { describe, expect, it } from 'vitest';
import {
  ipFamily,
  isHostAddressIn,
  isIpv6LinkLocal,
  normalizeIp,
  parseSubnet,
  prefixFromNetmask,
  subnetContains,
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
