import { describe, expect, it } from 'vitest';
import { bmcAddressProblem, isValidBmcAddress, isValidPort } from '../../../src-main/power/bmc-address.js';

describe('BMC addresses', () => {
  it.each(['10.0.0.5', '192.0.2.1', '2001:db8::1', '::1', 'fe80::1%eth0', 'bmc', 'bmc-1.example', 'r640-idrac.lab.example.org', `${'a'.repeat(63)}.example`, '1a.2b'])(
    'accepts %s',
    (address) => expect(isValidBmcAddress(address)).toBe(true),
  );

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a newline', 'bmc\n'],
    ['a space', 'bmc 1'],
    ['non-ASCII', 'bmc€.example'],
    ['a leading hyphen', '-bmc'],
    ['a trailing hyphen', 'bmc-.example'],
    ['an empty label', 'bmc..example'],
    ['a trailing dot', 'bmc.example.'],
    ['a 64-character label', `${'a'.repeat(64)}.example`],
    ['more than 253 characters', Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')],
    ['a URL', 'https://bmc'],
    ['a user part', 'root@bmc'],
    ['a port suffix', '10.0.0.5:443'],
    ['an underscore', 'bmc_1'],
  ])('refuses %s', (_what, address) => {
    expect(isValidBmcAddress(address)).toBe(false);
    expect(bmcAddressProblem(address)).toMatch(/is not an IPv4\/IPv6 address or a host name/);
  });

  it('quotes control characters in the message instead of printing them', () => {
    expect(bmcAddressProblem('a\u0000b')).toContain('"a\\u0000b"');
    expect(bmcAddressProblem('')).toBe('is required');
  });

  it('checks ports', () => {
    expect([1, 443, 65535].every(isValidPort)).toBe(true);
    expect([0, 65536, -1, 1.5, Number.NaN, '443'].some(isValidPort)).toBe(false);
  });
});
