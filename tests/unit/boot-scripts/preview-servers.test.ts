import { describe, expect, it } from 'vitest';
import { previewServers } from '../../../src-main/boot-scripts/preview-servers.js';
import type { HttpEndpoint } from '../../../src-main/boot-scripts/server-endpoint.js';
import type { ServedInterface } from '../../../src-main/network/network-service.js';
import type { Nic } from '../../../src-main/network/nic.js';
import { nic } from '../network/fixtures.js';

const wildcard: HttpEndpoint = { scheme: 'http', listenHost: '0.0.0.0', port: () => 8080 };
const served: ServedInterface[] = [
  { name: 'eth0', mac: null, mtu: 1500, ipv4: [{ subnet: '10.42.0.0/24', prefix: 24, address: '10.42.0.1', source: 'detected' }], ipv6: [] },
  { name: 'wlan0', mac: null, mtu: 1500, ipv4: [{ subnet: '192.168.1.0/24', prefix: 24, address: '192.168.1.10', source: 'detected' }], ipv6: [] },
];
// br0 has its address but no link: not served by "auto" yet, but DHCP is set to serve it.
const nics: Nic[] = [
  nic('eth0', [['10.42.0.1', 24, '10.42.0.0/24']]),
  nic('wlan0', [['192.168.1.10', 24, '192.168.1.0/24']]),
  nic('br0', [['10.50.0.1', 24, '10.50.0.0/24']], { up: false, link: 'down' }),
];
const network = { served: () => served, list: () => nics };

describe('previewServers', () => {
  it("lists our address per subnet a machine not seen yet may boot from, DHCP interfaces without a link included", () => {
    expect(previewServers(null, network, ['br0'], wildcard)).toEqual([
      { interface: 'eth0', subnet: '10.42.0.0/24', address: '10.42.0.1', entry_url: 'http://10.42.0.1:8080/boot/ipxe/entry.ipxe' },
      { interface: 'wlan0', subnet: '192.168.1.0/24', address: '192.168.1.10', entry_url: 'http://192.168.1.10:8080/boot/ipxe/entry.ipxe' },
      { interface: 'br0', subnet: '10.50.0.0/24', address: '10.50.0.1', entry_url: 'http://10.50.0.1:8080/boot/ipxe/entry.ipxe' },
    ]);
  });

  it("gives only the machine's own subnet once its address is known", () => {
    expect(previewServers('10.50.0.123', network, ['br0'], wildcard)).toEqual([
      { interface: 'br0', subnet: '10.50.0.0/24', address: '10.50.0.1', entry_url: 'http://10.50.0.1:8080/boot/ipxe/entry.ipxe' },
    ]);
    // An address on none of them: every subnet stays listed.
    expect(previewServers('172.16.0.5', network, [], wildcard).map((entry) => entry.subnet)).toEqual(['10.42.0.0/24', '192.168.1.0/24']);
  });

  it('uses a specific listen address everywhere (nothing else answers) and is empty with nothing to serve', () => {
    expect(previewServers(null, network, [], { scheme: 'https', listenHost: '10.42.0.1', port: () => 8443 }).map((entry) => entry.entry_url)).toEqual([
      'https://10.42.0.1:8443/boot/ipxe/entry.ipxe',
      'https://10.42.0.1:8443/boot/ipxe/entry.ipxe',
    ]);
    expect(previewServers(null, { served: () => [], list: () => [] }, ['br0'], wildcard)).toEqual([]);
  });
});
