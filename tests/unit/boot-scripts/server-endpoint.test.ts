import { describe, expect, it } from 'vitest';
import { serverAddressFor, serverEndpointFor, type HttpEndpoint } from '../../../src-main/boot-scripts/server-endpoint.js';

const wildcard: HttpEndpoint = { scheme: 'http', listenHost: '0.0.0.0', port: () => 8080 };

function network(table: Record<string, string>, served: string[] = []) {
  return {
    serverAddressFor: (ip: string) => table[ip] ?? null,
    served: () => served.map((address, index) => ({ name: `eth${index}`, mac: null, mtu: 1500, ipv4: [{ subnet: 'x', prefix: 24, address, source: 'detected' as const }], ipv6: [] })),
  };
}

describe('server address for a client', () => {
  it('uses a specific listen address first', () => {
    expect(serverAddressFor('10.0.0.5', network({ '10.0.0.5': '10.0.0.1' }), { ...wildcard, listenHost: '192.168.1.2' })).toBe('192.168.1.2');
  });

  it('uses our address on the client subnet, IPv4-mapped clients included', () => {
    expect(serverAddressFor('10.0.0.5', network({ '10.0.0.5': '10.0.0.1' }), wildcard)).toBe('10.0.0.1');
    expect(serverAddressFor('::ffff:10.0.0.5', network({ '10.0.0.5': '10.0.0.1' }), wildcard)).toBe('10.0.0.1');
  });

  it('answers a loopback client on loopback, else the first served address, else 127.0.0.1', () => {
    expect(serverAddressFor('127.0.0.1', network({}, ['10.1.1.1']), wildcard)).toBe('127.0.0.1');
    expect(serverAddressFor('::1', network({}), wildcard)).toBe('::1');
    expect(serverAddressFor('172.16.0.9', network({}, ['10.1.1.1']), wildcard)).toBe('10.1.1.1');
    expect(serverAddressFor('172.16.0.9', network({}), wildcard)).toBe('127.0.0.1');
  });

  it('builds the URLs, bracketing IPv6', () => {
    expect(serverEndpointFor('10.0.0.5', network({ '10.0.0.5': '10.0.0.1' }), { scheme: 'https', listenHost: '::', port: () => 8443 })).toEqual({
      ip: '10.0.0.1',
      http_port: 8443,
      base_url: 'https://10.0.0.1:8443',
      boot_url: 'https://10.0.0.1:8443/boot',
      entry_url: 'https://10.0.0.1:8443/boot/ipxe/entry.ipxe',
      script_url: 'https://10.0.0.1:8443/boot/ipxe/boot.ipxe',
    });
    expect(serverEndpointFor('fd00::5', network({ 'fd00::5': 'fd00::1' }), wildcard).base_url).toBe('http://[fd00::1]:8080');
  });
});
