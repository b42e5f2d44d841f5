import { describe, expect, it } from 'vitest';
import { lanUrls } from '../../../src-main/network/lan-urls.js';
import type { ServedInterface } from '../../../src-main/network/network-service.js';

const served: ServedInterface[] = [
  {
    name: 'eth0',
    mac: '52:54:00:00:00:01',
    mtu: 1500,
    ipv4: [
      { subnet: '10.42.0.0/24', prefix: 24, address: '10.42.0.1', source: 'detected' },
      { subnet: '10.43.0.0/24', prefix: 24, address: '10.43.0.1', source: 'override' },
    ],
    ipv6: [{ subnet: 'fd42::/64', prefix: 64, address: 'fd42::1', source: 'detected' }],
  },
  { name: 'wlan0', mac: null, mtu: 1500, ipv4: [{ subnet: '192.168.1.0/24', prefix: 24, address: '192.168.1.10', source: 'detected' }], ipv6: [] },
];

describe('lanUrls', () => {
  it('lists every served IPv4 address for the IPv4 wildcard', () => {
    expect(lanUrls(served, { scheme: 'http', listenHost: '0.0.0.0' }, 8080)).toEqual(['http://10.42.0.1:8080', 'http://10.43.0.1:8080', 'http://192.168.1.10:8080']);
  });

  it('adds the IPv6 addresses (bracketed) for the dual-stack wildcard', () => {
    expect(lanUrls(served, { scheme: 'https', listenHost: '::' }, 8443)).toEqual([
      'https://10.42.0.1:8443',
      'https://10.43.0.1:8443',
      'https://[fd42::1]:8443',
      'https://192.168.1.10:8443',
    ]);
  });

  it('gives only a specific listen address: nothing else answers', () => {
    expect(lanUrls(served, { scheme: 'http', listenHost: '10.42.0.1' }, 8080)).toEqual(['http://10.42.0.1:8080']);
    expect(lanUrls(served, { scheme: 'http', listenHost: 'fd42::1' }, 8080)).toEqual(['http://[fd42::1]:8080']);
  });

  it('is empty while nothing is served', () => {
    expect(lanUrls([], { scheme: 'http', listenHost: '0.0.0.0' }, 8080)).toEqual([]);
  });
});
