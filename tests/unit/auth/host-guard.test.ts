import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { HostAllowlist, normalizeHost } from '../../../src-main/auth/host-guard.js';
import { FakeClock, SECOND } from './fake-clock.js';

function iface(address: string): NetworkInterfaceInfo {
  const v6 = address.includes(':');
  return { address, netmask: v6 ? 'ffff:ffff:ffff:ffff::' : '255.255.255.0', family: v6 ? 'IPv6' : 'IPv4', mac: '00:00:00:00:00:00', internal: false, cidr: null, ...(v6 ? { scopeid: 0 } : {}) } as NetworkInterfaceInfo;
}

describe('normalizeHost', () => {
  it('normalises names, ports, IPv6 and odd IPv4 forms', () => {
    expect(normalizeHost('LocalHost:8080')).toBe('localhost');
    expect(normalizeHost('pxe.example.')).toBe('pxe.example');
    expect(normalizeHost('[0:0:0:0:0:0:0:1]:80')).toBe('[::1]');
    expect(normalizeHost('127.1')).toBe('127.0.0.1');
    expect(normalizeHost('')).toBeNull();
    expect(normalizeHost('evil.example/x')).toBeNull();
    expect(normalizeHost('user@evil.example')).toBeNull();
  });
});

describe('HostAllowlist', () => {
  const addresses = ['192.168.50.10', 'fe80::1234', '2001:db8::10'];
  const clock = new FakeClock();
  const allowlist = new HostAllowlist({
    hostname: () => 'PXE-Box',
    networkInterfaces: () => ({ eth0: addresses.map(iface) }),
    extraHosts: ['boot.example.net', '203.0.113.7'],
    now: clock.nowMs,
  });

  it('allows loopback names and addresses with or without port', () => {
    for (const host of ['localhost', 'localhost:80', 'localhost:8080', '127.0.0.1', '127.0.0.1:8080', '127.8.9.10:1', '[::1]', '[::1]:8080']) {
      expect(allowlist.allows(host), host).toBe(true);
    }
  });

  it('allows the machine name, its .local name and interface addresses', () => {
    for (const host of ['pxe-box', 'PXE-BOX:8080', 'pxe-box.local', '192.168.50.10:8080', '[fe80::1234]:8080', '[2001:db8::10]']) {
      expect(allowlist.allows(host), host).toBe(true);
    }
  });

  it('allows the extra names', () => {
    expect(allowlist.allows('boot.example.net:8080')).toBe(true);
    expect(allowlist.allows('203.0.113.7')).toBe(true);
  });

  it('rejects other names and addresses (DNS rebinding)', () => {
    for (const host of ['evil.example', 'evil.example:8080', 'localhost.evil.example', '192.168.50.11', '[2001:db8::11]', '8.8.8.8', 'pxe-box.evil', '', ' ', 'a b']) {
      expect(allowlist.allows(host), host).toBe(false);
    }
  });

  it('accepts names from added sources', () => {
    let names = ['bootwright.lan'];
    const withSource = new HostAllowlist({ hostname: () => 'box', networkInterfaces: () => ({}), now: clock.nowMs });
    expect(withSource.allows('bootwright.lan')).toBe(false);
    withSource.addSource(() => names);
    expect(withSource.allows('BootWright.lan:8080')).toBe(true);
    names = ['other.lan'];
    clock.advance(11 * SECOND);
    expect(withSource.allows('bootwright.lan')).toBe(false);
    expect(withSource.allows('other.lan')).toBe(true);
  });

  it('re-reads interface addresses after the cache period', () => {
    let current = ['192.168.7.1'];
    const ownClock = new FakeClock();
    const cached = new HostAllowlist({ hostname: () => 'box', networkInterfaces: () => ({ eth0: current.map(iface) }), now: ownClock.nowMs });
    expect(cached.allows('192.168.7.1')).toBe(true);
    current = ['10.1.1.1'];
    ownClock.advance(9 * SECOND);
    expect(cached.allows('10.1.1.1')).toBe(false);
    ownClock.advance(2 * SECOND);
    expect(cached.allows('10.1.1.1')).toBe(true);
    expect(cached.allows('192.168.7.1')).toBe(false);
  });

  it('accepts the address the connection arrived on (an interface node does not list, IPv4 on a dual-stack socket) and nothing else by it', () => {
    const bare = new HostAllowlist({ hostname: () => 'box', networkInterfaces: () => ({}), now: clock.nowMs });
    expect(bare.allows('10.20.0.1:8080')).toBe(false);
    expect(bare.allows('10.20.0.1:8080', '10.20.0.1')).toBe(true);
    expect(bare.allows('10.20.0.1', '::ffff:10.20.0.1')).toBe(true);
    expect(bare.allows('[fd00::1]:8080', 'fd00::1')).toBe(true);
    expect(bare.allows('10.20.0.2', '10.20.0.1')).toBe(false);
    expect(bare.allows('evil.example', '10.20.0.1')).toBe(false);
  });

  it('reads the sources again at once after invalidate()', () => {
    let names = ['a.lan'];
    const list = new HostAllowlist({ hostname: () => 'box', networkInterfaces: () => ({}), now: clock.nowMs });
    list.addSource(() => names);
    expect(list.allows('a.lan')).toBe(true);
    names = ['b.lan'];
    expect(list.allows('b.lan')).toBe(false);
    list.invalidate();
    expect(list.allows('b.lan')).toBe(true);
  });
});
