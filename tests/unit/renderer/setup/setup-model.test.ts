import { describe, expect, it } from 'vitest';
import type { Nic, NicAddress } from '@contracts/network';
import { candidateInterfaces, linkOf, probeOutcome, recommendedMode, subnetFromSuggestion, suggestSubnet } from '../../../../src-renderer/src/pages/setup/setup-model.js';

const v4 = (address: string, prefix: number): NicAddress => ({ address, family: 'ipv4', prefix, cidr: `${address}/${prefix}`, subnet: '' });
const nic = (name: string, fields: Omit<Partial<Nic>, 'link'> & { link?: string } = {}): Nic => ({ name, mac: null, addresses: [], mtu: 1500, up: true, internal: false, ...fields }) as Nic;

describe('suggestSubnet', () => {
  it('offers .100-.199 of a /24, the server outside it', () => {
    expect(suggestSubnet(v4('192.168.50.1', 24))).toEqual({ subnet: '192.168.50.0/24', start: '192.168.50.100', end: '192.168.50.199', server: '192.168.50.1' });
  });

  it('keeps the server address out of the range, on the larger side', () => {
    expect(suggestSubnet(v4('192.168.50.120', 24))).toMatchObject({ start: '192.168.50.121', end: '192.168.50.199' });
    expect(suggestSubnet(v4('192.168.50.180', 24))).toMatchObject({ start: '192.168.50.100', end: '192.168.50.179' });
  });

  it('uses the server\'s /24 inside a larger network, and the upper half of a smaller one', () => {
    expect(suggestSubnet(v4('10.1.7.5', 16))).toEqual({ subnet: '10.1.0.0/16', start: '10.1.7.100', end: '10.1.7.199', server: '10.1.7.5' });
    expect(suggestSubnet(v4('10.0.0.1', 28))).toEqual({ subnet: '10.0.0.0/28', start: '10.0.0.8', end: '10.0.0.14', server: '10.0.0.1' });
  });

  it('has nothing to suggest without a usable IPv4 network', () => {
    expect(suggestSubnet(null)).toBeNull();
    expect(suggestSubnet(v4('10.0.0.1', 32))).toBeNull();
    expect(suggestSubnet(v4('10.0.0.1', 31))).toBeNull();
    expect(suggestSubnet({ address: 'fe80::1', family: 'ipv6', prefix: 64, cidr: 'fe80::1/64', subnet: 'fe80::/64' })).toBeNull();
  });

  it('builds a subnet with this server as router', () => {
    const suggestion = suggestSubnet(v4('192.168.50.1', 24));
    expect(suggestion).not.toBeNull();
    if (!suggestion) return;
    expect(subnetFromSuggestion(suggestion, { start: '192.168.50.150', end: '192.168.50.160' })).toMatchObject({
      subnet: '192.168.50.0/24',
      ranges: [{ start: '192.168.50.150', end: '192.168.50.160' }],
      router: '192.168.50.1',
    });
  });
});

describe('interfaces and probe', () => {
  it('reads a missing link field as unknown', () => {
    expect(linkOf(nic('eth0'))).toBe('unknown');
    expect(linkOf(nic('eth0', { link: 'down' }))).toBe('down');
    expect(linkOf(nic('eth0', { link: 'sideways' }))).toBe('unknown');
  });

  it('lists non-loopback interfaces, those with IPv4 first', () => {
    const list = candidateInterfaces([nic('lo', { internal: true }), nic('wlan0'), nic('eth1', { addresses: [v4('10.0.0.1', 24)] })]);
    expect(list.map((entry) => entry.name)).toEqual(['eth1', 'wlan0']);
  });

  it('recommends proxy mode only when another server answered', () => {
    expect(recommendedMode(probeOutcome(null))).toBe('server');
    expect(probeOutcome(null)).toEqual({ kind: 'unavailable' });
    expect(recommendedMode(probeOutcome({ interface: 'eth0', probed_at: '', foreign: [] }))).toBe('server');
    const foreign = { server_id: '10.0.0.254', source_ip: '10.0.0.254', mac: null, offered_ip: '10.0.0.23', subnet_mask: null, router: null, lease_seconds: 600 };
    expect(recommendedMode(probeOutcome({ interface: 'eth0', probed_at: '', foreign: [foreign] }))).toBe('proxy');
  });
});
