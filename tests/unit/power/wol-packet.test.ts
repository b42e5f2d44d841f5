import { describe, expect, it } from 'vitest';
import { decodeMagicPacket, encodeMagicPacket, MagicPacketError, parseSecureOnPassword } from '../../../src-main/power/wol/magic-packet.js';
import { chooseWolInterfaces, wolInterfaces, WolRouteError } from '../../../src-main/power/wol/wol-interfaces.js';
import { fuzzDecoder } from './decoder-fuzz.js';
import { POWER_NICS } from './power-test-kit.js';

describe('magic packet', () => {
  it('is six FFh bytes and sixteen copies of the MAC', () => {
    const packet = encodeMagicPacket({ mac: '52-54-00-AB-CD-EF', password: null });
    expect(packet.length).toBe(102);
    expect(encodeMagicPacket.bytes).toBe(102);
    expect(packet.subarray(0, 6).toString('hex')).toBe('ffffffffffff');
    for (let i = 0; i < 16; i += 1) expect(packet.subarray(6 + i * 6, 12 + i * 6).toString('hex')).toBe('525400abcdef');
    expect(decodeMagicPacket(packet)).toEqual({ mac: '52:54:00:ab:cd:ef', password: null });
  });

  it('carries a SecureOn password of 4 or 6 bytes', () => {
    for (const text of ['01:02:03:04:05:06', '192.168.1.1']) {
      const password = parseSecureOnPassword(text)!;
      const packet = encodeMagicPacket({ mac: '52:54:00:00:00:01', password });
      expect(packet.length).toBe(102 + password.length);
      expect(decodeMagicPacket(packet).password).toEqual(password);
    }
    expect(parseSecureOnPassword('not a password')).toBeNull();
    expect(parseSecureOnPassword('1.2.3.256')).toBeNull();
    expect(() => encodeMagicPacket({ mac: '52:54:00:00:00:01', password: Buffer.alloc(5) })).toThrow(MagicPacketError);
  });

  it('encodes at an offset inside a larger buffer', () => {
    const big = Buffer.alloc(110, 0xaa);
    encodeMagicPacket({ mac: '52:54:00:00:00:02', password: null }, big, 4);
    expect(big.subarray(0, 4).every((byte) => byte === 0xaa)).toBe(true);
    expect(decodeMagicPacket(big.subarray(4, 106))).toEqual({ mac: '52:54:00:00:00:02', password: null });
  });

  it('refuses anything else, with one error type, under fuzzing', () => {
    const packet = encodeMagicPacket({ mac: '52:54:00:00:00:03', password: null });
    const broken = Buffer.from(packet);
    broken[50] = broken[50]! ^ 1;
    expect(() => decodeMagicPacket(broken)).toThrow(/repetition/);
    expect(() => decodeMagicPacket(packet.subarray(1))).toThrow(MagicPacketError);
    fuzzDecoder('magic packet', (buf) => decodeMagicPacket(buf), [packet, encodeMagicPacket({ mac: '52:54:00:00:00:03', password: Buffer.alloc(6, 1) })], MagicPacketError);
  });
});

describe('WOL interfaces', () => {
  const candidates = wolInterfaces(POWER_NICS, new Set(['eth1']));

  it('lists up, non-loopback IPv4 addresses that have a broadcast address', () => {
    expect(candidates.map((c) => `${c.name} ${c.address}/${c.prefix} → ${c.broadcast}${c.served ? ' served' : ''}`)).toEqual([
      'eth0 192.0.2.1/24 → 192.0.2.255',
      'eth1 198.51.100.1/24 → 198.51.100.255 served',
      'eth1 198.51.100.129/25 → 198.51.100.255 served',
    ]);
  });

  it('picks the most specific subnet holding the host address', () => {
    expect(chooseWolInterfaces(candidates, { ip: '192.0.2.77' }).map((c) => c.address)).toEqual(['192.0.2.1']);
    expect(chooseWolInterfaces(candidates, { ip: '198.51.100.200' }).map((c) => c.address)).toEqual(['198.51.100.129']);
    expect(() => chooseWolInterfaces(candidates, { ip: '203.0.113.9' })).toThrow(WolRouteError);
    expect(() => chooseWolInterfaces(candidates, { ip: '2001:db8::1' })).toThrow(/IPv4/);
  });

  it('honours a named interface, else uses the served ones, else all', () => {
    expect(chooseWolInterfaces(candidates, { interface: 'eth0', ip: '198.51.100.5' }).map((c) => c.name)).toEqual(['eth0']);
    expect(() => chooseWolInterfaces(candidates, { interface: 'eth9' })).toThrow(/usable: eth0, eth1/);
    expect(chooseWolInterfaces(candidates, {}).map((c) => c.address)).toEqual(['198.51.100.1', '198.51.100.129']);
    expect(chooseWolInterfaces(wolInterfaces(POWER_NICS, new Set()), {}).map((c) => c.name)).toEqual(['eth0', 'eth1', 'eth1']);
    expect(() => chooseWolInterfaces([], {})).toThrow(/no interface/);
  });
});
